"""Suggested moves at the table: a player's board as the table read it, with what no camera sees
sent by the player, through the game's own advisor; switched off at setup, refused once over."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.positions import advise_document
from tests.web.test_game_end import CARDS, CONDITIONS, Table, canvas, paintings, sheet

EXAMPLES = Path(__file__).parents[2] / "companion" / "content" / "examples"


def ask(table: Table, seat: int, body: Any) -> Any:
    return table.client.post(
        f"/api/tables/{table.id}/seats/{seat}/advice", json=body, headers=table.headers
    )


def test_color_field_advice_places_the_tile_in_hand_on_the_canvas_as_read(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, "colorfield")
    board = canvas(5)
    board["spaces"][3] = None
    assert table.scan({1: board}).status_code == 201
    answer = ask(table, 1, {"tile": "R1-07"})
    assert answer.status_code == 200
    expected = advise_document(
        {**table.state()["players"][0]["board"]["position"], "tile": "R1-07"}, "x"
    )
    assert (answer.json["advice"], answer.json["explanation"]) == (expected.data, expected.text)
    assert answer.json["advice"]["best"]["space"] == 4


def test_paintings_advice_from_the_cards_in_hand_before_any_painting(tmp_path: Path) -> None:
    table = Table(tmp_path, "paintings", scoring_cards=CARDS)
    hand = json.loads((EXAMPLES / "paintings-hand.json").read_text())["hand"]
    answer = ask(table, 2, {"hand": hand})
    assert answer.status_code == 200
    document = {"game": "paintings", "scoring_cards": CARDS, "paintings": [], "hand": hand}
    assert answer.json["advice"] == advise_document(document, "x").data
    # With a painting scanned, the advice counts it.
    assert table.scan({2: paintings(1)}).status_code == 201
    again = ask(table, 2, {"hand": hand})
    document["paintings"] = paintings(1)["paintings"]
    assert again.json["advice"] == advise_document(document, "x").data


def test_isle_advice_takes_the_roll_the_table_was_told(tmp_path: Path) -> None:
    table = Table(tmp_path, "isle", conditions=CONDITIONS)
    assert table.scan({1: sheet((4, 4, "green"))}).status_code == 201
    missing = ask(table, 1, {"hand": ["green", "red"]})
    assert (missing.status_code, missing.json["error"]) == (
        400,
        "roll: missing (enter this round's roll, or send it)",
    )
    entered = table.client.post(
        f"/api/tables/{table.id}/rolls", json={"roll": 2}, headers=table.headers
    )
    assert entered.status_code == 201
    answer = ask(table, 1, {"hand": ["green", "red"]})
    assert answer.status_code == 200
    document = {
        "game": "isle",
        "island": "default",
        "conditions": CONDITIONS,
        "cells": [[4, 4, "green"]],
        "hand": ["green", "red"],
        "roll": 2,
    }
    assert answer.json["advice"] == advise_document(document, "x").data
    assert len(answer.json["advice"]["cells"]) == 2


def test_bad_requests_name_the_field(tmp_path: Path) -> None:
    table = Table(tmp_path, "isle", conditions=CONDITIONS)
    for body, error in (
        ({"hand": ["green", "pink"], "roll": 2}, "hand[1]: unknown colour 'pink'"),
        ({"hand": ["green", "red"], "roll": 9}, "roll: 9 is out of range (1..6)"),
        ({"tile": "R1-07"}, "tile: unknown key (expected one of: hand, roll)"),
    ):
        answer = ask(table, 1, body)
        assert (answer.status_code, answer.json["error"].split(" (known")[0]) == (400, error)
    assert ask(table, 9, {"hand": ["green", "red"]}).status_code == 404
    url = f"/api/tables/{table.id}/seats/1/advice"
    assert table.client.post(url, json={"hand": ["green", "red"], "roll": 2}).status_code == 403


def test_a_table_switches_suggestions_off_and_none_is_given_once_over(tmp_path: Path) -> None:
    off = Table(tmp_path / "off", "paintings", scoring_cards=CARDS, advice=False)
    answer = ask(off, 1, {"hand": []})
    assert (answer.status_code, answer.json) == (
        409,
        {"error": "move suggestions are switched off at this table"},
    )
    assert off.state()["setup"]["options"]["advice"] is False
    field = Table(tmp_path / "field", "colorfield")
    answer = ask(field, 1, {"tile": "R1-07"})
    assert (answer.status_code, answer.json) == (
        409,
        {"error": "scan seat 1's canvas first: the advice places a tile on it"},
    )
    isle = Table(tmp_path / "isle", "isle", conditions=CONDITIONS)
    assert isle.post("end").status_code == 201
    answer = ask(isle, 1, {"hand": ["green", "red"], "roll": 2})
    assert (answer.status_code, answer.json) == (
        409,
        {"error": "the game is over: there is no next move to suggest"},
    )


def test_pigment_lab_advice_from_the_crates_on_offer(tmp_path: Path) -> None:
    table = Table(tmp_path, "pigments")
    market = {"crates": [["Fe2O3", "Fe2O3", "TiO2"], ["binder", "FeO(OH)"]], "spill_line": 1}
    answer = ask(table, 1, market)
    assert answer.status_code == 200
    empty: list[dict[str, Any]] = [
        {"pan": size, "chips": [], "shade": None} for size in ("small", "medium", "medium", "large")
    ]
    document = {"game": "pigments", "pans": empty, **market}
    expected = advise_document(document, "x")
    assert (answer.json["advice"], answer.json["explanation"]) == (expected.data, expected.text)
    assert "recipe" not in json.dumps(answer.json["advice"])
    # A table set up with its shade row advises claims from it.
    with_row = Table(tmp_path / "row", "pigments", shade_row=["coral", "mint"])
    claims = ask(with_row, 1, market)
    document["shade_row"] = ["coral", "mint"]
    assert claims.json["advice"] == advise_document(document, "x").data
    assert claims.json["advice"] != answer.json["advice"]
    missing = ask(table, 1, {"spill_line": 1})
    assert (missing.status_code, missing.json["error"]) == (
        400,
        "crates: missing (the advice is which draft to take: give 'crates' or 'spill_tray')",
    )
