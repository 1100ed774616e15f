"""``atelier advise`` through the real console script: exact advice, reasons, refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.content.isle import content_for
from companion.games.isle.hexgrid import Cell
from tests.cli import assert_user_error, atelier_main

EXAMPLES = Path(__file__).parents[1] / "companion/content/examples"

HUE = {"slots": [["hue"], [], [], [], []]}
TEXTURES = {"slots": [["texture"], ["texture"], ["texture"], [], []]}
SHAPE = {"slots": [[], [], [], ["shape"], []]}
TONE = {"slots": [[], [], [], [], ["tone"]]}


def paintings(**changes: Any) -> dict[str, Any]:
    position = {
        "game": "paintings",
        "scoring_cards": ["emphasis", "style", "repetition", "symmetry"],
        "paintings": [],
        "hand": [HUE, TEXTURES, SHAPE, TONE],
    }
    return position | changes


def isle(**changes: Any) -> dict[str, Any]:
    position = {
        "game": "isle",
        "conditions": {"green": "grass", "blue": "shore", "brown": "beach", "red": "hamlet"},
        # A green group of 4: one more green cell makes it 5, and a group of 5 is grass.
        "cells": [[0, 2, "green"], [0, 3, "green"], [0, 4, "green"], [0, 5, "green"]],
        "roll": 1,
        "hand": ["blue", "green"],
        "final_round": True,
    }
    return position | changes


def advise(tmp_path: Path, position: object, *options: str) -> Any:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    return atelier_main("advise", *options, path)


def test_paintings_advice_is_the_best_order_of_the_hand(tmp_path: Path) -> None:
    run = advise(tmp_path, paintings())
    assert run.status == 0, run.stderr
    assert run.stderr == ""
    data = json.loads(run.stdout)
    # Style (0 -> 4) beats emphasis (0 -> 1); of the orders that earn it, the first in hand order.
    assert data["points"] == 4
    assert data["gains"] == {"emphasis": 0, "style": 4, "repetition": 0, "symmetry": 0, "silver": 0}
    assert data["paint"] == [
        {"hand": 1, "card": None},
        {"hand": 2, "card": None},
        {"hand": 3, "card": None},
    ]
    assert len(data["options"]) == 24
    assert data["options"][0] == {"hand": [1, 2, 3], "points": 4}
    assert data["reasons"][0] == (
        "Paint hand card 1, hand card 2, hand card 3, bottom to top: +4 points."
    )


def test_paintings_advice_counts_the_ribbons_already_won(tmp_path: Path) -> None:
    hue_alone = [HUE, {"slots": [[], [], [], [], []]}, {"slots": [[], [], [], [], []]}]
    run = advise(tmp_path, paintings(paintings=[hue_alone, hue_alone]))
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    # Two emphasis ribbons won: the third is worth 4 -> 11 (+7), more than style's +4.
    assert data["points"] == 7
    assert data["gains"]["emphasis"] == 7


def test_isle_advice_is_the_fill_that_gains_most(tmp_path: Path) -> None:
    run = advise(tmp_path, isle())
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert data == data | {
        "game": "isle",
        "roll": 1,
        "color": "green",
        "cells": [[0, 6]],
        "gain": 6,
        "outlook": 0,
        "looked_ahead": 0,
        "total": 6,
    }


def test_isle_advice_when_nothing_fits(tmp_path: Path) -> None:
    island = content_for(None).islands["default"]
    # Every cell filled but two apart: a roll of 2 has no room.
    cells = [[c.row, c.col, "red"] for c in island.cells if c not in (Cell(0, 2), Cell(0, 4))]
    run = advise(tmp_path, isle(roll=2, cells=cells), "--explain")
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert (data["color"], data["cells"], data["gain"]) == (None, [], 0)
    assert run.stderr == "No group of 2 connected empty cells fits: nothing to fill this round.\n"


def test_explain_prints_the_reasons_for_people(tmp_path: Path) -> None:
    run = advise(tmp_path, isle(), "--explain")
    assert run.status == 0
    data = json.loads(run.stdout)
    assert run.stderr.splitlines() == data["reasons"]
    assert run.stderr.startswith("Fill (0, 6) with green (roll 1): +6 points now (0 -> 6).\n")
    assert "green (grass): 0 -> 6 (+6)" in run.stderr
    assert "Final round: no round follows" in run.stderr
    paint = advise(tmp_path, paintings(), "--explain")
    assert "style: 1 ribbon" in paint.stderr and "Next best:" in paint.stderr
    lab = advise(tmp_path, pigments(), "--explain")
    assert lab.stderr.splitlines() == json.loads(lab.stdout)["reasons"]
    assert "Next best:" in lab.stderr


def colorfield(**changes: Any) -> dict[str, Any]:
    position: dict[str, Any] = json.loads((EXAMPLES / "colorfield-tile.json").read_text())
    return position | changes


def test_colorfield_advice_ranks_every_space_and_rotation(tmp_path: Path) -> None:
    run = advise(tmp_path, colorfield(), "--explain")
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["before"] == 18
    assert data["best"] == {"space": 4, "rotation": 0, "gain": 6, "total": 24}
    assert len(data["options"]) == 8  # two empty spaces, four rotations
    assert [o["gain"] for o in data["options"]] == sorted(
        (o["gain"] for o in data["options"]), reverse=True
    )
    assert run.stderr.splitlines() == data["reasons"]
    assert run.stderr.startswith("Place navy/coralx3/navy/turquoise in space 4, upright: +6 points")
    assert "right: coral x3 matches space 5: +3" in run.stderr
    by_id = advise(tmp_path, colorfield(tile="R1-07"))
    assert by_id.status == 0 and json.loads(by_id.stdout)["tile"] == "R1-07"


def pigments(**changes: Any) -> dict[str, Any]:
    position: dict[str, Any] = json.loads((EXAMPLES / "pigments-advise.json").read_text())
    return position | changes


def without(position: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in position.items() if k not in keys}


def test_pigments_advice_is_the_draft_worth_most(tmp_path: Path) -> None:
    board = [
        {"pan": "small", "chips": [], "shade": None},
        {"pan": "medium", "chips": ["Fe2O3", "binder"], "shade": "coral"},
        {"pan": "medium", "chips": [], "shade": None},
        {"pan": "large", "chips": ["TiO2"], "shade": "shell"},
    ]
    position = without(
        pigments(pans=board, crates=[["FeO(OH)", "FeO(OH)", "ultramarine"]], spill_tray=[]),
        "shade_row",
    )
    run = advise(tmp_path, position, "--explain")
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    # One FeO(OH) presses coral (+5/3), the other is the Spill Line's 2nd chip (-1).
    assert data["best"] | {"reason": None} == {
        "rank": 1,
        "tied": False,
        "take": {"from": "crate", "crate": 1, "chip": "FeO(OH)", "count": 2},
        "pan": 2,
        "size": "medium",
        "claim": None,
        "placed": 1,
        "spill": {"chips": 1, "line": 2, "cost": -1},
        "value": 5.8,
        "gain": 0.67,
        "exact": {"value": "29/5", "gain": "2/3"},
        "pan_after": {
            "chips": ["Fe2O3", "FeO(OH)", "binder"],
            "shade": "coral",
            "presses": True,
            "card_fits": True,
            "right": 3,
            "missing": 0,
            "wrong": 0,
            "fault": None,
        },
        "reason": None,
    }
    assert data["game"] == "pigments" and data["tied"] == 0
    assert run.stderr.splitlines() == data["reasons"]
    assert run.stderr.startswith("Take the 2 FeO(OH) from crate 1 into pan 2 (medium, coral)")
    assert "1 chip does not fit and goes on the Spill Line" in run.stderr
    assert "recipe" not in run.stdout


@pytest.mark.parametrize(
    "example",
    ["paintings-hand.json", "isle-roll.json", "colorfield-tile.json", "pigments-advise.json"],
)
def test_the_examples_are_advised_from_standard_input(example: str) -> None:
    text = (EXAMPLES / example).read_text()
    run = atelier_main("advise", "-", stdin=text)
    assert run.status == 0, run.stderr
    assert json.loads(run.stdout)["reasons"]
    # The same file still scores: the advice keys are optional position keys.
    assert atelier_main("score", "-", stdin=text).status == 0


def test_help_has_an_example() -> None:
    run = atelier_main("advise", "--help")
    assert run.status == 0 and "example:" in run.stdout
    assert "pigments-advise.json" in run.stdout
    assert "advise" in atelier_main("--help").stdout


@pytest.mark.parametrize(
    ("position", "fragments"),
    [
        ({k: v for k, v in paintings().items() if k != "hand"}, ["hand: missing"]),
        (paintings(hand=[HUE, TONE]), ["hand: 2 cards", "takes 3"]),
        (paintings(hand=[HUE, TONE, SHAPE, HUE, TONE, SHAPE]), ["hand: expected at most 5"]),
        (paintings(hand=[HUE, TONE, {"card": "Z-99"}]), ["hand[2].card", "unknown art card"]),
        (
            paintings(hand=[HUE, {"card": "A-01"}, {"card": "A-01"}]),
            ["hand[2]", "'A-01' is already in hand"],
        ),
        (
            paintings(
                paintings=[[{"card": "A-01"}, HUE, TONE]], hand=[{"card": "A-01"}, HUE, TONE]
            ),
            ["hand[0]", "already in paintings[0]"],
        ),
        (paintings(paintings=[[HUE, HUE, HUE]] * 3), ["paintings: all 3 paintings are done"]),
        ({k: v for k, v in isle().items() if k not in ("roll", "hand")}, ["roll: missing"]),
        ({k: v for k, v in isle().items() if k != "hand"}, ["hand: missing"]),
        (isle(roll=0), ["roll: 0 is out of range (1..6)"]),
        (isle(hand=["green", "green"]), ["hand[1]", "held twice"]),
        (isle(hand=["green", "pink"]), ["hand[1]", "unknown colour 'pink'"]),
        (isle(incoming="green"), ["incoming", "already in hand"]),
        (isle(final_round="yes"), ["final_round", "true or false"]),
        ({k: v for k, v in colorfield().items() if k != "tile"}, ["tile: missing"]),
        (colorfield(tile="X-01"), ["tile: unknown tile 'X-01'"]),
        (colorfield(tile={"edges": [["pink", 1]] * 4}), ["tile.edges[0]", "unknown colour 'pink'"]),
        (colorfield(tile={"edges": [["navy", 1]] * 3}), ["tile.edges: expected 4 entries"]),
        (
            {"game": "pigments", "pan": "medium", "chips": [], "shade": "coral"},
            ["pans: missing (the advice is for a palette board"],
        ),
        (pigments(crates=[["Fe2O3", "gold"]]), ["crates[0][1]: unknown chip 'gold'"]),
        (
            pigments(crates=[["TiO2"], ["Fe2O3", "Fe2O3", "TiO2", "binder"]]),
            ["crates[1]: a crate holds at most 3 chips, got 4"],
        ),
        (without(pigments(), "crates", "spill_tray"), ["crates: missing"]),
        (pigments(crates=[[], []], spill_tray=[]), ["crates: every crate and the Spill Tray"]),
        (pigments(spill_line=-1), ["spill_line: -1 is out of range"]),
        (pigments(shade_row=["coral", "teal"]), ["shade_row[1]: unknown shade 'teal'"]),
        ({"game": "chess"}, ["game: unknown game 'chess'"]),
        ([], ["expected a position object"]),
    ],
)
def test_bad_positions_are_refused_in_one_line(
    tmp_path: Path, position: object, fragments: list[str]
) -> None:
    assert_user_error(advise(tmp_path, position), "position.json: ", *fragments)


def test_missing_files_and_empty_input_are_refused(tmp_path: Path) -> None:
    assert_user_error(atelier_main("advise", tmp_path / "nope.json"), "nope.json: no such file")
    assert_user_error(atelier_main("advise", "-", stdin=""), "<stdin>: empty input")
    assert_user_error(atelier_main("advise", "-", stdin="{"), "<stdin>: line 1")
