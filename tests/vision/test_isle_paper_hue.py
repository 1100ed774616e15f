"""The Isle sheet's paper white under light of two colours: its hue turns across the sheet, and
the reader's white follows it, held at the sensor's limit where the paper clips."""

from __future__ import annotations

import numpy as np

from vision.scan.readers.isle import CLIPPED, paper_light, paper_map

SHAPE = (198, 267)


def sheet(
    blue: np.ndarray | float, green: np.ndarray | float, red: np.ndarray | float
) -> np.ndarray:
    """A bare sheet of these channels (each the sheet's shape, or one value all over), clipped
    as a sensor clips."""
    image = np.stack([np.broadcast_to(c, SHAPE) for c in (blue, green, red)], axis=2)
    return np.asarray(np.minimum(image, 255.0), np.float32)


def margin() -> np.ndarray:
    """A band 15 mm wide around the sheet."""
    band = np.ones(SHAPE, bool)
    band[15:-15, 15:-15] = False
    return band


def white_of(image: np.ndarray) -> np.ndarray:
    """The paper's white the reader measures at every pixel of a bare sheet."""
    clipped = image >= CLIPPED
    everywhere = np.ones(SHAPE, bool)
    light = paper_light(image, clipped, margin(), everywhere)
    assert light is not None
    paper = paper_map(image, clipped, everywhere, light, everywhere)
    assert paper is not None
    return paper.white


def across() -> np.ndarray:
    """-1 at the sheet's left side, 1 at its right, per pixel."""
    x = np.arange(SHAPE[1], dtype=np.float32)
    return np.broadcast_to(2.0 * x / (SHAPE[1] - 1) - 1.0, SHAPE)


def test_the_paper_white_follows_a_hue_that_turns_across_the_sheet() -> None:
    # A warm lamp on the right, a window on the left: red against blue turns from 0.8 to 1.25.
    blue = np.full(SHAPE, 180.0, np.float32)
    red = blue * np.exp(0.22 * across())
    image = sheet(blue, 1.2 * blue, red)
    white = white_of(image)
    hue = white[:, :, 2] / white[:, :, 0]
    truth = red / blue
    for column in (20, 133, 246):  # both sides and the middle, away from the margin
        assert abs(np.log(hue[99, column] / truth[99, column])) < 0.02


def test_a_hand_in_the_margin_does_not_turn_the_paper_hue() -> None:
    # A darker, warmer hand over a corner of the margin: the paper is of one hue all over.
    image = sheet(190.0, 228.0, 240.0)
    image[150:, :70] = (80.0, 120.0, 190.0)
    white = white_of(image)
    hue = white[:, :, 2] / white[:, :, 0]
    assert np.abs(np.log(hue[15:-15, 15:-15] * 190.0 / 240.0)).max() < 0.02


def test_where_the_paper_clips_a_channel_its_white_is_not_carried_there_from_elsewhere() -> None:
    # Red is below the limit on the left (1.15 times blue), and clipped on the right, where the
    # warmer light leaves blue darker (150): there red's white is only known to be at least the
    # limit, 1.65 times blue. That bound is the right side's: the left side's paper, white 1.15
    # times blue, must not be taken as 1.65 times (every bare cell there would read as blue).
    t = across()
    blue = 185.0 - 35.0 * t
    red = np.where(t < 0.0, 1.15 * blue, 1.15 * blue + 0.6 * blue * t)
    image = sheet(blue, 240.0, red)
    white = white_of(image)
    left, right = white[99, 25], white[99, 240]
    assert abs(np.log(left[2] / left[0] / 1.15)) < 0.05
    assert right[2] >= 0.97 * CLIPPED
