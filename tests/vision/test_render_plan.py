"""Position documents to table plans: every component matched to the printed one, in its place."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.errors import SourceError
from vision.render.placing import plan_table
from vision.render.plan import TablePlan

EXAMPLES = Path(__file__).resolve().parents[2] / "companion" / "content" / "examples"

CANVAS_2 = {
    "top": [["turquoise", "navy"], ["coral", "turquoise"], ["lemon", "coral"]],
    "bottom": [["coral", "navy"], ["turquoise", "lemon"], ["navy", "turquoise"]],
    "left": [["navy", "lemon"], ["navy", "coral"]],
    "right": [["turquoise", "lemon"], ["lemon", "coral"]],
}
F_11_EDGES = [["navy", 1], ["navy", 1], ["turquoise", 1], ["turquoise", 1]]


def example(name: str) -> Any:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def colorfield(canvas: Any, spaces: list[Any]) -> dict[str, Any]:
    return {"game": "colorfield", "canvas": canvas, "spaces": spaces}


def pieces(plan: TablePlan) -> list[tuple[str, str, int]]:
    return [(p.layout.key, p.place, p.quarter_turns) for b in plan.boards for p in b.pieces]


def test_a_palette_puts_chips_windows_first_in_listed_order_and_claimed_shades_below() -> None:
    plan = plan_table(example("pigments-palette"), "p.json")
    (board,) = plan.boards
    assert board.layout.key == "pigments/palette/1"
    assert [(c.chip, c.slot) for c in board.chips] == [
        ("TiO2", "small window 1"),
        ("binder", "small binder 1"),
        ("Fe2O3", "medium-1 window 1"),
        ("ultramarine", "large window 1"),
        ("FeO(OH)", "large window 2"),
        ("TiO2", "large window 3"),
        ("binder", "large binder 1"),
        ("binder", "large binder 2"),
    ]
    assert pieces(plan) == [
        ("pigments/shade/white", "shade small", 0),
        ("pigments/shade/mint", "shade large", 0),
    ]


def test_a_single_pan_fills_the_first_pan_of_its_size_and_matches_its_shade_by_recipe() -> None:
    document = example("pigments-pan")
    document["shade"] = {"name": "any name at all", "recipe": ["FeO(OH)", "Fe2O3"]}
    plan = plan_table(document, "pan.json")
    (board,) = plan.boards
    assert [(c.chip, c.slot) for c in board.chips] == [
        ("Fe2O3", "medium-1 window 1"),
        ("FeO(OH)", "medium-1 window 2"),
        ("binder", "medium-1 binder 1"),
    ]
    assert pieces(plan) == [("pigments/shade/coral", "shade medium-1", 0)]


def test_an_inline_canvas_and_tile_match_the_printed_ones_by_segments_and_edges() -> None:
    spaces: list[Any] = [None] * 6
    spaces[1] = {"edges": F_11_EDGES, "rotation": 3}
    spaces[5] = {"tile": "R1-07", "rotation": 2}
    plan = plan_table(colorfield(CANVAS_2, spaces), "cf.json")
    (board,) = plan.boards
    assert board.layout.key == "colorfield/canvas/2"
    assert pieces(plan) == [
        ("colorfield/tile/F-11", "space 2", 3),
        ("colorfield/tile/R1-07", "space 6", 2),
    ]


def test_an_inline_canvas_no_board_prints_is_refused_naming_the_field() -> None:
    with pytest.raises(SourceError) as error:
        plan_table(example("colorfield-rulebook"), "rulebook.json")
    assert str(error.value) == "rulebook.json: canvas: no printed canvas board with these segments"


def test_paintings_take_one_mat_per_painting_and_cards_bottom_to_top() -> None:
    document = {
        "game": "paintings",
        "scoring_cards": ["variety", "repetition", "emphasis", "composition"],
        "paintings": [
            [{"card": "A-03"}, {"card": "A-02"}, {"card": "A-01"}],
            [
                {"slots": [["bonus-texture"], [], ["tone", "hue"], ["shape"], []]},
                {"card": "A-10"},
                {"card": "A-11"},
            ],
        ],
    }
    plan = plan_table(document, "p.json")
    assert [b.layout.key for b in plan.boards] == ["paintings/mat/1", "paintings/mat/2"]
    assert pieces(plan) == [
        ("paintings/art-card/A-03", "card bottom", 0),
        ("paintings/art-card/A-02", "card middle", 0),
        ("paintings/art-card/A-01", "card top", 0),
        ("paintings/art-card/A-05", "card bottom", 0),
        ("paintings/art-card/A-10", "card middle", 0),
        ("paintings/art-card/A-11", "card top", 0),
    ]


def test_an_isle_sheet_colours_each_listed_cell() -> None:
    plan = plan_table(example("isle"), "isle.json")
    (board,) = plan.boards
    assert board.layout.key == "isle/sheet/1"
    fills = [(f.cell, f.colour) for f in board.fills]
    assert len(fills) == 19
    assert fills[:2] == [("cell 0,2", "green"), ("cell 0,3", "green")]
    assert ("cell 7,5", "red") in fills


def test_a_table_numbers_seats_per_game_in_order() -> None:
    isle, palette = example("isle"), example("pigments-palette")
    plan = plan_table({"table": [isle, palette, isle, isle]}, "t.json")
    assert [(b.layout.key, b.position) for b in plan.boards] == [
        ("isle/sheet/1", 0),
        ("pigments/palette/1", 1),
        ("isle/sheet/2", 2),
        ("isle/sheet/3", 3),
    ]
    assert plan.positions == (isle, palette, isle, isle)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            {"table": [example("isle")] * 5},
            "t.json: table[4]: a table shows at most 4 isle players (printed seats)",
        ),
        (
            {"table": [example("isle"), {"game": "chess"}]},
            "t.json: table[1].game: unknown game 'chess' "
            "(known: colorfield, paintings, isle, pigments, calibration)",
        ),
        ({"table": []}, "t.json: table: expected at least 1 entries, got 0"),
        (
            {"table": [example("isle")], "extra": 1},
            "t.json: extra: unknown key (expected one of: table)",
        ),
        ({"cells": []}, "t.json: game: missing (which game is this position for?)"),
        (
            example("pigments-tally"),
            "t.json: a final tally lists no components to draw: "
            "give a pan ('pan') or a palette ('pans')",
        ),
        (
            {"table": [colorfield("canvas-1", [None] * 6), colorfield("canvas-1", [None] * 6)]},
            "t.json: table[1].canvas: every printed canvas board with these segments "
            "is already on the table",
        ),
        (
            colorfield("canvas-1", [{"tile": "F-01"}, {"tile": "F-01"}, None, None, None, None]),
            "t.json: spaces[1]: Paint tile F-01 is already on the table (each is printed once)",
        ),
        (
            colorfield("canvas-1", [{"edges": [["lemon", 3]] * 4}, None, None, None, None, None]),
            "t.json: spaces[0]: no printed tile with these edges",
        ),
        (
            colorfield("canvas-1", [{"tile": "R1-07", "rotation": 4}] + [None] * 5),
            "t.json: spaces[0].rotation: 4 is out of range (0..3)",
        ),
    ],
)
def test_bad_tables_are_refused_with_the_field_named(document: Any, message: str) -> None:
    with pytest.raises(SourceError) as error:
        plan_table(copy.deepcopy(document), "t.json")
    assert str(error.value) == message


def test_the_reference_card_can_lie_on_the_table() -> None:
    plan = plan_table({"table": [example("isle"), {"game": "calibration"}]}, "t.json")
    assert [b.layout.key for b in plan.boards] == ["isle/sheet/1", "calibration/reference/1"]
