"""The three pigments position forms as positions.md specifies them, and their errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.content.pigments import default_content
from companion.errors import SourceError
from companion.fields import Field
from companion.games.pigments.model import Chip
from companion.games.pigments.position import PalettePosition, parse_position, position_to_json
from companion.positions import evaluate_document

EXAMPLES = Path(__file__).parents[2] / "companion" / "content" / "examples"
SPEC_KEYS = ("full", "sound", "fault", "bands", "pressed", "points")


def score(document: dict[str, Any]) -> dict[str, Any]:
    return evaluate_document(document, "test.json").data


def pan_doc(pan: str, chips: list[str], shade: Any = "coral") -> dict[str, Any]:
    return {"game": "pigments", "pan": pan, "chips": chips, "shade": shade}


def palette(**drafts: Any) -> dict[str, Any]:
    """The palette example with the turn's keys ``drafts``."""
    document: dict[str, Any] = json.loads((EXAMPLES / "pigments-palette.json").read_text())
    return document | drafts


def spec(data: dict[str, Any]) -> dict[str, Any]:
    return {key: data[key] for key in SPEC_KEYS}


def test_positions_md_pan_example() -> None:
    data = score(json.loads((EXAMPLES / "pigments-pan.json").read_text()))
    assert data["game"] == "pigments"
    assert spec(data) == {
        "full": True,
        "sound": True,
        "fault": None,
        "bands": ["yellow", "orange", "red"],
        "pressed": True,
        "points": 5,
    }


def test_positions_md_palette_example() -> None:
    data = score(json.loads((EXAMPLES / "pigments-palette.json").read_text()))
    assert data["total"] == 2
    assert [spec(p) for p in data["pans"]] == [
        {
            "full": True,
            "sound": True,
            "fault": None,
            "bands": ["violet", "blue", "green", "yellow", "orange", "red"],
            "pressed": True,
            "points": 2,
        },
        {
            "full": False,
            "sound": False,
            "fault": None,
            "bands": ["yellow", "orange", "red"],
            "pressed": False,
            "points": 0,
        },
        {
            "full": False,
            "sound": False,
            "fault": None,
            "bands": ["violet", "blue", "green", "yellow", "orange", "red"],
            "pressed": False,
            "points": 0,
        },
        {
            "full": True,
            "sound": True,
            "fault": None,
            "bands": ["green"],
            "pressed": False,
            "points": 0,
        },
    ]


def test_positions_md_tally_example() -> None:
    data = score(json.loads((EXAMPLES / "pigments-tally.json").read_text()))
    assert {k: data[k] for k in ("game", "total", "pans", "spill", "diagnoses")} == {
        "game": "pigments",
        "total": 12,
        "pans": 16,
        "spill": -3,
        "diagnoses": -1,
    }


@pytest.mark.parametrize(
    ("chips", "fault", "sound"),
    [
        (["Fe2O3", "FeO(OH)", "TiO2"], "not-enough-binder", False),
        (["Fe2O3", "binder", "binder"], "too-much-binder", False),
        (["Fe2O3", "FeO(OH)", "binder"], None, True),
    ],
)
def test_pan_faults(chips: list[str], fault: str | None, sound: bool) -> None:
    data = score(pan_doc("medium", chips))
    assert (data["fault"], data["sound"], data["full"]) == (fault, sound, True)
    assert data["pressed"] is sound


def test_inline_shade_recipe_decides_and_null_shade_never_presses() -> None:
    assert score(pan_doc("small", ["TiO2", "binder"], {"name": "coral", "recipe": ["TiO2"]}))[
        "pressed"
    ]
    assert not score(pan_doc("small", ["TiO2", "binder"], None))["pressed"]


def test_a_pan_holding_no_pigment_shows_all_six_bands() -> None:
    data = score(pan_doc("small", ["binder", "binder"]))
    assert data["bands"] == ["violet", "blue", "green", "yellow", "orange", "red"]
    assert data["fault"] == "too-much-binder"


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (pan_doc("medium", ["Fe2O3"] * 4), "test.json: chips: a medium pan has 3 slots, but 4"),
        (pan_doc("tiny", []), "test.json: pan: unknown pan 'tiny'"),
        (pan_doc("small", ["pink"]), "test.json: chips[0]: unknown chip 'pink'"),
        (pan_doc("small", ["TiO2"], "teal"), "test.json: shade: unknown shade 'teal'"),
        (
            pan_doc("small", ["TiO2"], {"name": "x", "recipe": ["binder"]}),
            "test.json: shade.recipe[0]: binder is not a pigment",
        ),
        (pan_doc("small", ["TiO2"], {"name": "x"}), "test.json: shade.recipe: missing"),
        (pan_doc("small", []) | {"colour": 1}, "test.json: colour: unknown key"),
        ({"game": "pigments"}, "test.json: a pigments position has 'pan'"),
        (
            {"game": "pigments", "pans": [{"pan": "small", "chips": []}]},
            "test.json: pans: expected 4 entries, got 1",
        ),
        (
            {"game": "pigments", "pans": [{"pan": "medium", "chips": []}] * 4},
            "test.json: pans[0].pan: expected a small pan here",
        ),
        (
            {"game": "pigments", "pressed": ["large", "large"], "spill_lines": []},
            "test.json: pressed: 2 large pans pressed, but a palette board has 1",
        ),
        (palette(crates=[["Fe2O3", "gold"]]), "test.json: crates[0][1]: unknown chip 'gold'"),
        (
            palette(crates=[["TiO2"], ["Fe2O3"] * 4]),
            "test.json: crates[1]: a crate holds at most 3 chips, got 4",
        ),
        (palette(crates=[[]] * 6), "test.json: crates: expected at most 5 entries, got 6"),
        (palette(crates="Fe2O3"), "test.json: crates: expected a list"),
        (palette(spill_tray=["binder", 3]), "test.json: spill_tray[1]: expected a chip name"),
        (palette(spill_line=-1), "test.json: spill_line: -1 is out of range"),
        (palette(shade_row=["coral", "teal"]), "test.json: shade_row[1]: unknown shade 'teal'"),
        (palette(shade_row=["coral", "coral"]), "test.json: shade_row[1]: shade 'coral' is in"),
        (palette(shade_row=[None]), "test.json: shade_row[0]: expected a shade card, got null"),
        (pan_doc("small", []) | {"crates": []}, "test.json: crates: unknown key"),
        (
            {"game": "pigments", "pressed": [], "spill_lines": [0, 0, 0, 0, 0, 0]},
            "test.json: spill_lines: expected at most 5 entries",
        ),
        (
            {"game": "pigments", "pressed": [], "spill_lines": [-1]},
            "test.json: spill_lines[0]: -1 is out of range",
        ),
        (
            {"game": "pigments", "pressed": [], "spill_lines": [], "wrong_diagnoses": True},
            "test.json: wrong_diagnoses: expected a whole number",
        ),
        (
            {"game": "pigments", "pressed": []},
            "test.json: spill_lines: missing",
        ),
    ],
)
def test_bad_positions_name_the_field(document: dict[str, Any], message: str) -> None:
    with pytest.raises(SourceError) as error:
        score(document)
    assert str(error.value).startswith(message)


@pytest.mark.parametrize("name", ["pan", "palette", "tally", "advise"])
def test_examples_round_trip(name: str) -> None:
    catalogue = default_content().catalogue.by_name
    document = json.loads((EXAMPLES / f"pigments-{name}.json").read_text())
    position = parse_position(Field(document), catalogue)
    again = position_to_json(position, catalogue)
    assert parse_position(Field(again), catalogue) == position


def test_the_turn_keys_are_read_and_still_score() -> None:
    catalogue = default_content().catalogue.by_name
    document = palette(
        crates=[["Fe2O3", "Fe2O3", "TiO2"], []],
        spill_tray=["binder"],
        spill_line=2,
        shade_row=["coral", {"name": "my red", "recipe": ["Fe2O3", "Fe2O3"]}],
    )
    position = parse_position(Field(document), catalogue)
    assert isinstance(position, PalettePosition) and position.drafts is not None
    drafts = position.drafts
    assert drafts.crates == ((Chip.FE2O3, Chip.FE2O3, Chip.TIO2), ())
    assert (drafts.tray, drafts.spill_line) == ((Chip.BINDER,), 2)
    assert drafts.shade_row is not None
    assert [s.name for s in drafts.shade_row] == ["coral", "my red"]
    assert drafts.on_offer
    # The turn changes nothing of the score.
    assert score(document)["total"] == score(palette())["total"] == 2
    assert parse_position(Field(palette()), catalogue) == PalettePosition(position.pans)
