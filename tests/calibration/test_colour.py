"""Colour calibration from the printed reference card: a cast photo is corrected."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.colour import ColourCorrection, fit_correction, straighten, trace_curves
from calibration.errors import CalibrationError
from companion.colour import linear_to_srgb, srgb_to_linear
from tests.cli import assert_user_error, atelier_main
from vision.draw import draw_layout
from vision.images import Image
from vision.layout.catalogue import layouts
from vision.layout.inks import INKS

WARM_LAMP = np.array([1.0, 0.78, 0.52])  # linear R, G, B gains of a 2700 K-ish bulb
KNEE = 0.8  # linear level where the simulated camera's highlight shoulder begins


def overexposed(printed_rgb: np.ndarray, ev: float) -> np.ndarray:
    """What a camera with a soft highlight shoulder records of printed colours at +ev."""
    linear = srgb_to_linear(printed_rgb) * 2.0**ev
    shoulder = KNEE + (1 - KNEE) * (1 - np.exp(-np.maximum(linear - KNEE, 0) / (1 - KNEE)))
    return np.asarray(np.round(linear_to_srgb(np.where(linear > KNEE, shoulder, linear))))


def cast(bgr: Image, gains: np.ndarray, exposure: float = 1.0) -> Image:
    linear = srgb_to_linear(bgr[..., ::-1].astype(np.float64)) * gains * exposure
    return np.asarray(np.round(linear_to_srgb(linear))[..., ::-1], np.uint8)


def card_photo(gains: np.ndarray, exposure: float = 1.0) -> Image:
    (card,) = layouts("calibration")
    face = draw_layout(card, 3.0)
    frame = np.full((900, 1200, 3), (80, 100, 120), np.uint8)
    frame[200 : 200 + face.shape[0], 200 : 200 + face.shape[1]] = face
    return cast(frame, gains, exposure)


def test_fit_undoes_a_warm_cast_on_the_inks() -> None:
    printed = np.array(list(INKS.values()), np.float64)
    seen = linear_to_srgb(srgb_to_linear(printed) * WARM_LAMP * 0.8)
    correction = fit_correction(seen, printed)
    assert correction.error_before > 10
    assert correction.error_after < 2.0
    back = correction.apply_bgr(seen[:, ::-1].astype(np.float32))[:, ::-1]
    assert np.abs(back - printed).max() < 12


def test_fit_undoes_an_overexposed_cameras_tone_curve() -> None:
    # +1.5 EV under a warm lamp: light colours roll off towards white, paper clips.
    printed = np.array(list(INKS.values()), np.float64)
    seen = linear_to_srgb(srgb_to_linear(overexposed(printed, 1.5)) * WARM_LAMP ** (1 / 3))
    correction = fit_correction(seen, printed)
    assert correction.to_json()["method"] == "curves-affine-linear-rgb"
    clear = seen.max(axis=1) < 250
    assert 8 <= correction.fitted_on == int(clear.sum()) < len(INKS)
    back = correction.apply_bgr(seen[clear][:, ::-1].astype(np.float32))[:, ::-1]
    assert np.abs(back - printed[clear]).max() < 14
    assert correction.error_after < 2.5 < 20 < correction.error_before
    again = ColourCorrection.from_json(json.loads(json.dumps(correction.to_json())))
    bgr = seen[:, ::-1].astype(np.float32)
    assert np.allclose(again.apply_bgr(bgr), correction.apply_bgr(bgr), atol=0.5)


def test_a_camera_that_clips_hard_reads_its_limit_as_the_light_that_reached_it() -> None:
    # +1.5 EV under a warm lamp on a camera with no highlight shoulder: the sensor's limit is
    # where printed levels 2 ** -1.5 / lamp of white got to, not white itself.
    printed = np.array(list(INKS.values()), np.float64)
    seen = np.round(linear_to_srgb(srgb_to_linear(printed) * 2.0**1.5 * WARM_LAMP))
    correction = fit_correction(seen, printed)
    limit = correction.apply_bgr(np.full((1, 3), 255.0, np.float32))[0, ::-1]
    assert np.abs(limit - linear_to_srgb(1.0 / (2.0**1.5 * WARM_LAMP))).max() < 1.0
    clear = seen.max(axis=1) < 250
    back = correction.apply_bgr(seen[clear][:, ::-1].astype(np.float32))[:, ::-1]
    assert np.abs(back - printed[clear]).max() < 1.0


def test_a_linear_camera_needs_no_curve_to_be_undone() -> None:
    printed = np.array(list(INKS.values()), np.float64)
    seen = linear_to_srgb(srgb_to_linear(printed) * WARM_LAMP * 0.8)
    straight = straighten(srgb_to_linear(seen), trace_curves(seen, printed))
    # Each channel's curve through the greys is the lamp's gain undone: a straight line.
    assert np.allclose(straight, srgb_to_linear(seen) / (WARM_LAMP * 0.8), atol=0.004)


def test_too_few_patches_are_refused() -> None:
    with pytest.raises(CalibrationError, match="at least 8"):
        fit_correction(np.zeros((3, 3)), np.zeros((3, 3)))


def test_cli_calibrates_colour_from_a_photo_of_the_card(tmp_path: Path) -> None:
    photo = tmp_path / "card.png"
    cv2.imwrite(str(photo), card_photo(WARM_LAMP, exposure=0.7))
    profile = tmp_path / "p.json"
    run = atelier_main("calibrate", "color", photo, "--profile", profile)
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["patches"] == len(INKS)
    assert data["delta_e_before"] > 10 > 3 > data["delta_e_after"]
    saved = json.loads(profile.read_text())
    correction = ColourCorrection.from_json(saved["color"])
    assert correction.fitted_on == len(INKS)


def test_cli_without_a_card(tmp_path: Path) -> None:
    photo = tmp_path / "empty.png"
    cv2.imwrite(str(photo), np.full((400, 400, 3), 128, np.uint8))
    assert_user_error(
        atelier_main("calibrate", "color", photo, "--profile", tmp_path / "p.json"),
        "empty.png: no colour reference card found",
    )
    assert not (tmp_path / "p.json").exists()


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"method": "magic"}, "color.method: 'magic' is not supported"),
        ({"method": "affine-linear-rgb", "matrix": [[1, 0, 0]]}, "color.matrix: expected 3 rows"),
        (
            {"method": "affine-linear-rgb", "matrix": [[1, 0, 0, 0]] * 3, "patches": 2},
            "color.patches",
        ),
        (
            {
                "method": "curves-affine-linear-rgb",
                "matrix": [[1, 0, 0, 0]] * 3,
                "patches": 12,
                "delta_e_before": 9.0,
                "delta_e_after": 1.0,
                "curves": {"r": [[0, 0], [1, 1]], "g": [[0, 0], [1, 1]]},
            },
            "color.curves: expected a curve for each of r, g and b",
        ),
        (
            {
                "method": "curves-affine-linear-rgb",
                "matrix": [[1, 0, 0, 0]] * 3,
                "patches": 12,
                "delta_e_before": 9.0,
                "delta_e_after": 1.0,
                "curves": {c: [[0, 0], [0.5, 0.6], [0.4, 1]] for c in "rgb"},
            },
            "color.curves.r: levels must rise",
        ),
    ],
)
def test_corrupt_colour_sections_are_refused(section: dict[str, object], message: str) -> None:
    with pytest.raises(CalibrationError, match=message.replace(".", r"\.")):
        ColourCorrection.from_json(section)
