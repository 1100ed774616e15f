"""The live tables behind ``atelier serve --camera / --video / --demo``: a table created as the
live source starts each game, fed hands-free with every board reading the live loop accepts. A
game played again (the demo, round and round) replaces its table of the round before."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import AtelierError
from companion.games.registry import games
from companion.table.rotation import Rotation
from companion.table.session import Created, Tables
from companion.table.setup import PRINTED_SEATS
from vision.capture.latest import Capture, Frame
from vision.capture.sources import Source, camera, parse_source, video_file
from vision.live.debug import debug_jpeg
from vision.live.demo import DemoSource, demo_games
from vision.live.loop import LiveLoop, LiveReader, Views
from vision.live.stability import Accepted, Settings
from vision.stored_views import stored_views

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


def table_setup(game: str, players: Sequence[str], options: dict[str, Any]) -> dict[str, Any]:
    """A game's table as ``Tables.create`` takes it."""
    return {"game": game, "players": [{"name": name} for name in players], "options": options}


def choose_source(camera_index: int | None, video: str | None, demo: bool) -> LiveChoice | None:
    """The live source the options name, or None for a table scanned from phones only."""
    everyone = table_setup(
        LIVE_GAME, [f"Seat {s}" for s in range(1, PRINTED_SEATS[LIVE_GAME] + 1)], {}
    )
    if camera_index is not None:
        return LiveChoice(camera(camera_index), (everyone,))
    if video is not None:
        # Digits after --video are a file's name, never a camera.
        source = video_file(Path(video)) if video.isdigit() else parse_source(video)
        return LiveChoice(source, (everyone,))
    if demo:
        played = demo_games(len(DEMO_PLAYERS))
        shown = DemoSource(played, repeat=True)
        setups = tuple(table_setup(g.script.game, DEMO_PLAYERS, g.script.options) for g in played)
        return LiveChoice(shown, setups, shown.game_at)
    return None


class TableFeed:
    """Turns accepted readings into the table's scan events."""

    def __init__(self, tables: Tables, table: str, report: Callable[[str], None]) -> None:
        self.tables = tables
        self.table = table
        self._report = report

    def __call__(self, accepted: Sequence[Accepted], views: Views) -> None:
        stored = stored_views(views)
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

    def view(self, table: str) -> bytes | None:
        """The camera view of any table the live source has fed: the newest frame of the game
        being played, annotated."""
        reader = None if self._loop is None else self._loop.reader
        if reader is None or all(c.table != table for c in self.fed()):
            return None
        seen = reader.latest
        if seen is None:
            return None
        return debug_jpeg(seen, reader.scanner.index, reader.filter.settings)

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
