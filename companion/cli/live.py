"""The live tables behind ``atelier serve --camera / --video / --demo``: a table created as the
live source starts each game, fed hands-free with every board reading the live loop accepts. A
game played again (the demo, round and round) replaces its table of the round before."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.cli.output import check_games, check_range, emit_json
from companion.errors import AtelierError
from companion.games.registry import games
from companion.games.scripts import Script
from companion.table.rotation import Rotation
from companion.table.session import Created, Tables
from companion.table.setup import PRINTED_SEATS
from companion.table.store import BoardView as StoredView
from vision.capture.latest import Capture, Frame
from vision.capture.sources import Source, camera, parse_source, video_file
from vision.live.debug import debug_jpeg
from vision.live.demo import DemoSource, demo_games
from vision.live.loop import LiveLoop, LiveReader, Views
from vision.live.stability import Accepted, Settings

LIVE_GAME = "colorfield"  # the one game a table scores with nothing but what the camera sees
DEMO_PLAYERS = ("Ana", "Ben")


def _first_game(index: int) -> int:
    return 0


@dataclass(frozen=True)
class LiveChoice:
    """A live source and the tables its games are scored on."""

    source: Source
    setups: tuple[dict[str, Any], ...]  # each game's table, as ``Tables.create`` takes it
    # Which game the ``index``-th frame shows, counting every game played (0 the first); the
    # setup of game n is ``setups[n % len(setups)]``: a game played again is a new game.
    game_at: Callable[[int], int] = _first_game


def _setup(game: str, players: Sequence[str], options: dict[str, Any]) -> dict[str, Any]:
    return {"game": game, "players": [{"name": name} for name in players], "options": options}


def choose_source(camera_index: int | None, video: str | None, demo: bool) -> LiveChoice | None:
    """The live source the options name, or None for a table scanned from phones only."""
    everyone = _setup(LIVE_GAME, [f"Seat {s}" for s in range(1, PRINTED_SEATS[LIVE_GAME] + 1)], {})
    if camera_index is not None:
        return LiveChoice(camera(camera_index), (everyone,))
    if video is not None:
        # Digits after --video are a file's name, never a camera.
        source = video_file(Path(video)) if video.isdigit() else parse_source(video)
        return LiveChoice(source, (everyone,))
    if demo:
        played = demo_games(len(DEMO_PLAYERS))
        shown = DemoSource(played, repeat=True)
        setups = tuple(_setup(g.script.game, DEMO_PLAYERS, g.script.options) for g in played)
        return LiveChoice(shown, setups, shown.game_at)
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


class LivePlay:
    """A live source's games through one live loop, each game's readings into a table made as
    its first frame is seen; a game played again replaces its table of the round before."""

    def __init__(
        self,
        tables: Tables,
        choice: LiveChoice,
        settings: Settings | None = None,
        report: Callable[[str], None] = report_to_stderr,
    ) -> None:
        self._tables = tables
        self._choice = choice
        self._settings = settings
        self._report = report
        self._guard = threading.Lock()
        self._rotation = Rotation(tables, len(choice.setups))
        self._game = 0
        self._loop: LiveLoop | None = None

    def start(self) -> None:
        """Make the first game's table and start the loop; the source is opened first, so that
        one that cannot be opened fails before a table is made for it."""
        capture = Capture(self._choice.source, self._report)
        capture.start()
        try:
            reader = LiveReader(self._feed(0), self._settings)
            self._loop = LiveLoop(capture, reader, self._follow)
            self._loop.start()
        except BaseException:
            capture.stop()
            raise

    def stop(self) -> None:
        """Stop the loop, then the source."""
        if self._loop is not None:
            self._loop.stop()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the source to end; whether it has (a camera never does)."""
        return self._loop is None or self._loop.wait(timeout)

    def fed(self) -> tuple[Created, ...]:
        """The tables fed and still kept (the last round of each game), oldest first: the last
        is the one fed now."""
        return self._rotation.kept()

    @property
    def reader(self) -> LiveReader | None:
        """The loop's reader, the same from game to game (restarted for each)."""
        return None if self._loop is None else self._loop.reader

    def _follow(self, frame: Frame) -> None:
        """Before each frame: a frame of the next game starts that game's table."""
        game = self._choice.game_at(frame.index)
        if game != self._game and self._loop is not None:
            self._loop.reader.restart(self._feed(game))

    def _feed(self, game: int) -> TableFeed:
        """A new table for game ``game``, and what feeds it."""
        setups = self._choice.setups
        setup = setups[game % len(setups)]
        created = self._rotation.create(setup)
        with self._guard:
            self._game = game
        self._report(f"live: {games()[setup['game']].title} on table {created.table}")
        return TableFeed(self._tables, created.table, self._report)


def start_live(
    tables: Tables,
    choice: LiveChoice,
    report: Callable[[str], None] = report_to_stderr,
    settings: Settings | None = None,
) -> LivePlay:
    """The live source's games being played, the first table already made."""
    play = LivePlay(tables, choice, settings, report)
    play.start()
    return play


def live_view(play: LivePlay) -> Callable[[str], bytes | None]:
    """The web's camera view of any table the live source has fed: the newest frame of the game
    being played, annotated."""

    def view(asked: str) -> bytes | None:
        reader = play.reader
        if reader is None or all(c.table != asked for c in play.fed()):
            return None
        seen = reader.latest
        if seen is None:
            return None
        return debug_jpeg(seen, reader.scanner.index, reader.filter.settings)

    return view


def run_live_bench_command(args: argparse.Namespace) -> int:
    """``atelier bench live``: the loop on one core over rendered video of the demo's games,
    each game's events into a table of its own."""
    if args.turns is not None:
        check_range(args.turns, 1, 100, "--turns")
    check_range(args.minutes, 0, 600, "--minutes")
    check_range(args.fps, 1, 240, "--fps")
    from vision.live.bench import bench_games, run_live_bench
    from vision.live.demo import DEMO_GAMES

    names = [game for game, _, _ in DEMO_GAMES]
    check_games(args.game, names)
    played = bench_games(len(DEMO_PLAYERS), args.game, args.turns)
    # One core, as promised by the measurement: the loop and OpenCV's own threads share it.
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    tty = sys.stderr.isatty()

    def progress(step: str) -> None:
        if tty:
            print(f"\r{step:<48}", end="", file=sys.stderr, flush=True)

    refused: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(Path(folder))
        # As the demo does: a game played again replaces its table of the round before.
        rotation = Rotation(tables, len(played))

        def table_for(script: Script) -> TableFeed:
            created = rotation.create(_setup(script.game, DEMO_PLAYERS, script.options))
            return TableFeed(tables, created.table, _refusals(refused))

        try:
            results = run_live_bench(
                table_for, played, args.minutes, fps=args.fps, progress=progress
            )
        finally:
            tables.close()
    results["refused"] = refused
    if tty:
        print(file=sys.stderr)
    print_live_bench(results)
    return emit_json(results)


def _refusals(into: list[str]) -> Callable[[str], None]:
    """A table feed's report that keeps the readings its table refused (every other message
    reports a scan event)."""

    def report(message: str) -> None:
        if not message.startswith("live: scan #"):
            into.append(message)

    return report


def print_live_bench(results: dict[str, Any]) -> None:
    """The benchmark's table for people, on standard error."""
    print(
        f"{results['frames']} frames ({results['video_seconds']} s of video at "
        f"{results['video_fps']:g} fps, {results['size'][0]}x{results['size'][1]}), one core; "
        f"load average {results['load_average'][0]} -> {results['load_average'][1]}",
        file=sys.stderr,
    )
    print(
        f"{'':<11} {'':>6} {'':>5} {'frame ms':>13} {'cpu ms':>6} {'settled to event ms':>28}",
        file=sys.stderr,
    )
    print(
        f"{'game':<11} {'frames':>6} {'fps':>5} {'median / p95':>13} {'median':>6} "
        f"{'median / max':>19} {'cpu max':>8} "
        f"{'events':>6} {'changes':>7} {'missed':>6} {'wrong':>5}",
        file=sys.stderr,
    )
    for name, row in [*((r["game"], r) for r in results["games"]), ("overall", results["overall"])]:
        frame, latency = row["frame_ms"], row["latency_ms"]
        print(
            f"{name:<11} {row['frames']:>6} {row['fps_sustained']:>5} "
            f"{frame['median']:>6}/{frame['p95']:>6} {row['frame_cpu_ms']['median']:>6} "
            f"{latency['median']!s:>9}/{latency['max']!s:>9} {row['latency_cpu_ms']['max']!s:>8} "
            f"{row['events']:>6} {row['changes']:>7} {row['missed']:>6} {row['wrong']:>5}",
            file=sys.stderr,
        )
    memory = results["memory"]
    verdict = "flat" if memory["flat"] else "NOT flat"
    print(
        f"memory {memory['start_mb']} MB -> {memory['end_mb']} MB; the last half added "
        f"{memory['last_half_growth_mb']} MB: {verdict} (below {memory['flat_below_mb']} MB)",
        file=sys.stderr,
    )
    for wrong in results["wrong"]:
        print(
            f"wrong: {wrong['game']} frame {wrong['frame']} seat {wrong['seat']}: {wrong['why']}",
            file=sys.stderr,
        )
    for message in results["refused"]:
        print(f"refused: {message}", file=sys.stderr)
