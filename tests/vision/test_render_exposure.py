"""Exposure in stops acts on light, not on the encoded levels the frame holds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numpy.typing import NDArray

from companion.samples import random_position
from vision.render.envelope import Difficulty
from vision.render.photo import exposure_gain
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions


def test_a_stop_of_light_is_a_gain_of_two_to_the_one_over_gamma_on_encoded_levels() -> None:
    assert exposure_gain(0.0) == 1.0
    assert exposure_gain(2.2) == pytest.approx(2.0)
    assert exposure_gain(-1.5) * exposure_gain(1.5) == pytest.approx(1.0)


def test_plus_and_minus_one_and_a_half_ev_scale_mid_levels_as_light_would() -> None:
    plan = plan_table(random_position("isle", random.Random(3)), "t")
    renderer = Renderer()

    def image(ev: float) -> NDArray[np.float64]:
        options = RenderOptions(3, Difficulty.MEDIUM, (960, 540), kelvin=5500.0, exposure_ev=ev)
        return renderer.render(plan, options).image.astype(np.float64)

    base = image(0.0)
    # Mid levels stay clear of black and of the sensor's limit at both exposures.
    mid = (base >= 60) & (base <= 140)
    assert mid.mean() > 0.1
    for ev, gain in ((1.5, 1.604), (-1.5, 0.623)):
        ratio = float(image(ev)[mid].mean() / base[mid].mean())
        assert ratio == pytest.approx(gain, abs=0.01), ev
