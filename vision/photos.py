"""Photos sent to a table: checked by their bytes, decoded in memory, read by the scanner.

Nothing from a request reaches the file system. The type comes from the first bytes, not from
the name or the declared type; the size in pixels is read from the header before anything is
decoded, so a small file that would decode into gigabytes is refused first.
"""

from __future__ import annotations

import struct
import threading

import cv2
import numpy as np

from companion.reading import PhotoError, PhotoReading
from vision.images import Image
from vision.scan.scanner import Scanner
from vision.scan.views import board_views
from vision.stored_views import stored_views

MAX_PIXELS = 50_000_000  # a 50-megapixel phone photo is read; larger ones are refused
JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def sniff(data: bytes) -> tuple[str, int, int]:
    """The format and size (width, height) a JPEG or PNG declares in its header."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data.startswith(b"\xff\xd8\xff"):
        at = 2
        while at + 4 <= len(data):
            if data[at] != 0xFF:
                break
            marker = data[at + 1]
            if marker == 0xFF:
                at += 1  # fill byte
                continue
            (length,) = struct.unpack(">H", data[at + 2 : at + 4])
            if marker in JPEG_SOF and at + 9 <= len(data):
                height, width = struct.unpack(">HH", data[at + 5 : at + 9])
                return "jpeg", width, height
            at += 2 + length
        raise PhotoError("image: a JPEG without a readable frame header")
    raise PhotoError("image: not a JPEG or PNG photo")


def decode(data: bytes) -> Image:
    """The photo's pixels (BGR), once its header says it is a JPEG or PNG of a sane size."""
    if not data:
        raise PhotoError("image: empty file")
    kind, width, height = sniff(data)
    if width == 0 or height == 0:
        raise PhotoError(f"image: the {kind} declares no pixels")
    if width * height > MAX_PIXELS:
        raise PhotoError(
            f"image: {width}x{height} is more than {MAX_PIXELS // 1_000_000} megapixels"
        )
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise PhotoError(f"image: a damaged {kind} that cannot be decoded")
    return np.asarray(image, np.uint8)


class PhotoReader:
    """The table's photo reader: one scanner, built on first use (it draws every printed board
    once); scans run one at a time since the scanner keeps caches."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scanner: Scanner | None = None

    def read_photo(self, data: bytes) -> PhotoReading:
        image = decode(data)
        with self._lock:
            if self._scanner is None:
                self._scanner = Scanner()
            scanner = self._scanner
            observation = scanner.scan(image)
            views = board_views(image, observation.markers, scanner.index, observation.boards)
        return PhotoReading(
            observation.boards,
            stored_views(views),
            observation.total_ms,
            tuple(u.problem for u in observation.unreadable),
        )
