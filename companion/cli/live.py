"""The live table behind ``atelier serve --camera / --video / --demo``: a table created at start
and fed, hands-free, with every board reading the live loop accepts."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.cli.output import check_range, emit_json
from companion.errors import AtelierError
from companion.table.session import Created, Tables
from companion.table.setup import PRINTED_SEATS
from companion.table.store import BoardView as StoredView
from vision.capture.latest import Capture
from vision.capture.sources import Source, camera, parse_source, video_file
from vision.live.debug import debug_jpeg
from vision.live.demo import DemoSource, scripted_game
from vision.live.loop import LiveLoop, LiveReader, Views
from vision.live.stability import Accepted

LIVE_GAME = "colorfield"  # the one game a table scores with nothing but what the camera sees
DEMO_SEED = 2  # its hands cover a marker of the board they reach over, as a real hand would
DEMO_PLAYERS = ("Ana", "Ben")


@dataclass(frozen=True)
class LiveChoice:
    source: Source
    players: tuple[str, ...]


def choose_source(camera_index: int | None, video: str | None, demo: bool) -> LiveChoice | None:
    """The live source the options name, or None for a table scanned from phones only."""
    everyone = tuple(f"Seat {seat}" for seat in range(1, PRINTED_SEATS[LIVE_GAME] + 1))
    if camera_index is not None:
        return LiveChoice(camera(camera_index), everyone)
    if video is not None:
        # Digits after --video are a file's name, never a camera.
        source = video_file(Path(video)) if video.isdigit() else parse_source(video)
        return LiveChoice(source, everyone)
    if demo:
        shots = scripted_game(DEMO_SEED, players=len(DEMO_PLAYERS))
        return LiveChoice(DemoSource(shots, DEMO_SEED), DEMO_PLAYERS)
    return None


class TableFeed:
    """Turns accepted readings into the table's scan events."""

    def __init__(self, tables: Tables, table: str, report: Callable[[str], None]) -> None:
        self.tables = tables
        self.table = table
        self._report = report

    def __call__(self, accepted: Sequence[Accepted], views: Views) -> None:
        stored = {
            key: StoredView(
                view.jpeg,
                {
                    "width": view.width,
                    "height": view.height,
                    "regions": {n: [list(p) for p in pts] for n, pts in view.regions.items()},
                },
            )
            for key, view in views.items()
        }
        try:
            result = self.tables.scan(self.table, [a.observation for a in accepted], stored)
        except AtelierError as exc:
            self._report(f"live: {exc}")
            return
        seats = ", ".join(str(r.seat) for r in result.readings)
        self._report(f"live: scan #{result.event.id} (seat {seats})")


def report_to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def start_live(
    tables: Tables, choice: LiveChoice, report: Callable[[str], None] = report_to_stderr
) -> tuple[LiveLoop, Created]:
    """A new table for the live source's players, and the loop feeding it, running."""
    capture = Capture(choice.source, report)
    capture.start()  # a camera that cannot be opened fails here, before a table is made for it
    try:
        players = [{"name": name} for name in choice.players]
        created = tables.create({"game": LIVE_GAME, "players": players})
        loop = LiveLoop(capture, LiveReader(TableFeed(tables, created.table, report)))
        loop.start()
    except BaseException:
        capture.stop()
        raise
    return loop, created


def live_view(loop: LiveLoop, table: str) -> Callable[[str], bytes | None]:
    """The web's camera view of ``table``: the loop's newest frame, annotated."""

    def view(asked: str) -> bytes | None:
        seen = loop.reader.latest
        if asked != table or seen is None:
            return None
        return debug_jpeg(seen, loop.reader.scanner.index, loop.reader.filter.settings)

    return view


def run_live_bench_command(args: argparse.Namespace) -> int:
    """``atelier bench live``: the loop on one core over rendered video, events into a table."""
    check_range(args.turns, 1, 100, "--turns")
    check_range(args.minutes, 0, 600, "--minutes")
    check_range(args.fps, 1, 240, "--fps")
    from vision.live.bench import run_live_bench

    # One core, as promised by the measurement: the loop and OpenCV's own threads share it.
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    tty = sys.stderr.isatty()

    def progress(step: str) -> None:
        if tty:
            print(f"\r{step:<40}", end="", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(Path(folder))
        try:
            created = tables.create(
                {"game": LIVE_GAME, "players": [{"name": name} for name in DEMO_PLAYERS]}
            )
            feed = TableFeed(tables, created.table, lambda _: None)
            results = run_live_bench(
                feed, args.turns, args.minutes, args.seed, fps=args.fps, progress=progress
            )
        finally:
            tables.close()
    if tty:
        print(file=sys.stderr)
    latency, frame = results["latency_ms"], results["frame_ms"]
    memory = results["memory"]
    print(
        f"{results['frames']} frames ({results['video_seconds']} s of video at "
        f"{results['video_fps']:g} fps, {results['size'][0]}x{results['size'][1]}): "
        f"{results['fps_sustained']} fps sustained on one core (frame median {frame['median']} "
        f"ms, p95 {frame['p95']} ms); settled table to event median {latency['median']} ms, "
        f"max {latency['max']} ms; {results['events']} events for {results['changes']} changes, "
        f"{results['missed']} missed, {len(results['wrong'])} wrong; memory "
        f"{memory[0]['rss_mb']} MB -> {memory[-1]['rss_mb']} MB",
        file=sys.stderr,
    )
    return emit_json(results)
