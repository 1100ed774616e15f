"""A renderer keeps the last scene it photographed and only lights and exposes it again for
another light or sensor: the photo and its truth are the very bytes a fresh renderer makes, and
anything else about the render (seed, plan, pencils, a hand) makes the scene again."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.samples import random_position
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.plan import TablePlan
from vision.render.renderer import Renderer, RenderOptions

SIZE = (640, 360)


def plan(game: str, seed: int) -> TablePlan:
    return plan_table(random_position(game, random.Random(seed)), f"random {game}")


def same_as_fresh(renderer: Renderer, table: TablePlan, options: RenderOptions) -> bool:
    warm, fresh = renderer.render(table, options), Renderer().render(table, options)
    return warm.jpeg == fresh.jpeg and warm.truth == fresh.truth


@pytest.mark.parametrize(
    "change",
    [
        {"kelvin": 2700.0},
        {"exposure_ev": 1.0},
        {"noise_sigma": 14.0},
        {"noise_draw": 1},
        {"kelvin": 6500.0, "exposure_ev": -1.5, "noise_sigma": 3.0},
        {"seed": 8},
        {"pencils": "varied"},
        {"hand_over": 0},
        {"difficulty": Difficulty.MEDIUM},
    ],
)
def test_a_render_after_another_of_the_same_scene_is_the_one_a_fresh_renderer_makes(
    change: dict[str, object],
) -> None:
    table = plan("isle", 7)
    renderer = Renderer()
    first = renderer.render(table, RenderOptions(7, Difficulty.HARD, SIZE))
    options = dataclasses.replace(RenderOptions(7, Difficulty.HARD, SIZE), **change)  # type: ignore[arg-type]
    second = renderer.render(table, options)
    assert second.jpeg != first.jpeg
    assert same_as_fresh(renderer, table, options)


def test_another_plan_is_photographed_afresh() -> None:
    renderer = Renderer()
    renderer.render(plan("pigments", 3), RenderOptions(3, Difficulty.HARD, SIZE))
    assert same_as_fresh(renderer, plan("pigments", 4), RenderOptions(3, Difficulty.HARD, SIZE))


def test_the_kept_scene_is_never_changed_by_what_is_made_of_it() -> None:
    table = plan("pigments", 5)
    options = RenderOptions(5, Difficulty.HARD, SIZE)
    renderer = Renderer()
    first = renderer.render(table, options)
    renderer.render(table, dataclasses.replace(options, exposure_ev=1.5, kelvin=3000.0))
    assert renderer.render(table, options).jpeg == first.jpeg
