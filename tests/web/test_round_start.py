"""Color Field legality at the table beyond two turns: a round's first scan is judged as priming
(round 1) or the reset and priming (rounds 2 and 3), then at most one turn, Inspiration paid by
tokens; every newly placed tile comes from the round's deck."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.table.colorfield_rules import keep_allowances
from companion.table.readings import BoardReading
from companion.table.session import Tables
from tests.web.test_session import PLAYERS, observe

ANA, BEN = 1, 2
PRIMED = ("F-01", "F-02", "F-03", "F-04", "F-05", "F-06")


def board(*spaces: str | tuple[str, int] | None) -> dict[str, Any]:
    """A canvas on board canvas-1: a tile id (rotation 0), (id, rotation) or None."""
    placed: list[dict[str, Any] | None] = []
    for space in spaces:
        if space is None:
            placed.append(None)
        else:
            tile, rotation = (space, 0) if isinstance(space, str) else space
            placed.append({"tile": tile, "rotation": rotation})
    return {"game": "colorfield", "canvas": "canvas-1", "spaces": placed}


def rules(reading: BoardReading) -> list[tuple[str, list[int]]]:
    return [(w["rule"], w["spaces"]) for w in reading.warnings]


@pytest.fixture
def tables(tmp_path: Path) -> Tables:
    return Tables(tmp_path)


def new_table(tables: Tables, **options: Any) -> str:
    setup = {"game": "colorfield", "players": PLAYERS, "options": options}
    return tables.create(setup).table


def scan(tables: Tables, table: str, seat: int, position: dict[str, Any]) -> BoardReading:
    return tables.scan(table, [observe(position, seat)]).readings[0]


def test_priming_and_one_turn_is_legal_and_a_turned_foundation_tile_costs_a_token(
    tables: Tables,
) -> None:
    table = new_table(tables)
    first = scan(tables, table, ANA, board("F-01", "F-02", "F-03", "F-04", ("R1-05", 2), "F-06"))
    assert (first.warnings, first.tokens_spent) == ((), 0)
    assert first.context is not None and first.context.round_start
    # Primed, then turned with a token: no rule broken, one token spent.
    turned = scan(tables, table, BEN, board("F-11", ("F-12", 1), "F-13", "F-14", "F-15", "F-16"))
    assert (turned.warnings, turned.tokens_spent) == ((), 1)
    assert tables.state(table).seat(BEN).tokens_spent == 1
    assert tables.state(table).tokens_allowed(BEN) == 3


def test_two_tiles_of_a_round_deck_are_more_than_one_turn_places(tables: Tables) -> None:
    table = new_table(tables)
    reading = scan(tables, table, ANA, board("F-01", "R1-01", "F-03", "R1-02", "F-05", "F-06"))
    assert rules(reading) == [("priming-foundation", [2, 4])]
    assert reading.warnings[0]["message"] == (
        "priming lays Foundation tiles and one turn places one tile, but space 2 holds the "
        "lemon/coral tile from the Round 1 deck, space 4 holds the coral/navy tile from the "
        "Round 1 deck"
    )


def test_foundation_tiles_turned_beyond_the_tokens_break_the_up_mark(tables: Tables) -> None:
    table = new_table(tables)
    turned = board(("F-01", 1), ("F-02", 2), "F-03", ("F-04", 3), ("F-05", 1), "F-06")
    reading = scan(tables, table, ANA, turned)
    assert rules(reading) == [("up-mark", [1, 2, 4, 5])]
    assert reading.tokens_spent == 3  # all three tokens, the fourth tile primed wrong
    # With no tokens at all, one turned tile is enough.
    bare = new_table(tables, inspiration_tokens=0)
    one = scan(tables, bare, ANA, board("F-01", ("F-02", 2), "F-03", "F-04", "F-05", "F-06"))
    assert rules(one) == [("up-mark", [2])]


def test_priming_leaves_no_empty_space_before_a_primed_one(tables: Tables) -> None:
    table = new_table(tables)
    reading = scan(tables, table, ANA, board("F-01", None, "F-03", "F-04", "F-05", "F-06"))
    assert rules(reading) == [("priming-order", [2, 3, 4, 5, 6])]


def test_a_tile_of_another_round_deck_is_named_on_the_first_scan_and_on_a_turn(
    tables: Tables,
) -> None:
    table = new_table(tables)
    first = scan(tables, table, ANA, board(*PRIMED[:5], "R3-01"))
    assert rules(first) == [("round-deck", [6])]
    assert first.warnings[0]["message"] == (
        "a turn of round 1 takes a tile of the Round 1 deck, but space 6 holds the "
        "lemon/coral/navy/turquoise tile from the Round 3 deck"
    )
    legal = scan(tables, table, BEN, board(*PRIMED[:5], "R1-06"))
    assert legal.warnings == ()
    turn = scan(tables, table, BEN, board("R3-02", *PRIMED[1:5], "R1-06"))
    assert rules(turn) == [("round-deck", [1])]


def test_keep_allowances_come_from_dense_positions_by_the_banked_totals() -> None:
    assert keep_allowances([56, 56, 47, 47]) == (0, 0, 1, 1)
    assert keep_allowances([30, 20, 10, 40]) == (1, 2, 3, 0)
    assert keep_allowances([30, 12]) == (1, 2)  # plus one in a two-player game
    assert keep_allowances([30, 30]) == (1, 1)


def round_two(tables: Tables, **options: Any) -> tuple[str, dict[str, Any]]:
    """A table in round 2 where Ana (ahead after round 1, two players) may keep 1 tile."""
    table = new_table(tables, **options)
    ana = board("F-01", "F-02", "F-03", "F-04", ("R1-05", 2), "F-06")
    scan(tables, table, ANA, ana)
    tables.end_round(table)
    assert keep_allowances([sum(s.banked) for s in tables.state(table).seats]) == (1, 2)
    return table, ana


def test_a_round_two_start_keeping_more_than_the_allowance_is_warned(tables: Tables) -> None:
    table, _ = round_two(tables)
    reading = scan(tables, table, ANA, board("F-01", "F-02", "F-13", "F-14", ("F-15", 0), "F-16"))
    assert reading.context is not None and reading.context.keep_allowance == 1
    assert rules(reading) == [("keep-allowance", [1, 2])]
    assert "2 tiles kept from round 1 (spaces 1, 2)" in reading.warnings[0]["message"]


def test_a_round_two_start_keeping_one_tile_with_a_turn_is_legal(tables: Tables) -> None:
    table, _ = round_two(tables)
    reading = scan(
        tables, table, ANA, board("F-11", "F-12", "F-13", "F-14", ("R1-05", 2), ("R2-01", 3))
    )
    assert (reading.warnings, reading.tokens_spent) == ((), 0)


def test_a_kept_tile_changed_costs_a_token_and_without_one_is_warned(tables: Tables) -> None:
    table, _ = round_two(tables)
    # R1-05 kept but turned: a token pays for it.
    paid = scan(tables, table, ANA, board("F-11", "F-12", "F-13", "F-14", "R1-05", "F-16"))
    assert (paid.warnings, paid.tokens_spent) == ((), 1)
    bare, _ = round_two(tables, inspiration_tokens=0)
    moved = scan(tables, bare, ANA, board("R1-05", "F-12", "F-13", "F-14", "F-15", "F-16"))
    # Moved from space 5 to space 1 and turned back: a swap and a rotate, no token left.
    assert rules(moved) == [("kept-tile-changed", [1, 5])]
