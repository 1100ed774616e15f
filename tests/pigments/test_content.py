"""The default content (chip mix, shade catalogue, Fault deck) and its validating loader."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import pytest

from companion.content.pigments import content_for, default_content, parse_content
from companion.errors import FieldError, SourceError
from companion.games.pigments.colour import colour_of
from companion.games.pigments.faults import Cause, Symptom
from companion.games.pigments.model import PIGMENTS, Chip, PanSize


def test_default_chip_mix_is_16_of_each_of_80() -> None:
    chips = default_content().chips
    assert dict(chips) == dict.fromkeys(Chip, 16)
    assert sum(chips.values()) == 80


def test_catalogue_covers_every_colour_a_pan_can_make_once() -> None:
    # A sound pan holds 1, 2 or 3 pigments (small, medium, large).
    makeable = {
        colour_of(recipe)
        for size in PanSize
        for recipe in combinations_with_replacement(PIGMENTS, size.windows)
    }
    catalogue = default_content().catalogue
    assert len(makeable) == 16
    assert set(catalogue.by_colour) == makeable
    assert len(catalogue.shades) == 16


def test_rule_text_shades() -> None:
    shades = default_content().shades
    assert shades["coral"].recipe == (Chip.FE2O3, Chip.FEOOH)
    assert shades["white"].recipe == (Chip.TIO2,)
    assert colour_of(shades["mint"].recipe).bands[0].value == "green"


def test_fault_deck_pairs_symptoms_with_causes() -> None:
    deck = default_content().faults
    assert Counter((c.symptom, c.cause) for c in deck) == {
        (Symptom.CRUMBLES, Cause.NOT_ENOUGH_BINDER): 3,
        (Symptom.GLAZED, Cause.TOO_MUCH_BINDER): 3,
        (Symptom.CHALKY, Cause.TOO_MUCH_TIO2): 3,
        (Symptom.STREAKY, Cause.TOO_COARSE): 3,
    }


def test_no_palette_bonus_by_default() -> None:
    assert default_content().bonuses == ()


def base() -> dict[str, Any]:
    return {"format": 1, "game": "pigments"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "isle"}, "game: this is not a Pigment Lab content file"),
        ({"format": 2}, "format: unsupported format"),
        ({"colours": []}, "colours: unknown key"),
        ({"shades": [{"name": "x", "recipe": ["pink"]}]}, "shades[0].recipe[0]: unknown chip"),
        (
            {"shades": [{"name": "x", "recipe": ["binder"]}]},
            "shades[0].recipe[0]: binder is not a pigment",
        ),
        (
            {"shades": [{"name": "x", "recipe": ["TiO2", "TiO2", "TiO2", "TiO2"]}]},
            "shades[0].recipe: expected at most 3 entries",
        ),
        (
            {
                "shades": [
                    {"name": "a", "recipe": ["Fe2O3"]},
                    {"name": "a", "recipe": ["TiO2"]},
                ]
            },
            "shades[1]: duplicate shade name 'a'",
        ),
        (
            {
                "shades": [
                    {"name": "a", "recipe": ["Fe2O3"]},
                    {"name": "b", "recipe": ["Fe2O3", "FeO(OH)"]},
                ]
            },
            "shades[1]: 'b' shows the same colour as 'a'",
        ),
        (
            {"chips": {"Fe2O3": 1, "FeO(OH)": 1, "ultramarine": 1, "TiO2": 1}},
            "chips.binder: missing",
        ),
        ({"faults": [{"symptom": "soggy", "cause": "too-coarse"}]}, "faults[0].symptom"),
        ({"faults": []}, "faults: expected at least 1 entries"),
        (
            {"bonuses": [{"id": "b", "name": "B", "points": 3, "condition": "luck"}]},
            "bonuses[0].condition: unknown condition 'luck'",
        ),
        (
            {"bonuses": [{"id": "b", "name": "B", "points": 3, "condition": "spill-at-most"}]},
            "bonuses[0].params: missing",
        ),
    ],
)
def test_bad_content_names_the_field(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(FieldError) as error:
        parse_content(base() | changes, fallback=default_content())
    assert str(error.value).startswith(message)


def test_a_file_without_fallback_needs_every_section() -> None:
    with pytest.raises(FieldError, match=r"^chips: missing"):
        parse_content(base(), fallback=None)


def test_user_file_replaces_sections_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "house.json"
    shades = [{"name": "rust", "recipe": ["Fe2O3", "Fe2O3"]}]
    bonus = {
        "id": "tidy",
        "name": "Tidy",
        "points": 4,
        "condition": "spill-at-most",
        "params": {"chips": 2},
    }
    path.write_text(json.dumps(base() | {"shades": shades, "bonuses": [bonus]}))
    content = content_for(path)
    assert list(content.shades) == ["rust"]
    assert content.faults == default_content().faults
    assert [b.id for b in content.bonuses] == ["tidy"]


def test_user_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(base() | {"shades": [{"name": "x"}]}))
    with pytest.raises(SourceError, match=r"bad\.json: shades\[0\]\.recipe: missing"):
        content_for(path)
