"""The pixel helpers the readers share give exactly what the plain numpy expressions give."""

from __future__ import annotations

import numpy as np

from vision.scan.colours import (
    WhiteBalance,
    channel_max,
    channel_sum,
    column_median,
    median_at_least,
)
from vision.scan.rectify import masked_pixels


def test_column_median_is_numpys_median_for_odd_and_even_counts() -> None:
    rng = np.random.default_rng(7)
    for rows in (1, 2, 5, 6, 481, 482):
        samples = (rng.random((rows, 3)) * 100).astype(np.float32)
        median = column_median(samples)
        assert median.dtype == np.float32
        assert np.array_equal(median, np.median(samples, axis=0))
    assert column_median(np.array([[1.0], [2.0], [4.0], [9.0]], np.float32)).tolist() == [3.0]


def test_a_median_at_the_level_counts_as_reaching_it() -> None:
    pairs = np.array([[249, 249, 240], [251, 250, 255]], np.uint8)  # medians 250, 249.5, 247.5
    assert median_at_least(pairs, 250.0).tolist() == [True, False, False]
    odd = np.array([[250, 0, 255], [0, 0, 255], [255, 250, 0]], np.uint8)  # 250, 0, 255
    assert median_at_least(odd, 250.0).tolist() == [True, False, True]


def test_channel_sums_and_maxima_match_numpys_to_the_bit() -> None:
    rng = np.random.default_rng(3)
    pixels = (rng.random((1000, 3)) * rng.random((1000, 1)) * 3).astype(np.float32)
    assert np.array_equal(channel_sum(pixels), pixels.sum(axis=1))
    assert np.array_equal(channel_max(pixels), pixels.max(axis=1))
    assert channel_max(np.array([[3, 9, 4], [7, 1, 2]], np.uint8)).tolist() == [9, 7]


def test_masked_pixels_are_the_masked_window_in_order() -> None:
    image = np.arange(5 * 6 * 3, dtype=np.uint8).reshape(5, 6, 3)
    window = image[1:4, 2:5]
    inside = np.array([[True, False, True], [False, False, False], [False, True, False]])
    assert np.array_equal(masked_pixels(window, inside), window[inside])
    assert masked_pixels(window, inside)[:, 0].tolist() == [24, 30, 63]


def test_a_rings_white_is_the_mean_of_its_brighter_half() -> None:
    ring = np.array([[100, 100, 100]] * 5 + [[200, 210, 220]] * 5, np.uint8)
    white = WhiteBalance.white_of(ring, None)
    assert white is not None
    assert white.tolist() == [200.0, 210.0, 220.0]
    # The median brightness itself counts as bright: an odd count with a tie at the middle.
    ring = np.array([[10, 10, 10]] * 4 + [[20, 20, 20]] * 6 + [[50, 50, 50]] * 3, np.uint8)
    white = WhiteBalance.white_of(ring, None)
    assert white is not None
    assert white.tolist() == [30.0, 30.0, 30.0]  # six at 20 and three at 50
