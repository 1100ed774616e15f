"""Perturbation families: deterministic per seed, the photo's shape and type kept, and each does
what its name says."""

from __future__ import annotations

import numpy as np
import pytest

from companion.colour import srgb_to_linear
from vision.images import Image
from vision.perturb import (
    FAMILIES,
    colour_cast,
    exposure,
    focus_blur,
    jpeg,
    motion_blur,
    sensor_noise,
    small_frame,
    two_colour_light,
)


def photo(seed: int = 0) -> Image:
    """A textured 1920x1080 photo: smooth gradients with a few sharp edges."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:1080, 0:1920]
    image = np.stack([x % 256, y % 256, (x + y) // 12 % 256], axis=-1).astype(np.uint8)
    for _ in range(20):
        r, c = rng.integers(0, 1000), rng.integers(0, 1800)
        image[r : r + 60, c : c + 90] = rng.integers(0, 256, 3)
    return image


def flat(level: int = 128) -> Image:
    return np.full((200, 300, 3), level, np.uint8)


@pytest.mark.parametrize("name", [name for name, f in FAMILIES.items() if f.apply])
def test_each_family_is_deterministic_per_seed_and_keeps_the_type(name: str) -> None:
    apply = FAMILIES[name].apply
    assert apply is not None
    image = photo()
    before = image.copy()
    first, again = apply(image, 5), apply(image, 5)
    assert np.array_equal(first, again)
    assert np.array_equal(image, before)  # the photo given is left as it was
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    if not name.endswith(("x720", "x540")):
        assert first.shape == image.shape
    assert not np.array_equal(first, image)


def test_seeded_families_differ_between_seeds() -> None:
    image = photo()
    for operation in (sensor_noise, motion_blur, two_colour_light):
        assert any(
            not np.array_equal(operation(image, 1), operation(image, seed)) for seed in (2, 3, 4)
        ), operation.__name__


def test_noise_raises_the_spread_of_a_flat_patch_to_about_12_levels() -> None:
    noisy = sensor_noise(flat(128), 7).astype(np.float64)
    assert abs(noisy.mean() - 128) < 0.5
    assert 11.8 < noisy.std() < 12.8  # 12 read noise, a little shot noise on top


def test_one_ev_doubles_linear_light_before_clipping_and_minus_one_halves_it() -> None:
    levels = np.arange(0, 256, dtype=np.uint8).reshape(1, -1, 1).repeat(3, axis=2)
    linear = srgb_to_linear(levels)
    brighter = srgb_to_linear(exposure(levels, 0, ev=1.0))
    darker = srgb_to_linear(exposure(levels, 0, ev=-1.0))
    unclipped = linear < 0.45
    # One 8-bit level of rounding, in linear light, is the tolerance.
    assert np.allclose(brighter[unclipped], 2 * linear[unclipped], rtol=0.02, atol=0.002)
    assert np.all(brighter[linear > 0.5] == 1.0)  # clipped, as a sensor clips
    assert np.allclose(darker, linear / 2, rtol=0.02, atol=0.002)


def test_a_cast_tints_every_pixel_alike_warm_or_cool() -> None:
    tints = set()
    for seed in range(8):
        cast = colour_cast(flat(), seed).astype(int)
        assert (cast == cast[0, 0]).all()
        blue, green, red = cast[0, 0]
        assert green == 128 and blue != red
        tints.add("warm" if red > blue else "cool")
    assert tints == {"warm", "cool"}


def test_two_colour_light_is_warm_on_one_side_and_cool_on_the_other() -> None:
    lit = two_colour_light(flat(), 3).astype(int)
    redness = lit[..., 2] - lit[..., 0]
    assert redness.max() > 20 and redness.min() < -20
    # Smooth: neighbouring pixels differ by a level or so, never a step.
    assert np.abs(np.diff(redness, axis=1)).max() <= 2
    assert np.abs(np.diff(redness, axis=0)).max() <= 2


def test_blurs_keep_the_mean_and_soften_an_edge() -> None:
    edge = np.zeros((100, 100, 3), np.uint8)
    edge[:, 50:] = 200
    for blurred in (focus_blur(edge, 0), motion_blur(edge, 1), motion_blur(edge, 2)):
        assert abs(blurred.mean() - edge.mean()) < 1.0
        assert np.abs(np.diff(blurred[50, :, 0].astype(int))).max() < 200


def test_motion_blur_streaks_6_to_8_px() -> None:
    dot = np.zeros((41, 41, 3), np.uint8)
    dot[20, 20] = 255
    for seed in range(10):
        streak = motion_blur(dot, seed)[..., 0] > 0
        rows, cols = np.nonzero(streak)
        extent = np.hypot(rows.max() - rows.min(), cols.max() - cols.min())
        assert 5 <= extent <= 10, (seed, extent)


def test_jpeg_changes_the_bytes_but_keeps_the_mean() -> None:
    image = photo()
    saved = jpeg(image, 0)
    assert not np.array_equal(saved, image)
    assert abs(saved.astype(float).mean() - image.astype(float).mean()) < 1.0


@pytest.mark.parametrize("size", [(1280, 720), (960, 540)])
def test_small_frames_have_the_size_asked_for(size: tuple[int, int]) -> None:
    image = photo()
    small = small_frame(image, 0, size)
    assert small.shape == (size[1], size[0], 3)
    assert abs(small.astype(float).mean() - image.astype(float).mean()) < 1.0
    apply = FAMILIES[f"size:{size[0]}x{size[1]}"].apply
    assert apply is not None and apply(image, 0).shape == small.shape
