"""Perturbation families at graded strengths, their names of old, and the families that change
the render instead of the photo."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest

from companion.samples import random_position
from vision.benchmark import Trial, perturbed, render_board, summarise_perturbed
from vision.images import Image
from vision.perturb import (
    ALIASES,
    FAMILIES,
    Family,
    colour_cast,
    exposure,
    focus_blur,
    jpeg,
    motion_blur,
    sensor_noise,
    two_colour_light,
)
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions

OLD_NAMES = (
    "noise", "ev+1", "ev-1", "two-light", "cast", "motion", "focus", "jpeg", "1280x720", "960x540",
)  # fmt: skip


def photo(seed: int = 0) -> Image:
    """A small textured photo: gradients, blocks of colour and sharp edges."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:180, 0:320]
    image = np.stack([x * 3 % 256, y * 5 % 256, (x + y) % 256], axis=-1).astype(np.uint8)
    for _ in range(12):
        r, c = rng.integers(0, 160), rng.integers(0, 300)
        image[r : r + 20, c : c + 30] = rng.integers(0, 256, 3)
    return image


def change(name: str, image: Image, seed: int = 3) -> float:
    """Mean absolute difference, in 8-bit levels, that the family ``name`` makes to ``image``."""
    apply = FAMILIES[name].apply
    assert apply is not None
    return float(np.abs(apply(image, seed).astype(float) - image.astype(float)).mean())


def graded() -> list[list[str]]:
    """Each image family's strengths, mildest first; exposure up and down apart."""
    groups: dict[str, list[str]] = {}
    for name, family in FAMILIES.items():
        if family.apply is None or family.family == "size":
            continue
        key = family.family
        if family.family == "ev":
            key += (family.strength or "")[0]
        groups.setdefault(key, []).append(name)
    return list(groups.values())


@pytest.mark.parametrize("names", graded(), ids=lambda names: names[0].split(":")[0])
def test_a_stronger_strength_changes_the_photo_more(names: list[str]) -> None:
    assert len(names) >= 2
    image = photo()
    changes = [change(name, image) for name in names]
    assert changes == sorted(changes) and len(set(changes)) == len(changes), changes
    assert changes[0] > 0


@pytest.mark.parametrize("name", [n for n, f in FAMILIES.items() if f.apply])
def test_every_strength_is_deterministic_per_seed(name: str) -> None:
    apply = FAMILIES[name].apply
    assert apply is not None
    image = photo()
    assert np.array_equal(apply(image, 9), apply(image, 9))


def test_names_read_family_colon_strength() -> None:
    assert {"noise:6", "noise:12", "noise:20", "ev:+0.5", "ev:+1", "ev:-2", "jpeg:25"} <= set(
        FAMILIES
    )
    assert {"motion:18-20", "two-light:0.35", "cast:0.25", "focus:2.5", "size:960x540"} <= set(
        FAMILIES
    )
    for name, family in FAMILIES.items():
        assert name == (f"{family.family}:{family.strength}" if family.strength else family.family)


def test_the_names_of_old_stand_for_the_strengths_they_had() -> None:
    assert set(OLD_NAMES) <= set(ALIASES)
    image = photo()
    old = {
        "noise": sensor_noise(image, 4),
        "ev+1": exposure(image, 4, 1.0),
        "ev-1": exposure(image, 4, -1.0),
        "two-light": two_colour_light(image, 4),
        "cast": colour_cast(image, 4),
        "motion": motion_blur(image, 4),
        "focus": focus_blur(image, 4),
        "jpeg": jpeg(image, 4),
    }
    for name, expected in old.items():
        family = FAMILIES[ALIASES[name]]
        assert family.default and family.apply is not None
        assert np.array_equal(family.apply(image, 4), expected), name


def test_every_family_has_a_default_and_ev_two() -> None:
    defaults = [f for f in FAMILIES.values() if f.default]
    assert {f.family for f in defaults} == {f.family for f in FAMILIES.values()}
    assert [f.name for f in defaults if f.family == "ev"] == ["ev:+1", "ev:-1"]


def test_a_family_is_an_image_operation_or_a_render_change_not_both() -> None:
    with pytest.raises(ValueError, match="only one"):
        Family("x", None, "neither")
    with pytest.raises(ValueError, match="only one"):
        Family("x", None, "both", apply=lambda image, seed: image, render=lambda o: o)


def test_render_families_change_the_options_as_named() -> None:
    options = RenderOptions(7, Difficulty.HARD)
    expected: dict[str, dict[str, Any]] = {
        "warm-light:2700K": {"kelvin": 2700.0},
        "cool-light:6500K": {"kelvin": 6500.0},
        "hand": {"hand_over": 0},
        "pencils": {"pencils": "varied"},
    }
    rendered = {name for name, f in FAMILIES.items() if f.render}
    assert rendered == set(expected)
    for name, changes in expected.items():
        family = FAMILIES[name]
        assert family.render is not None and family.apply is None
        assert family.render(options) == dataclasses.replace(options, **changes)
        assert family.default
    assert ALIASES["warm-light"] == "warm-light:2700K"
    assert ALIASES["cool-light"] == "cool-light:6500K"


def test_only_the_hand_hides_part_of_a_board() -> None:
    assert [name for name, f in FAMILIES.items() if f.hides] == ["hand"]


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer()


def test_a_render_family_renders_again_with_the_new_render_s_truth(renderer: Renderer) -> None:
    rendered = render_board(renderer, "colorfield", Difficulty.EASY, 3)
    assert rendered.rendering.truth["covered_regions"] == []
    board, image = perturbed(renderer, rendered, FAMILIES["hand"])
    assert board.position == rendered.position and board.seed == rendered.seed
    assert board.rendering.truth["covered_regions"]  # the hand hides part of the canvas
    assert np.array_equal(image, board.rendering.image)
    assert not np.array_equal(image, rendered.rendering.image)
    # As the renderer itself renders the board with the hand asked for.
    plan = plan_table(random_position("colorfield", random.Random(3)), "x")
    direct = renderer.render(plan, RenderOptions(3, Difficulty.EASY, hand_over=0))
    assert np.array_equal(image, direct.image)


def test_an_image_family_keeps_the_render_and_perturbs_its_photo(renderer: Renderer) -> None:
    rendered = render_board(renderer, "colorfield", Difficulty.EASY, 3)
    board, image = perturbed(renderer, rendered, FAMILIES["jpeg:25"])
    assert board is rendered
    assert np.array_equal(image, jpeg(rendered.rendering.image, 3, 25))


def test_players_own_pencils_colour_an_isle_sheet_otherwise(renderer: Renderer) -> None:
    rendered = render_board(renderer, "isle", Difficulty.EASY, 4)
    board, image = perturbed(renderer, rendered, FAMILIES["pencils"])
    assert board.position == rendered.position
    assert "pencils" in board.rendering.truth["render"]
    assert "pencils" not in rendered.rendering.truth["render"]
    assert not np.array_equal(image, rendered.rendering.image)


def trial(outcome: str, reads_right: bool) -> Trial:
    return Trial("isle", "hard", 1, outcome, False, 10, 0, 1.0, 1.0, (), (), reads_right)


def test_refusals_whose_reads_were_all_right_are_counted_among_the_refused() -> None:
    trials = [
        trial("exact", True),
        trial("abstained", True),
        trial("abstained", False),
        trial("missed", False),
        trial("confident-wrong", False),
    ]
    row = summarise_perturbed(trials)
    assert (row["exact"], row["refused"], row["wrong"]) == (1, 3, 1)
    assert row["refused_reads_right"] == 1
    assert row["refused_reads_right_share"] == pytest.approx(1 / 3, abs=1e-4)
    low, high = row["refused_reads_right_interval"]
    assert low < 1 / 3 < high
    assert summarise_perturbed([trial("exact", True)])["refused_reads_right_share"] == 0.0
