"""The colour conversions every package shares: known values of the standards, and round trips."""

from __future__ import annotations

import numpy as np
import pytest

from companion.colour import (
    RGB_TO_XYZ,
    XYZ_TO_RGB,
    encode,
    lightness_to_y,
    linear_rgb_to_y,
    linear_to_srgb,
    srgb_to_lab,
    srgb_to_linear,
    y_to_lightness,
)


def test_mid_grey_is_a_fifth_of_the_light_of_white() -> None:
    assert float(srgb_to_linear(127.5)) == pytest.approx(0.21404114, abs=1e-8)
    assert float(srgb_to_linear(255)) == 1.0
    assert float(srgb_to_linear(0)) == 0.0
    assert float(linear_to_srgb(0.21404114)) == pytest.approx(127.5, abs=1e-6)


def test_the_curve_is_linear_near_black_and_meets_the_power_at_its_knee() -> None:
    assert float(srgb_to_linear(2.55)) == pytest.approx(0.01 / 12.92, rel=1e-12)
    below, above = srgb_to_linear(np.array([0.04045 * 255, 0.04045 * 255 + 1e-6]))
    assert below == pytest.approx(above, abs=1e-7)
    assert float(linear_to_srgb(0.001)) == pytest.approx(255 * 0.01292, rel=1e-12)


def test_levels_survive_a_round_trip_through_linear_light() -> None:
    levels = np.linspace(0.0, 255.0, 1021)
    assert np.abs(linear_to_srgb(srgb_to_linear(levels)) - levels).max() < 1e-9


def test_linear_light_outside_0_to_1_is_clipped() -> None:
    assert linear_to_srgb(np.array([-0.5, 0.0, 1.0, 3.0])) == pytest.approx([0, 0, 255, 255])


def test_each_conversion_works_in_the_precision_asked_or_given() -> None:
    pixels = np.array([[10.0, 128.0, 250.0]], np.float32)
    assert srgb_to_linear(pixels).dtype == np.float64
    assert srgb_to_linear(pixels, np.float32).dtype == np.float32
    assert linear_to_srgb(pixels / 255).dtype == np.float32
    assert linear_to_srgb(np.array([0.5])).dtype == np.float64


@pytest.mark.parametrize(
    ("rgb", "lab"),
    [
        ((0, 0, 0), (0.0, 0.0, 0.0)),
        ((255, 0, 0), (53.24, 80.09, 67.20)),
        ((0, 255, 0), (87.73, -86.18, 83.18)),
        ((0, 0, 255), (32.30, 79.19, -107.86)),
    ],
)
def test_primaries_in_cielab(rgb: tuple[int, int, int], lab: tuple[float, float, float]) -> None:
    # The four-place matrix of the standard puts them within a few hundredths of the values
    # worked out from the primaries' exact chromaticities.
    assert srgb_to_lab([rgb])[0] == pytest.approx(lab, abs=0.03)


def test_white_is_lightness_100_and_neutral() -> None:
    lightness, a, b = srgb_to_lab([(255, 255, 255)])[0]
    assert lightness == pytest.approx(100.0, abs=1e-9)
    # The matrix's rows, rounded to four places, miss the D65 white by a hundredth of a unit.
    assert (a, b) == pytest.approx((0.0, 0.0), abs=0.02)


def test_greys_have_no_hue_and_lightness_rises_with_the_level() -> None:
    greys = np.repeat(np.arange(0, 256, 15)[:, None], 3, axis=1)
    lab = srgb_to_lab(greys)
    assert np.abs(lab[:, 1:]).max() < 0.02
    assert np.all(np.diff(lab[:, 0]) > 0)


def test_the_two_matrices_undo_each_other() -> None:
    product = np.array(XYZ_TO_RGB) @ np.array(RGB_TO_XYZ)
    assert np.allclose(product, np.eye(3), atol=1e-3)


def test_a_single_channel_is_encoded_as_the_array_conversion_does() -> None:
    for linear in np.linspace(0.0, 1.0, 1001):
        assert encode(float(linear)) * 255 == pytest.approx(float(linear_to_srgb(linear)))
    assert encode(0.001) == pytest.approx(0.01292, rel=1e-12)


def test_lightness_of_a_luminance_and_back() -> None:
    assert y_to_lightness(1.0) == 100.0
    assert y_to_lightness(0.0) == 0.0
    assert y_to_lightness(0.18) == pytest.approx(49.4961, abs=1e-4)
    assert lightness_to_y(100.0) == 1.0
    assert lightness_to_y(50.0) == pytest.approx(0.184187, abs=1e-6)
    for lightness in np.linspace(0.0, 100.0, 1001):
        # Near black the CIE's rounded slope (903.3) leaves the two a little apart.
        assert y_to_lightness(lightness_to_y(float(lightness))) == pytest.approx(
            lightness, abs=1e-4
        )


def test_white_has_all_the_luminance() -> None:
    assert linear_rgb_to_y((1.0, 1.0, 1.0)) == pytest.approx(1.0, abs=1e-12)
    assert linear_rgb_to_y((0.0, 1.0, 0.0)) == 0.7152
