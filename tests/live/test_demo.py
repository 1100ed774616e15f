"""The demo's scripted games: one of each kind, every turn legal at the table, and each, played
headless through the live loop, scored exactly as the rules engines score what lies on it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.live.feed import TableFeed
from companion.live.setups import DEMO_PLAYERS
from companion.observation import BoardObservation
from companion.positions import evaluate_document
from companion.table.events import SCAN
from companion.table.session import Tables
from tests.live.video import scanner
from vision.capture.latest import Frame
from vision.live.demo import (
    DEMO_FPS,
    FINAL_S,
    HAND_S,
    SETTLED_S,
    DemoGame,
    DemoSource,
    Shot,
    demo_games,
)
from vision.live.handover import handover
from vision.live.loop import LiveReader

GAMES = {game.script.game: game for game in demo_games(len(DEMO_PLAYERS))}
# What the rules engines make of each game's final table, seat by seat.
FINAL_TOTALS = {"colorfield": [9, 5], "paintings": [17, 26], "isle": [21, 27], "pigments": [7, 0]}
HIDDEN = ("scoring_cards", "conditions")  # what a camera cannot see: the table's options


def table_for(tables: Tables, game: DemoGame) -> str:
    players = [{"name": name} for name in DEMO_PLAYERS]
    setup = {"game": game.script.game, "players": players, "options": game.script.options}
    return tables.create(setup).table


def engine_totals(game: DemoGame) -> list[int]:
    final = game.shots[-1].positions
    options = game.script.options
    return [evaluate_document({**board, **options}, "truth").data["total"] for board in final]


def as_seen(game: str, seat: int, board: dict[str, Any]) -> BoardObservation:
    """A board read exactly as it lies, as the camera reports it (no table options)."""
    position = {k: v for k, v in board.items() if k not in HIDDEN}
    return BoardObservation(game, seat, (f"{game}/seat/{seat}",), position, 1.0, ())


def test_the_demo_plays_a_scripted_game_of_each_kind_in_turn() -> None:
    assert list(GAMES) == ["colorfield", "paintings", "isle", "pigments"]
    for game in GAMES.values():
        shots = game.shots
        turns = game.script.turns
        assert len(shots) == 1 + 2 * len(turns)
        assert [s.hand_over for s in shots[1::2]] == [t.board for t in turns]
        assert all(s.hand_over is None for s in shots[::2])
        seconds = [SETTLED_S, *[HAND_S, SETTLED_S] * len(turns)]
        seconds[-1] = FINAL_S  # the finished game stays in view a while
        assert [s.seconds for s in shots] == seconds
        # Each turn changes the board of the player whose turn it is, and only theirs.
        before = game.script.opening
        for turn in turns:
            changed = [
                seat for seat, (a, b) in enumerate(zip(before, turn.boards, strict=True)) if a != b
            ]
            assert changed == [turn.player]
            before = turn.boards


@pytest.mark.parametrize("name", list(GAMES))
def test_every_turn_of_each_demo_script_passes_the_tables_legality_checks(
    tmp_path: Path, name: str
) -> None:
    game = GAMES[name]
    tables = Tables(tmp_path)
    table = table_for(tables, game)
    opening = [as_seen(name, seat, b) for seat, b in enumerate(game.script.opening, 1)]
    results = [tables.scan(table, opening)]
    for turn in game.script.turns:
        seat = turn.player + 1
        results.append(tables.scan(table, [as_seen(name, seat, turn.boards[turn.player])]))
    readings = [reading for result in results for reading in result.readings]
    assert [(r.warnings, r.scored.problems) for r in readings] == [((), ())] * len(readings)
    state = tables.state(table)
    totals = [state.total(seat) for seat in range(1, len(DEMO_PLAYERS) + 1)]
    assert totals == engine_totals(game) == FINAL_TOTALS[name]
    tables.close()


@pytest.mark.parametrize(
    "name",
    [
        "colorfield",
        pytest.param("paintings", marks=pytest.mark.slow),
        "isle",
        pytest.param("pigments", marks=pytest.mark.slow),
    ],
)
def test_each_demo_game_played_through_the_live_loop_is_scored_as_it_lies(
    tmp_path: Path, name: str
) -> None:
    game = GAMES[name]
    tables = Tables(tmp_path)
    table = table_for(tables, game)
    messages: list[str] = []
    reader = LiveReader(handover(TableFeed(tables, table, messages.append)), scanner=scanner())
    source = DemoSource((game,))
    source.open()
    number = 0
    while (image := source.read()) is not None:
        reader.process(Frame(image, number + 1, number / DEMO_FPS))
        number += 1
    events = [e for e in tables.events(table) if e.kind == SCAN]
    # The whole table once it has settled, then each turn's board once the hand has left it.
    seats = [[b["seat"] for b in e.data["boards"]] for e in events]
    assert seats == [[1, 2], *[[turn.player + 1] for turn in game.script.turns]]
    boards = [board for event in events for board in event.data["boards"]]
    assert [(b["warnings"], b["problems"]) for b in boards] == [([], [])] * len(boards)
    assert all(m.startswith("live: scan #") for m in messages)
    state = tables.state(table)
    totals = [state.total(seat) for seat in range(1, len(DEMO_PLAYERS) + 1)]
    assert totals == engine_totals(game) == FINAL_TOTALS[name]
    tables.close()


def test_the_demo_video_holds_each_finished_game_until_the_next_is_rendered() -> None:
    cut = [
        DemoGame(game.script, game.seed, (Shot(game.script.opening, None, 0.6),))
        for game in (GAMES["colorfield"], GAMES["isle"])
    ]
    source = DemoSource(cut, repeat=True)
    source.open()  # renders the first game
    first = source.read()
    assert first is not None
    shown: list[tuple[int, bool]] = [(source.game_at(1), True)]
    for index in range(2, 400):
        image = source.read()
        assert image is not None
        shown.append((source.game_at(index), bool(np.array_equal(image, first))))
        if shown[-1][0] == 3:
            break
        threading.Event().wait(0.01)  # a camera's pace, roughly: time for the rendering
    # Three frames of the first game, then that game held while the second renders, three of
    # the second, then round again, each game a new one, with no wait.
    games = [game for game, _ in shown]
    held = games.count(0) - 3
    assert held > 0
    assert games == [0] * (3 + held) + [1] * 3 + [2] * 3 + [3]
    assert [same for _, same in shown] == [True] * (3 + held) + [False] * 3 + [True] * 3 + [False]
