"""Isle of Colors at the table: the round's roll entered in a tap, and each sheet judged against
itself as the round began, with the roll and the colour used the round before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_game_end import CONDITIONS, Table, sheet

GREEN = [(4, 4, "green"), (4, 5, "green"), (4, 6, "green")]
RED = [(0, 2, "red"), (0, 3, "red")]


def second_round(tmp_path: Path) -> Table:
    """A table whose first round the table saw end: Ana filled 3 green cells, Ben 2 red."""
    table = Table(tmp_path, "isle", conditions=CONDITIONS)
    assert table.scan({1: sheet(*GREEN), 2: sheet(*RED)}).status_code == 201
    assert table.post("rounds").status_code == 201
    return table


def rules(board: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(w["rule"], w["components"]) for w in board["warnings"]]


def board(table: Table, seat: int) -> dict[str, Any]:
    return next(p["board"] for p in table.state()["players"] if p["seat"] == seat)


def roll(table: Table, value: object) -> Any:
    return table.client.post(
        f"/api/tables/{table.id}/rolls", json={"roll": value}, headers=table.headers
    )


def test_a_round_is_judged_with_the_roll_entered(tmp_path: Path) -> None:
    table = second_round(tmp_path)
    entered = roll(table, 3)
    assert entered.status_code == 201 and entered.json["scores"]["roll"] == 3
    scanned = table.scan(
        {1: sheet(*GREEN, (8, 6, "red"), (8, 7, "red"), (8, 8, "red")), 2: sheet(*RED, *GREEN[:2])}
    )
    assert scanned.status_code == 201
    assert rules(scanned.json["boards"][0]) == []
    assert rules(scanned.json["boards"][1]) == [("roll-size", ["cell (4,4)", "cell (4,5)"])]
    assert scanned.json["boards"][1]["warnings"][0]["message"] == (
        "the roll is 3, so the group has 3 cells, but 2 were filled"
    )
    history = table.client.get(f"/api/tables/{table.id}/history").json["history"]
    assert history[-3]["summary"] == "Roll: 3 in round 2"


def test_boards_scanned_before_the_roll_are_judged_again_when_it_is_entered(
    tmp_path: Path,
) -> None:
    table = second_round(tmp_path)
    assert table.scan({1: sheet(*GREEN, *RED)}).status_code == 201
    assert rules(board(table, 1)) == []
    assert roll(table, 3).status_code == 201
    assert [rule for rule, _ in rules(board(table, 1))] == ["roll-size"]
    assert roll(table, 2).status_code == 201  # a mistyped roll is fixed by entering it again
    assert rules(board(table, 1)) == []
    assert table.post("undo").status_code == 201
    assert [rule for rule, _ in rules(board(table, 1))] == ["roll-size"]


def test_the_colour_given_away_and_an_erased_cell(tmp_path: Path) -> None:
    table = second_round(tmp_path)
    assert roll(table, 1).status_code == 201
    assert table.scan({1: sheet(*GREEN, (8, 6, "red"))}).status_code == 201
    assert table.post("rounds").status_code == 201
    assert table.state()["roll"] is None
    assert roll(table, 1).status_code == 201
    # Red went to the other player in the swap, and a round-1 cell is gone.
    again = table.scan({1: sheet(*GREEN[:2], (8, 6, "red"), (8, 8, "red"))})
    assert rules(again.json["boards"][0]) == [
        ("cell-erased", ["cell (4,6)"]),
        ("colour-given-away", ["cell (8,8)"]),
    ]
    # Scanned again the same round, the sheet is still compared with the round's start.
    fixed = table.scan({1: sheet(*GREEN, (8, 6, "red"), (8, 8, "blue"))})
    assert rules(fixed.json["boards"][0]) == []


def test_a_sheet_is_not_judged_before_the_table_saw_a_round_end(tmp_path: Path) -> None:
    """The table may have joined a game under way: its first round proves nothing."""
    table = Table(tmp_path, "isle", conditions=CONDITIONS)
    assert roll(table, 1).status_code == 201
    scanned = table.scan({1: sheet(*GREEN, *RED)})
    assert scanned.json["boards"][0]["context"] is None
    assert rules(scanned.json["boards"][0]) == []
    # Nor a round after one whose end found no scan of the sheet.
    assert table.post("rounds").status_code == 201
    assert table.scan({2: sheet(*RED)}).status_code == 201
    assert table.post("rounds").status_code == 201
    assert table.scan({1: sheet(*GREEN, *RED), 2: sheet(*RED)}).json["boards"][0]["context"] is None


def test_a_roll_is_checked_and_taken_only_at_isle_tables(tmp_path: Path) -> None:
    table = Table(tmp_path, "isle", conditions=CONDITIONS)
    for value, error in ((7, "roll: 7 is out of range (1..6)"), ("3", "roll: expected")):
        answer = roll(table, value)
        assert answer.status_code == 400 and answer.json["error"].startswith(error)
    assert table.client.post(f"/api/tables/{table.id}/rolls", json={"roll": 2}).status_code == 403
    assert table.post("end").status_code == 201
    answer = roll(table, 2)
    assert answer.status_code == 409
    field = Table(tmp_path / "field", "colorfield")
    answer = roll(field, 2)
    assert (answer.status_code, answer.json) == (
        409,
        {"error": "a roll is entered at Isle of Colors tables: this table plays Color Field"},
    )
