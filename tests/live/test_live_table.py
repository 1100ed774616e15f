"""The live loop on its own thread feeding a table: the demo game scored hands-free, a camera
that vanishes and returns, and ``atelier serve`` refusing a bad source."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.cli.live import LiveChoice, choose_source, start_live
from companion.errors import SourceError
from companion.positions import evaluate_document
from companion.table.events import SCAN
from companion.table.session import Tables
from tests.cli import assert_user_error, atelier
from tests.live.video import SEED, render, scanner
from vision.capture.latest import Capture
from vision.images import Image
from vision.live.demo import DemoSource, scripted_game
from vision.live.loop import LiveLoop, LiveReader, Views
from vision.live.stability import Accepted, Settings


def test_the_demo_plays_headless_and_its_turns_reach_the_table_as_scans(tmp_path: Path) -> None:
    shots = scripted_game(SEED, players=2, turns=1)  # primed table, one turn: 6.2 s of video
    tables = Tables(tmp_path)
    messages: list[str] = []
    choice = LiveChoice(DemoSource(shots, SEED, hold=False), ("Ana", "Ben"))
    loop, created = start_live(tables, choice, messages.append)
    try:
        assert loop.wait(timeout=30.0)
    finally:
        loop.stop()
    events = [e for e in tables.events(created.table) if e.kind == SCAN]
    assert [[b["seat"] for b in e.data["boards"]] for e in events] == [[1, 2], [1]]
    assert messages == ["live: scan #1 (seat 1, 2)", "live: scan #2 (seat 1)", "demo: ended"]
    state = tables.state(created.table)
    final = shots[-1].positions
    for seat, position in enumerate(final, 1):
        assert state.total(seat) == evaluate_document(position, "truth").data["total"]
    tables.close()


class Vanishing:
    """A camera showing one table, unplugged after a while, plugged back in on another."""

    name = "camera 7"
    fps = None
    finite = False

    def __init__(self, before: Image, after: Image) -> None:
        self.images = (before, after)
        self.opens = 0
        self.reads = 0

    def open(self) -> None:
        self.opens += 1
        self.reads = 0

    def read(self) -> Image | None:
        self.reads += 1
        threading.Event().wait(0.02)
        if self.opens == 1 and self.reads > 40:
            return None
        return self.images[min(self.opens, 2) - 1]

    def close(self) -> None:
        self.reads = 0


def test_a_camera_that_vanishes_is_reported_and_read_again_when_it_returns() -> None:
    shots = scripted_game(SEED)
    before, after = render(shots[0].positions), render(shots[2].positions)
    messages: list[str] = []
    accepted: list[list[Accepted]] = []
    done = threading.Event()

    def accept(found: Sequence[Accepted], _: Views) -> None:
        accepted.append(list(found))
        if len(accepted) == 2:
            done.set()

    capture = Capture(Vanishing(before, after), messages.append, retry_s=0.05)
    reader = LiveReader(accept, Settings(hold_s=0.2), scanner())
    loop = LiveLoop(capture, reader)
    capture.start()
    loop.start()
    try:
        assert done.wait(timeout=20.0)
    finally:
        loop.stop()
    assert messages == ["camera 7: lost; retrying every 0.05 s", "camera 7: back"]
    assert [[a.observation.player for a in found] for found in accepted] == [[1, 2], [1]]


def test_serve_refuses_a_missing_video_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "table.mp4"
    run = atelier("serve", "--video", missing, "--data", tmp_path / "data")
    assert_user_error(run, f"{missing}: no such file, folder, camera index or stream URL")
    assert not (tmp_path / "data").exists()


def test_no_live_option_means_a_table_scanned_from_phones_only() -> None:
    assert choose_source(None, None, False) is None
    camera = choose_source(3, None, False)
    assert camera is not None
    assert (camera.source.name, camera.players) == (
        "camera 3",
        ("Seat 1", "Seat 2", "Seat 3", "Seat 4"),
    )


class Unplugged:
    name = "camera 5"
    fps = None
    finite = False

    def open(self) -> None:
        raise SourceError(self.name, "cannot be opened (not a camera or stream that answers)")

    def read(self) -> Image | None:
        return None

    def close(self) -> None:
        return None


def test_a_camera_that_cannot_be_opened_fails_before_a_table_is_made(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    with pytest.raises(SourceError, match=r"^camera 5: cannot be opened \(not a camera or"):
        start_live(tables, LiveChoice(Unplugged(), ("Ana",)), lambda _: None)
    assert tables.ids() == []
    tables.close()
