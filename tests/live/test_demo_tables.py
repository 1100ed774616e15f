"""The demo played round and round keeps the data folder the size of one round: each game played
again replaces its table of the round before, and a table made from a phone is never removed."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from companion.cli.live import LiveChoice, start_live
from companion.live.setups import DEMO_PLAYERS
from companion.observation import BoardObservation
from companion.table.rotation import Rotation
from companion.table.session import Tables, UnknownTableError
from companion.table.store import DATABASE, BoardView
from vision.live.demo import DemoGame, DemoSource, Shot, demo_games

GAMES = {game.script.game: game for game in demo_games(len(DEMO_PLAYERS))}
WAIT_S = 60.0  # the most the test waits for the live thread (the rounds last seconds)
PLAYERS = [{"name": name} for name in DEMO_PLAYERS]
A_PHONES_TABLE = {"game": "colorfield", "players": [{"name": "Cy"}, {"name": "Dee"}]}


def rows(folder: Path) -> dict[str, int]:
    """How many rows each table of the data folder's database holds."""
    with sqlite3.connect(folder / DATABASE) as db:
        return {
            name: int(db.execute(f"SELECT count(*) FROM {name}").fetchone()[0])
            for name in ("tables", "events", "views")
        }


def test_a_rotation_keeps_the_newest_tables_and_never_one_it_did_not_make(
    tmp_path: Path,
) -> None:
    tables = Tables(tmp_path)
    phone = tables.create(A_PHONES_TABLE)
    rotation = Rotation(tables, keep=2)
    script = GAMES["pigments"].script
    seen = BoardObservation("pigments", 1, ("pigments/seat/1",), script.opening[0], 1.0, ())
    picture = {seen.boards: BoardView(b"\xff\xd8 the board", {"width": 1, "height": 1})}
    made = []
    for _ in range(5):
        created = rotation.create(
            {"game": "pigments", "players": PLAYERS, "options": script.options}
        )
        tables.scan(created.table, [seen], picture)
        tables.end_round(created.table)
        made.append(created)
    assert rotation.kept() == tuple(made[-2:])
    assert sorted(tables.ids()) == sorted([phone.table, made[-2].table, made[-1].table])
    # Each removed table went with its whole log and its board pictures.
    assert rows(tmp_path) == {"tables": 3, "events": 4, "views": 2}
    for gone in made[:-2]:
        with pytest.raises(UnknownTableError):
            tables.state(gone.table)
        with pytest.raises(UnknownTableError):
            tables.remove(gone.table)
    assert tables.state(made[-1].table).round == 2
    # Event ids are never given out again.
    assert tables.end_round(made[-1].table).id == 11
    tables.close()


def test_a_rotation_keeps_at_least_one_table(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    with pytest.raises(ValueError, match="keep: at least one table, got 0"):
        Rotation(tables, keep=0)
    tables.close()


def short_rounds() -> LiveChoice:
    """Color Field and Isle of Colors round and round, each cut to its opening table held for
    half a second, small: a round takes about a second."""
    cut = [GAMES["colorfield"], GAMES["isle"]]
    played = [DemoGame(g.script, g.seed, (Shot(g.script.opening, None, 0.5),)) for g in cut]
    source = DemoSource(played, repeat=True, size=(640, 360), fps=10.0)
    setups = tuple(
        {"game": g.script.game, "players": PLAYERS, "options": g.script.options} for g in cut
    )
    return LiveChoice(source, setups, source.game_at)


def test_the_demo_round_and_round_keeps_one_table_per_game(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    phone = tables.create(A_PHONES_TABLE)
    tables.end_round(phone.table)
    started: list[str] = []
    seen: dict[int, tuple[list[str], list[str]]] = {}
    done = threading.Event()

    def report(message: str) -> None:
        # Called on the live thread as each game starts, its table made and the one it replaces
        # removed: nothing else changes the data folder meanwhile.
        if " on table " not in message:
            return
        started.append(message.rsplit(" ", 1)[1])
        if len(started) in (3, 7):  # the first game of rounds 2 and 4: 1 and 3 rounds played
            files = sorted(p.name for p in tmp_path.iterdir())
            seen[(len(started) - 1) // 2] = (sorted(tables.ids()), files)
        if len(started) == 7:
            done.set()

    play = start_live(tables, short_rounds(), report)
    try:
        assert done.wait(WAIT_S)
    finally:
        play.stop()
    files = [DATABASE, f"{DATABASE}-shm", f"{DATABASE}-wal"]
    # After one round: the phone's table and the two games' tables of round 1, then the first
    # game's table of round 2 in place of its first.
    assert seen[1] == (sorted([phone.table, started[1], started[2]]), files)
    # After three rounds: still three tables, the same files.
    assert seen[3] == (sorted([phone.table, started[5], started[6]]), files)
    assert [c.table for c in play.fed()] == started[5:7]
    assert tables.state(phone.table).round == 2
    tables.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [DATABASE]
