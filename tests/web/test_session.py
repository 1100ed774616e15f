"""The table session without HTTP: scans, corrections, rounds, undo, legality, persistence."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.errors import FieldError
from companion.fields import Field
from companion.observation import BoardObservation, ComponentRead
from companion.positions import evaluate_document
from companion.samples import random_position
from companion.table.events import CORRECTION, ROUND_END, SCAN, UNDO
from companion.table.projection import history
from companion.table.session import (
    ConflictError,
    NothingReadError,
    Tables,
    UnknownTableError,
)
from vision.benchmark import TRUTH

PLAYERS = [{"name": "Ana"}, {"name": "Ben"}]


def observe(position: dict[str, Any], seat: int, problem: str | None = None) -> BoardObservation:
    """A board as a perfect camera would report it (``problem`` marks space 1 unreadable)."""
    components = tuple(
        ComponentRead(name, value, 0.0 if problem and name == "space 1" else 0.99, None)
        if not (problem and name == "space 1")
        else ComponentRead(name, None, 0.0, f"space 1: {problem}")
        for name, value in TRUTH["colorfield"](position).items()
    )
    problems = (f"space 1: {problem}",) if problem else ()
    return BoardObservation(
        "colorfield", seat, (f"colorfield/canvas/{seat}",), position, 0.99, problems, components
    )


def canvas(seed: int) -> dict[str, Any]:
    return random_position("colorfield", random.Random(seed))


def total(position: dict[str, Any]) -> int:
    return int(evaluate_document(position, "test").data["total"])


@pytest.fixture
def tables(tmp_path: Path) -> Tables:
    return Tables(tmp_path)


def test_a_scan_scores_each_seat_and_the_turn_passes(tables: Tables) -> None:
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    a, b = canvas(1), canvas(2)
    result = tables.scan(table, [observe(a, 1)])
    state = tables.state(table)
    assert state.totals() == (total(a), 0)
    assert state.turn == 2
    assert result.event.kind == SCAN
    tables.scan(table, [observe(b, 2)])
    state = tables.state(table)
    assert state.totals() == (total(a), total(b))
    assert state.turn == 1
    expected = (1, 2) if total(a) > total(b) else (2, 1) if total(b) > total(a) else (1, 1)
    assert state.standings() == expected


def test_boards_of_other_seats_or_games_are_listed_not_scored(tables: Tables) -> None:
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    with pytest.raises(NothingReadError, match="no player sits at seat 3"):
        tables.scan(table, [observe(canvas(1), 3)])
    result = tables.scan(table, [observe(canvas(1), 3), observe(canvas(2), 2)])
    assert [r.seat for r in result.readings] == [2]
    assert result.ignored == (
        "a Color Field board (colorfield/canvas/3): no player sits at seat 3",
    )
    assert tables.events(table)[0].id == result.event.id  # the refused scan wrote nothing


def test_an_unreadable_board_scores_after_its_component_is_corrected(tables: Tables) -> None:
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    position = canvas(3)
    result = tables.scan(table, [observe(position, 1, problem="overexposed")])
    assert result.readings[0].total is None
    assert tables.state(table).totals() == (0, 0)
    truth = TRUTH["colorfield"](position)["space 1"]
    request = {"scan": result.event.id, "seat": 1, "component": "space 1", "value": truth}
    event = tables.correct(table, Field(request))
    assert event.kind == CORRECTION
    assert tables.state(table).totals() == (total(position), 0)
    reading = tables.state(table).seat(1).reading
    assert reading is not None and reading.scored.problems == ()


def test_a_correction_changes_the_score_as_the_rules_say(tables: Tables) -> None:
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    position = canvas(4)
    scan = tables.scan(table, [observe(position, 1)]).event.id
    turned = copy.deepcopy(position)
    turned["spaces"][0]["rotation"] = (turned["spaces"][0]["rotation"] + 2) % 4
    value = {"tile": turned["spaces"][0]["tile"], "rotation": turned["spaces"][0]["rotation"]}
    tables.correct(table, Field({"scan": scan, "seat": 1, "component": "space 1", "value": value}))
    assert tables.state(table).totals() == (total(turned), 0)


@pytest.mark.parametrize(
    ("request_json", "message"),
    [
        ({"scan": 1, "seat": 1, "component": "space 9", "value": None}, "no component 'space 9'"),
        (
            {"scan": 1, "seat": 1, "component": "space 1", "value": {"tile": "nope"}},
            "value.tile: unknown tile 'nope'",
        ),
        (
            {
                "scan": 1,
                "seat": 1,
                "component": "space 1",
                "value": {"tile": "R1-01", "rotation": 4},
            },
            "value.rotation: 4 is out of range (0..3)",
        ),
        ({"scan": 1, "seat": 5, "component": "space 1", "value": None}, "seat: no player sits"),
        ({"scan": 1, "seat": 1, "component": "space 1"}, "value: missing"),
    ],
)
def test_bad_corrections_are_refused_and_change_nothing(
    tables: Tables, request_json: dict[str, Any], message: str
) -> None:
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    tables.scan(table, [observe(canvas(5), 1)])
    before = tables.state(table)
    with pytest.raises(FieldError, match=re.escape(message)):
        tables.correct(table, Field(request_json))
    assert tables.state(table) == before
    assert len(tables.events(table)) == 1


def test_undo_takes_back_the_latest_change_one_at_a_time(tables: Tables) -> None:
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    a, a2 = canvas(6), canvas(7)
    tables.scan(table, [observe(a, 1)])
    tables.scan(table, [observe(a2, 1)])
    assert tables.state(table).totals() == (total(a2), 0)
    undo = tables.undo(table)
    scanned = f"Ana's board scanned: {total(a2)} points"
    assert undo.kind == UNDO and undo.data == {"undoes": 2, "summary": scanned}
    assert tables.state(table).totals() == (total(a), 0)
    assert tables.undo(table).data["undoes"] == 1
    assert tables.state(table).totals() == (0, 0)
    with pytest.raises(ConflictError, match="nothing to undo"):
        tables.undo(table)
    entries = history(tables.state(table).setup, tables.events(table))
    assert [e.undone for e in entries] == [True, True, False, False]
    assert entries[2].summary == f"Undone: {scanned}"


def test_a_correction_of_a_scan_no_longer_shown_is_a_conflict(tables: Tables) -> None:
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    position = canvas(8)
    scan = tables.scan(table, [observe(position, 1)]).event.id
    tables.undo(table)
    value = TRUTH["colorfield"](position)["space 1"]
    with pytest.raises(ConflictError, match=f"scan #{scan} is not the board in effect"):
        tables.correct(
            table, Field({"scan": scan, "seat": 1, "component": "space 1", "value": value})
        )


def test_color_field_banks_each_round_and_ends_after_three(tables: Tables) -> None:
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    a, b = canvas(9), canvas(10)
    tables.scan(table, [observe(a, 1), observe(b, 2)])
    event = tables.end_round(table)
    assert event.kind == ROUND_END
    assert event.data == {"round": 1, "scores": {"1": total(a), "2": total(b)}}
    state = tables.state(table)
    # Round 2 starts from nothing until the canvases are scanned again.
    assert (state.round, state.totals()) == (2, (total(a), total(b)))
    tables.scan(table, [observe(b, 1)])
    assert tables.state(table).totals() == (total(a) + total(b), total(b))
    tables.end_round(table)
    tables.end_round(table)
    state = tables.state(table)
    assert state.finished and state.round == 3
    assert state.seat(1).banked == (total(a), total(b), 0)
    with pytest.raises(ConflictError, match="the game is over"):
        tables.end_round(table)
    tables.undo(table)
    assert not tables.state(table).finished


def test_an_unpaid_rotation_is_warned_on_the_scan_that_shows_it(tables: Tables) -> None:
    setup = {"game": "colorfield", "players": PLAYERS, "options": {"inspiration_tokens": 1}}
    table = tables.create(setup).table
    first = canvas(11)
    tables.scan(table, [observe(first, 1)])
    once = copy.deepcopy(first)
    once["spaces"][2]["rotation"] = (once["spaces"][2]["rotation"] + 1) % 4
    paid = tables.scan(table, [observe(once, 1)]).readings[0]
    assert paid.warnings == () and paid.tokens_spent == 1
    twice = copy.deepcopy(once)
    twice["spaces"][4]["rotation"] = (twice["spaces"][4]["rotation"] + 1) % 4
    unpaid = tables.scan(table, [observe(twice, 1)]).readings[0]
    assert [w["rule"] for w in unpaid.warnings] == ["unpaid-rotation"]
    assert unpaid.warnings[0]["spaces"] == [5]
    # The first scan of round 2 is judged against the reset: Ana, first of two, keeps one tile.
    tables.end_round(table)
    kept = tables.scan(table, [observe(first, 1)]).readings[0]
    assert "keep-allowance" in [w["rule"] for w in kept.warnings]


def test_a_reopened_data_folder_shows_every_table_exactly_as_it_was(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    table = tables.create({"game": "colorfield", "players": PLAYERS}).table
    tables.scan(table, [observe(canvas(12), 1), observe(canvas(13), 2)])
    tables.end_round(table)
    tables.scan(table, [observe(canvas(14), 2)])
    tables.undo(table)
    before = tables.state(table).to_json()
    tables.close()
    again = Tables(tmp_path)
    assert again.state(table).to_json() == before
    assert [e.kind for e in again.events(table)] == [SCAN, ROUND_END, SCAN, UNDO]


def test_unknown_tables_are_errors(tables: Tables) -> None:
    for name in ("deadbeef", "../etc", ""):
        with pytest.raises(UnknownTableError):
            tables.state(name)
        with pytest.raises(UnknownTableError):
            tables.authorised(name, "x")


def test_tokens_are_unguessable_and_checked(tables: Tables) -> None:
    made = [tables.create({"game": "colorfield", "players": PLAYERS}) for _ in range(3)]
    assert len({m.token for m in made}) == 3
    assert all(len(m.token) >= 32 for m in made)
    assert tables.authorised(made[0].table, made[0].token)
    assert not tables.authorised(made[0].table, made[1].token)
    assert not tables.authorised(made[0].table, None)
