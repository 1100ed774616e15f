"""Capture sources: files, folders and cameras; the newest frame only; a source that vanishes."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import AtelierError, SourceError
from vision.capture.latest import Capture
from vision.capture.sources import FolderSource, camera, parse_source, video_file
from vision.images import Image


def image(level: int) -> Image:
    return np.full((24, 32, 3), level, np.uint8)


class Flaky:
    """A live source that serves frames 1..3, vanishes, refuses to reopen twice, then serves
    frames 4..6 and goes on showing frame 6 (a camera over a still table)."""

    name = "camera 9"
    fps = None
    finite = False

    def __init__(self) -> None:
        self.opens = 0
        self.levels = [1, 2, 3]

    def open(self) -> None:
        self.opens += 1
        if self.opens in (2, 3):
            raise SourceError(self.name, "cannot be opened")
        if self.opens == 4:
            self.levels = [4, 5, 6]

    def read(self) -> Image | None:
        if self.levels:
            return image(self.levels.pop(0))
        if self.opens >= 4:
            threading.Event().wait(0.01)
            return image(6)
        return None

    def close(self) -> None:
        self.levels = []


def test_a_source_that_vanishes_is_reported_once_and_reopened_until_it_returns() -> None:
    messages: list[str] = []
    source = Flaky()
    capture = Capture(source, messages.append, retry_s=0.01)
    capture.start()
    try:
        levels: list[int] = []
        seen = 0
        while len(levels) < 6 or levels[-1] != 6:
            frame = capture.latest(seen, timeout=5.0)
            assert frame is not None
            seen = frame.index
            levels.append(int(frame.image[0, 0, 0]))
    finally:
        capture.stop()
    assert messages == ["camera 9: lost; retrying every 0.01 s", "camera 9: back"]
    assert source.opens == 4
    # Frames come in order (some dropped for newer ones), from before and after the gap.
    assert levels == sorted(levels) and levels[0] <= 3 and levels[-1] == 6


def test_a_slow_reader_gets_the_newest_frame_and_the_rest_are_dropped(tmp_path: Path) -> None:
    for level in range(10):
        cv2.imwrite(str(tmp_path / f"frame{level:02}.png"), image(level * 10))
    capture = Capture(FolderSource(tmp_path, fps=1000.0), lambda _: None)
    capture.start()
    try:
        while not capture.ended:
            threading.Event().wait(0.01)
        frame = capture.latest(0, timeout=1.0)
    finally:
        capture.stop()
    assert frame is not None
    assert (frame.index, int(frame.image[0, 0, 0])) == (10, 90)
    assert capture.dropped == 9
    assert capture.latest(frame.index, timeout=0.05) is None  # ended: nothing newer comes


def test_a_video_file_plays_its_frames_in_order(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 50.0, (32, 24))
    for level in (40, 120, 200):
        writer.write(image(level))
    writer.release()
    source = video_file(path)
    source.open()
    try:
        read = [source.read() for _ in range(4)]
    finally:
        source.close()
    assert source.fps == 50.0
    levels = [None if r is None else round(float(r.mean()) / 10) * 10 for r in read]
    assert levels == [40, 120, 200, None]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: parse_source(str(p / "none.mp4")), "none.mp4: no such file, folder, camera"),
        (lambda p: video_file(p), "is a folder, not a video"),
        (lambda p: FolderSource(p).open(), "holds no images (.bmp, .jpeg"),
        (lambda p: FolderSource(p / "gone").open(), "gone: no such folder"),
        (lambda p: camera(-1), "camera -1: a camera index is 0 or more"),
        (lambda p: parse_source(str(p / "bad.mp4")).open(), "bad.mp4: cannot be opened"),
    ],
)
def test_bad_sources_are_refused_in_one_line(tmp_path: Path, make: object, message: str) -> None:
    (tmp_path / "bad.mp4").write_bytes(b"not a video")
    with pytest.raises(AtelierError) as caught:
        make(tmp_path)  # type: ignore[operator]
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_source_is_named_by_what_it_looks_like(tmp_path: Path) -> None:
    (tmp_path / "game.mp4").write_bytes(b"")
    assert parse_source("0").name == "camera 0"
    assert parse_source("rtsp://table.local/live").name == "rtsp://table.local/live"
    assert isinstance(parse_source(str(tmp_path)), FolderSource)
    assert parse_source(str(tmp_path / "game.mp4")).finite
