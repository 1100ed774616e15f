"""Photos sent to a table: checked by their bytes, decoded in memory, read by the scanner.

Nothing from a request reaches the file system. The type comes from the first bytes, not from
the name or the declared type; the size in pixels is read from the header before anything is
decoded, so a small file that would decode into gigabytes is refused first (``vision.images``).
"""

from __future__ import annotations

import threading

from companion.reading import PhotoError, PhotoReading
from vision.image_header import Kind
from vision.images import Image, ImageError, decode_image
from vision.scan.scanner import Scanner
from vision.scan.views import board_views
from vision.stored_views import stored_views

# A phone sends JPEG or PNG; the other decoders stay out of reach of the network.
PHOTO_KINDS = (Kind.JPEG, Kind.PNG)


def decode(data: bytes) -> Image:
    """The photo's pixels (BGR), once its header says it is a JPEG or PNG of a sane size."""
    try:
        return decode_image(data, PHOTO_KINDS)
    except ImageError as exc:
        raise PhotoError(f"image: {exc}") from None


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
