"""The table side of a live source, with no camera and no pixels: a table made as each game
begins, a game played again replacing its table, the boards handed over scored, a reading the
table refuses reported and the source going on."""

from __future__ import annotations

import random
from pathlib import Path

from companion.live.games import LiveGames
from companion.live.setups import DEMO_PLAYERS, camera_setup, table_setup
from companion.observation import BoardObservation
from companion.positions import evaluate_document
from companion.samples import random_position
from companion.table.session import Tables
from companion.table.store import BoardView


def canvas(seat: int, seed: int) -> BoardObservation:
    position = random_position("colorfield", random.Random(seed))
    return BoardObservation("colorfield", seat, (f"colorfield/canvas/{seat}",), position, 0.99, ())


def test_each_game_gets_a_table_as_it_begins_and_a_game_again_replaces_its_own(
    tmp_path: Path,
) -> None:
    tables = Tables(tmp_path)
    setups = [table_setup("colorfield", DEMO_PLAYERS, {}), camera_setup()]
    messages: list[str] = []
    live = LiveGames(tables, setups, messages.append)
    made = [live.begin(game).table for game in range(3)]
    assert messages == [
        f"live: Color Field on table {made[0]}",
        f"live: Color Field on table {made[1]}",
        f"live: Color Field on table {made[2]}",
    ]
    # Game 2 is game 0 played again: its table replaced game 0's.
    assert [c.table for c in live.fed()] == made[1:]
    assert sorted(tables.ids()) == sorted(made[1:])
    assert [p.name for p in tables.state(made[1]).setup.players] == [
        "Seat 1",
        "Seat 2",
        "Seat 3",
        "Seat 4",
    ]
    tables.close()


def test_the_boards_handed_over_are_scored_and_a_refusal_is_only_reported(
    tmp_path: Path,
) -> None:
    tables = Tables(tmp_path)
    messages: list[str] = []
    live = LiveGames(tables, [table_setup("colorfield", DEMO_PLAYERS, {})], messages.append)
    feed = live.begin(0)
    board = canvas(2, seed=11)
    picture = BoardView(b"\xff\xd8 the canvas", {"width": 1, "height": 1, "regions": {}})
    feed([board], {board.boards: picture})
    feed([canvas(3, seed=11)], {})  # no player sits at seat 3
    assert messages[1:] == [
        "live: scan #1 (seat 2)",
        "live: no board of this table in the photo (a Color Field board (colorfield/canvas/3): "
        "no player sits at seat 3)",
    ]
    state = tables.state(feed.table)
    assert state.totals() == (0, evaluate_document(board.position, "truth").data["total"])
    assert tables.store.view(feed.table, 1, 2) == picture
    tables.close()
