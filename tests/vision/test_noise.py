"""The sensor's noise measured on a rectified face, and the face quietened to a reader's."""

from __future__ import annotations

import numpy as np
import pytest

from vision.scan.noise import noise_level, quietened
from vision.scan.rectify import Rectified


def _sheet(sigma: float, seed: int = 1) -> np.ndarray:
    """A 240 x 320 face: pale paper, a dark well and a red chip on it, plus sensor noise."""
    face = np.full((240, 320, 3), (200.0, 215.0, 225.0))
    face[60:180, 80:240] = (70.0, 60.0, 55.0)
    face[100:140, 140:180] = (40.0, 50.0, 190.0)
    rng = np.random.default_rng(seed)
    return np.clip(face + rng.normal(0.0, sigma, face.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("sigma", [4.0, 8.0, 16.0])
def test_the_noise_level_is_the_scatter_of_a_grey_pixel(sigma: float) -> None:
    # Measured on the grey mean of three channels, each scattered alike and apart.
    expected = sigma / np.sqrt(3.0)
    assert noise_level(_sheet(sigma)) == pytest.approx(expected, rel=0.15)


def test_edges_and_pieces_do_not_count_as_noise() -> None:
    assert noise_level(_sheet(0.0)) < 0.1


def test_a_face_too_small_for_one_block_has_no_measurable_noise() -> None:
    assert noise_level(_sheet(8.0)[:5, :5]) == 0.0


def test_a_quiet_face_is_read_as_it_is() -> None:
    face = Rectified(_sheet(0.5), None, 2.5)
    assert quietened(face, 0.7) is face


def test_a_noisy_face_is_blurred_down_to_the_readers_noise_keeping_its_colours() -> None:
    noisy = _sheet(12.0)
    seen = np.ones(noisy.shape[:2], bool)
    quiet = quietened(Rectified(noisy, seen, 2.5), 0.7)
    assert noise_level(quiet.image) <= 0.7 < noise_level(noisy)
    assert quiet.seen_mask is seen and quiet.ppm == 2.5
    # The chip's middle keeps its colour: only its outline softens.
    chip = quiet.image[110:130, 150:170].reshape(-1, 3).mean(axis=0)
    assert np.abs(chip - (40.0, 50.0, 190.0)).max() < 3.0
