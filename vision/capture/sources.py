"""Where frames come from: a camera index, a stream URL, a video file or a folder of images.

Each source opens (raising a one-line ``SourceError`` when it cannot) and then yields frames
until it ends or vanishes; the capture thread decides what to do about either.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from companion.errors import SourceError
from vision.images import Image, read_image

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
FOLDER_FPS = 10.0  # a folder of photos plays at this rate unless told otherwise


class Source(Protocol):
    """A source of frames. ``fps`` is the rate a recorded source plays at (None for a live one,
    which sets its own pace); ``finite`` sources end, live ones may only vanish."""

    @property
    def name(self) -> str: ...

    @property
    def fps(self) -> float | None: ...

    @property
    def finite(self) -> bool: ...

    def open(self) -> None: ...

    def read(self) -> Image | None:
        """The next frame; None once the source has ended or vanished."""
        ...

    def close(self) -> None: ...


class VideoSource:
    """A camera, a stream or a video file, through ``cv2.VideoCapture``."""

    def __init__(self, target: int | str, name: str, recorded: bool) -> None:
        self._target = target
        self.name = name
        self.finite = recorded
        self.fps: float | None = None
        self._capture: cv2.VideoCapture | None = None

    def open(self) -> None:
        self.close()
        capture = cv2.VideoCapture(self._target)
        if not capture.isOpened():
            capture.release()
            what = "a video OpenCV can read" if self.finite else "a camera or stream that answers"
            raise SourceError(self.name, f"cannot be opened (not {what})")
        if self.finite:
            rate = float(capture.get(cv2.CAP_PROP_FPS))
            # Files that declare no rate are played at a camera's usual 25 frames a second.
            self.fps = rate if 0.0 < rate <= 240.0 else 25.0
        self._capture = capture

    def read(self) -> Image | None:
        if self._capture is None:
            return None
        ok, frame = self._capture.read()
        if not ok or frame is None:
            return None
        return np.asarray(frame, np.uint8)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class FolderSource:
    """The images of a folder in name order, played as a video."""

    def __init__(self, folder: Path, fps: float = FOLDER_FPS) -> None:
        self.folder = folder
        self.name = str(folder)
        self.fps: float | None = fps
        self.finite = True
        self._files: Sequence[Path] = ()
        self._next = 0

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(self.name, "no such folder")
        files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            known = ", ".join(sorted(IMAGE_SUFFIXES))
            raise SourceError(self.name, f"holds no images ({known})")
        self._files = files
        self._next = 0

    def read(self) -> Image | None:
        if self._next >= len(self._files):
            return None
        path = self._files[self._next]
        self._next += 1
        return read_image(path)

    def close(self) -> None:
        self._files = ()


def camera(index: int) -> VideoSource:
    if index < 0:
        raise SourceError(f"camera {index}", "a camera index is 0 or more")
    return VideoSource(index, f"camera {index}", recorded=False)


def video_file(path: Path) -> VideoSource:
    if not path.exists():
        raise SourceError(str(path), "no such file")
    if path.is_dir():
        raise SourceError(str(path), "is a folder, not a video")
    return VideoSource(str(path), str(path), recorded=True)


def parse_source(text: str) -> VideoSource | FolderSource:
    """The source a user names: a camera index (``0``), a stream URL (``rtsp://...``), a folder
    of images or a video file."""
    if text.isdigit():
        return camera(int(text))
    if "://" in text:
        return VideoSource(text, text, recorded=False)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path)
    if not path.exists():
        raise SourceError(text, "no such file, folder, camera index or stream URL")
    return video_file(path)
