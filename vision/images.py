"""Reading images from files and bytes, with one-line errors a user can act on.

An image is decoded only once its header says it is a kind Atelier reads and at most
``MAX_PIXELS``: what a decoder allocates follows the header, not the file's size.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import SourceError
from vision.image_header import ALL_KINDS, HeaderError, Kind, read_header

Image = NDArray[np.uint8]

# The full frame of the largest 50-megapixel phone sensors (8192x6144, 151 MB once decoded as
# BGR); 8K video frames (7680x4320) fit too.
MAX_PIXELS = 8192 * 6144

# OpenCV's log level is the whole process's, set once here, when anything that decodes is first
# imported. Its warnings about a damaged file ("PNG input buffer is incomplete") say less than the
# one-line error reported for it, and a server would log one for every bad upload; errors still
# show.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


class ImageError(ValueError):
    """Bytes that are not an image Atelier decodes; the message is one line."""


def decode_image(
    data: bytes, kinds: Collection[Kind] = ALL_KINDS, grayscale: bool = False
) -> Image:
    """The pixels of an image file's bytes (BGR, or one channel when ``grayscale``), once its
    header says it is one of ``kinds`` of at most ``MAX_PIXELS``."""
    if not data:
        raise ImageError("empty file")
    try:
        header = read_header(data, kinds)
    except HeaderError as exc:
        raise ImageError(str(exc)) from None
    if header.width == 0 or header.height == 0:
        raise ImageError(f"the {header.kind.value} declares no pixels")
    if header.pixels > MAX_PIXELS:
        raise ImageError(
            f"{header.width}x{header.height} is {header.pixels:,} pixels, more than a "
            f"50-megapixel photo (at most {MAX_PIXELS:,})"
        )
    flags = cv2.IMREAD_GRAYSCALE if grayscale else cv2.IMREAD_COLOR
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if image is None:
        raise ImageError(f"a damaged {header.kind.value} that cannot be decoded")
    return np.asarray(image, dtype=np.uint8)


def read_image(path: Path, grayscale: bool = False) -> Image:
    """The image at ``path`` (BGR, or one channel when ``grayscale``)."""
    if not path.exists():
        raise SourceError(str(path), "no such file")
    if path.is_dir():
        raise SourceError(str(path), "is a directory, not an image")
    # Read as bytes and decoded in memory: unlike imread, this copes with any path.
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(str(path), exc.strerror or str(exc)) from None
    try:
        return decode_image(data, grayscale=grayscale)
    except ImageError as exc:
        raise SourceError(str(path), exc) from None


def to_gray(image: Image) -> Image:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
