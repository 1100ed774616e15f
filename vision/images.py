"""Reading images from files, with one-line errors a user can act on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import SourceError

Image = NDArray[np.uint8]


def read_image(path: Path, grayscale: bool = False) -> Image:
    """The image at ``path`` (BGR, or one channel when ``grayscale``)."""
    if not path.exists():
        raise SourceError(str(path), "no such file")
    if path.is_dir():
        raise SourceError(str(path), "is a directory, not an image")
    # imdecode over a byte buffer, unlike imread, copes with any path and never prints warnings.
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        raise SourceError(str(path), exc.strerror or str(exc)) from None
    flags = cv2.IMREAD_GRAYSCALE if grayscale else cv2.IMREAD_COLOR
    image = cv2.imdecode(data, flags) if data.size else None
    if image is None:
        raise SourceError(str(path), "not an image OpenCV can read (expected JPEG, PNG, ...)")
    return np.asarray(image, dtype=np.uint8)


def to_gray(image: Image) -> Image:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
