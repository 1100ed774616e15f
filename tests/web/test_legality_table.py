"""Paintings and Pigment Lab at the table: each scan judged against the seat's last, warnings
stored with the scan and shown, never blocking it; a diagnosis entered later judges again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_game_end import CARDS, Table


def rules(board: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(w["rule"], w["components"]) for w in board["warnings"]]


def board_of(table: Table, seat: int) -> dict[str, Any]:
    return next(p["board"] for p in table.state()["players"] if p["seat"] == seat)


def painting(*cards: str) -> list[dict[str, str]]:
    return [{"card": card} for card in cards]


def test_a_paintings_card_in_two_places_and_a_changed_painting(tmp_path: Path) -> None:
    table = Table(tmp_path, "paintings", scoring_cards=CARDS)
    first = {"game": "paintings", "paintings": [painting("A-01", "A-02", "A-03")]}
    assert rules(table.scan({1: first}).json["boards"][0]) == []
    # Ben's painting holds a card that lies in Ana's: each card exists once.
    ben = {"game": "paintings", "paintings": [painting("A-04", "A-02", "A-05")]}
    scanned = table.scan({2: ben}).json["boards"][0]
    assert rules(scanned) == [("card-twice", ["painting 1 card middle"])]
    # Ana's sleeved painting shows another top card: a completed painting never changes (and
    # A-02 is still on Ben's board too).
    changed = {"game": "paintings", "paintings": [painting("A-01", "A-02", "A-06")]}
    scanned = table.scan({1: changed}).json["boards"][0]
    assert rules(scanned) == [
        ("painting-changed", ["painting 1 card top"]),
        ("card-twice", ["painting 1 card middle"]),
    ]
    # A second painting completed on a later turn is legal: only the card on both boards is left.
    two = {
        "game": "paintings",
        "paintings": [*changed["paintings"], painting("A-07", "A-08", "A-09")],
    }
    assert rules(table.scan({1: two}).json["boards"][0]) == [
        ("card-twice", ["painting 1 card middle"])
    ]


PANS = ("small", "medium", "medium", "large")


def palette(*pans: tuple[list[str], str | None]) -> dict[str, Any]:
    return {
        "game": "pigments",
        "pans": [
            {"pan": size, "chips": chips, "shade": shade}
            for size, (chips, shade) in zip(PANS, pans, strict=True)
        ],
    }


EMPTY: tuple[list[str], None] = ([], None)


def test_pigment_lab_a_draft_into_two_pans_is_named(tmp_path: Path) -> None:
    table = Table(tmp_path, "pigments")
    assert table.scan({1: palette(EMPTY, EMPTY, EMPTY, EMPTY)}).status_code == 201
    spread = palette((["Fe2O3"], None), (["Fe2O3"], None), EMPTY, EMPTY)
    scanned = table.scan({1: spread}).json["boards"][0]
    assert [rule for rule, _ in rules(scanned)] == ["chips-in-two-pans"]
    one_pan = palette(EMPTY, (["Fe2O3", "Fe2O3"], "coral"), EMPTY, EMPTY)
    assert table.post("undo").status_code == 201
    assert rules(table.scan({1: one_pan}).json["boards"][0]) == []


def test_pigment_lab_a_pan_emptied_without_its_wrong_diagnosis(tmp_path: Path) -> None:
    table = Table(tmp_path, "pigments")
    # A large pan of 3 pigments and 2 binders is sound; 2 pigments and 3 binders is not.
    faulted = (["Fe2O3", "FeO(OH)", "binder", "binder", "binder"], "coral")
    assert table.scan({1: palette(EMPTY, EMPTY, EMPTY, faulted)}).status_code == 201
    emptied = table.scan({1: palette(EMPTY, EMPTY, EMPTY, ([], "coral"))}).json["boards"][0]
    assert [rule for rule, _ in rules(emptied)] == ["emptied-without-wrong-diagnosis"]
    # Entering the wrong verdict afterwards clears the warning, and the point is lost.
    entered = table.client.post(
        f"/api/tables/{table.id}/diagnoses",
        json={"seat": 1, "right": False},
        headers=table.headers,
    )
    assert entered.status_code == 201
    assert rules(board_of(table, 1)) == []
    assert table.state()["players"][0]["total"] == -1
    assert table.post("undo").status_code == 201
    assert [rule for rule, _ in rules(board_of(table, 1))] == ["emptied-without-wrong-diagnosis"]
