"""The live tables behind ``atelier serve --camera / --video / --demo``, wired: the source the
options name (``vision.capture``, ``vision.live.demo``), played through the live loop
(``vision.live.play``) into a table made as each game begins (``companion.live``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.live.games import LiveGames
from companion.live.setups import DEMO_PLAYERS, camera_setup, table_setup
from companion.table.session import Created, Tables
from vision.capture.sources import Source, camera, parse_source, video_file
from vision.live.demo import DemoSource, demo_games
from vision.live.handover import handover
from vision.live.play import LivePlay
from vision.live.stability import Settings


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


def choose_source(camera_index: int | None, video: str | None, demo: bool) -> LiveChoice | None:
    """The live source the options name, or None for a table scanned from phones only."""
    if camera_index is not None:
        return LiveChoice(camera(camera_index), (camera_setup(),))
    if video is not None:
        # Digits after --video are a file's name, never a camera.
        source = video_file(Path(video)) if video.isdigit() else parse_source(video)
        return LiveChoice(source, (camera_setup(),))
    if demo:
        played = demo_games(len(DEMO_PLAYERS))
        shown = DemoSource(played, repeat=True)
        setups = tuple(table_setup(g.script.game, DEMO_PLAYERS, g.script.options) for g in played)
        return LiveChoice(shown, setups, shown.game_at)
    return None


def report_to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class LiveTable:
    """A live source's games being played into tables: what the web shows of it (a
    ``companion.reading.Live``), and how the server waits for it and stops it."""

    games: LiveGames
    play: LivePlay

    def fed(self) -> tuple[Created, ...]:
        return self.games.fed()

    def view(self, table: str) -> bytes | None:
        """The camera view of any table the source fed and still keeps: the newest frame of
        the game being played, annotated."""
        if all(c.table != table for c in self.fed()):
            return None
        return self.play.picture()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the source to end; whether it has (a camera never does)."""
        return self.play.wait(timeout)

    def stop(self) -> None:
        """Stop the loop, then the source."""
        self.play.stop()


def start_live(
    tables: Tables,
    choice: LiveChoice,
    report: Callable[[str], None] = report_to_stderr,
    settings: Settings | None = None,
) -> LiveTable:
    """The live source's games being played, the first game's table already made."""
    games = LiveGames(tables, choice.setups, report)
    play = LivePlay(
        choice.source, choice.game_at, lambda game: handover(games.begin(game)), report, settings
    )
    play.start()
    return LiveTable(games, play)
