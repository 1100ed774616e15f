"""The sensor's colour noise measured on a rectified face, and the face with it taken out."""

from __future__ import annotations

import numpy as np
import pytest

from vision.scan.noise import colour_noise, quietened
from vision.scan.rectify import Rectified

PAPER = (200.0, 215.0, 225.0)
WELL = (70.0, 60.0, 55.0)
CHIP = (40.0, 50.0, 190.0)


def _palette(sigma: float, grain: float = 0.0, seed: int = 1) -> np.ndarray:
    """A 240 x 320 face: pale paper, a dark well and a red chip on it; noise of ``sigma`` in
    each channel on its own, and ``grain`` moving all three alike."""
    face = np.full((240, 320, 3), PAPER)
    face[60:180, 80:240] = WELL
    face[100:140, 140:180] = CHIP
    rng = np.random.default_rng(seed)
    face += rng.normal(0.0, sigma, face.shape)
    face += rng.normal(0.0, grain, face.shape[:2])[:, :, None]
    return np.asarray(np.clip(face, 0, 255), np.uint8)


@pytest.mark.parametrize("sigma", [4.0, 8.0, 16.0])
def test_colour_noise_is_the_scatter_of_one_channel_less_another(sigma: float) -> None:
    # The difference of two channels scattered apart: sqrt(2) times either's scatter.
    assert colour_noise(_palette(sigma)) == pytest.approx(sigma * np.sqrt(2.0), rel=0.15)


def test_grain_that_moves_every_channel_alike_and_edges_are_not_colour_noise() -> None:
    assert colour_noise(_palette(0.0, grain=8.0)) < 0.6
    assert colour_noise(_palette(0.0)) < 0.1


def test_a_face_too_small_for_one_block_has_no_measurable_noise() -> None:
    assert colour_noise(_palette(8.0)[:5, :5]) == 0.0


def test_a_face_with_the_renders_own_grain_is_read_as_it_is() -> None:
    face = Rectified(_palette(0.0, grain=8.0), None, 2.5)
    assert quietened(face) is face


def test_colour_noise_is_taken_out_keeping_colours_and_brightness_edges() -> None:
    noisy = _palette(12.0)
    seen = np.ones(noisy.shape[:2], bool)
    quiet = quietened(Rectified(noisy, seen, 2.5), 1.0)
    assert colour_noise(quiet.image) <= 1.0 < colour_noise(noisy)
    assert quiet.seen_mask is seen and quiet.ppm == 2.5
    # The chip's middle keeps its colour.
    chip = quiet.image[110:130, 150:170].reshape(-1, 3).mean(axis=0)
    assert np.abs(chip - CHIP).max() < 4.0
    # Brightness is untouched: the well's edge against the paper is as sharp as it was (the
    # paper's grey level one pixel outside the well, the well's one pixel inside).
    grey = quiet.image.astype(np.float32).mean(axis=2)
    column = grey[60:180, 78:82].mean(axis=0)
    assert column[1] - column[2] > 0.9 * (np.mean(PAPER) - np.mean(WELL))
