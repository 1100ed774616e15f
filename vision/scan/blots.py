"""Markers smeared past any outline: the dark grey blots they leave on the paper around them.

Under 18 px of motion blur and more, neither the marker search nor a whole-frame search for
outlines traces a marker, yet each still shows as a blot much darker than the white paper next
to it, and about as grey. At half size, with the frame white-balanced on its brightest pixels,
the pixels under DARK_SHARE of the brightest within a marker's reach, where that brightest is
paper-white, and whose palest channel is near their brightest (grey), are joined into blots; a
blot is kept when it is marker-sized and has bright paper around it. Wood grain and cloth are
never that much darker than their own brightest; the table beside a sheet may be, but is
coloured, as are a hand, a cup and its coffee. A smear along one axis leaves a square's side
across it, so a blot's narrower axis measures its marker's side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

SCALE = 0.5  # averaging four pixels into one smooths grain and sensor noise, and is 4x cheaper
# Measured on hard renders of the train split (seeds 20000-20029, all four games) under motion
# blur of 18-24 px and the other perturbation families (docs/scanning.md):
REACH_PX = 48  # at half size: from a blot's middle to its paper, for markers up to ~100 px wide
WHITE_SHARE = 0.005  # the brightest half percent of the frame is its white
# A blurred marker's middle is under 0.6 of its paper in half the markers at 20 px of blur; the
# table beside a sheet is too, but coloured, where a marker's blot is grey (its pixels' palest
# channel within 0.2 of the brightest for 95 % of them, the tables' 0.5 to 0.65).
DARK_SHARE = 0.6
GREY_PX = 0.3
PAPER_SHARE = 0.8  # the paper within reach is this bright beside the frame's brightest
GREY = 0.5  # a blot's pixels on average
# A blot's side at half size: 5 px is 10 px of photo, the outlines' own least side
# (``vision.scan.unreadable``); a blot longer than 60 px is no marker of a board in view.
MIN_SIDE_PX = 5.0
MAX_SIDE_PX = 60.0
MAX_ELONGATION = 3.0
MIN_FILL = 0.3  # of its bounding box: a smeared square fills it, a streak along a diagonal not
# Corner markers have the table on two sides: a fifth of what is around a blot, not dark, is
# bright paper at least (a blot on the table has none).
SURROUND_SHARE = 0.2
# Lone blots: over-exposed (+1.5 EV) train renders showed a vignetted frame corner or a pale
# table's shadow as one; no group of two was ever away from a board.
MIN_BLOTS = 2


@dataclass(frozen=True)
class Blot:
    """A smeared marker: its middle and its side, in photo px."""

    centre: tuple[float, float]
    side_px: float

    def square(self) -> NDArray[np.float64]:
        """The marker's outline as an upright square of its side (4 x 2, photo px)."""
        half = self.side_px / 2
        x, y = self.centre
        return np.array(
            [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]
        )


def blots(image: NDArray[np.uint8]) -> tuple[Blot, ...]:
    """The marker-like blots of ``image`` (BGR or grey), in photo px."""
    small = cv2.resize(image, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
    channels = [np.asarray(c, np.uint8) for c in cv2.split(small)]
    brightest = _extreme(channels, cv2.max)
    # The frame's white: the mean colour of its brightest pixels (paper, where a board is).
    histogram = np.bincount(brightest.ravel(), minlength=256)
    level = int(np.searchsorted(np.cumsum(histogram), (1 - WHITE_SHARE) * brightest.size))
    lit = (brightest >= level).astype(np.uint8)
    white = [max(cv2.mean(c, mask=lit)[0], 1.0) for c in channels]
    balanced = [
        np.asarray(cv2.convertScaleAbs(c, alpha=float(np.mean(white)) / w), np.uint8)
        for c, w in zip(channels, white, strict=True)
    ]
    value, least = _extreme(balanced, cv2.max), _extreme(balanced, cv2.min)
    top = int(value.max())
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (REACH_PX, REACH_PX))
    paper = cv2.dilate(value, kernel)
    bright = value >= PAPER_SHARE * top
    dark = (
        (value < cv2.convertScaleAbs(paper, alpha=DARK_SHARE))
        & (paper >= PAPER_SHARE * top)
        & (cv2.convertScaleAbs(value, alpha=1 - GREY_PX) <= least)
    )
    # Labelled only within the dark pixels' box: on a table without paper it is small or empty.
    x0, y0, width, height = cv2.boundingRect(dark.astype(np.uint8))
    if width == 0:
        return ()
    box = dark[y0 : y0 + height, x0 : x0 + width]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(box.astype(np.uint8), connectivity=8)
    stats[:, cv2.CC_STAT_LEFT] += x0
    stats[:, cv2.CC_STAT_TOP] += y0
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    at = np.flatnonzero(box)
    label = labels.ravel()[at]
    ys, xs = np.divmod(at, width)
    xs, ys = (xs + x0).astype(np.float64), (ys + y0).astype(np.float64)

    def mean(values: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.bincount(label, values, count) / np.maximum(area, 1)

    mx, my = mean(xs), mean(ys)
    vxx, vyy, vxy = mean(xs * xs) - mx**2, mean(ys * ys) - my**2, mean(xs * ys) - mx * my
    spread = np.sqrt(np.maximum(((vxx - vyy) / 2) ** 2 + vxy**2, 0.0))
    # A filled square of side s has variance s^2 / 12 along every axis.
    minor = np.sqrt(12 * np.maximum((vxx + vyy) / 2 - spread, 0.0))
    major = np.sqrt(12 * np.maximum((vxx + vyy) / 2 + spread, 0.0))
    v = value[y0 : y0 + height, x0 : x0 + width].ravel()[at].astype(np.float64)
    grey = mean(1.0 - least[y0 : y0 + height, x0 : x0 + width].ravel()[at] / np.maximum(v, 1.0))
    w, h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    shaped = (
        (np.arange(count) > 0)
        & (minor >= MIN_SIDE_PX)
        & (major <= MAX_SIDE_PX)
        & (major <= MAX_ELONGATION * minor)
        & (area >= MIN_FILL * w * h)
        & (grey < GREY)
    )
    return tuple(
        Blot(((mx[k] + 0.5) / SCALE - 0.5, (my[k] + 0.5) / SCALE - 0.5), minor[k] / SCALE)
        for k in np.flatnonzero(shaped)
        if _bright_around(bright, dark, stats[k]) >= SURROUND_SHARE
    )


def _extreme(channels: Sequence[NDArray[np.uint8]], pick: Callable[..., Any]) -> NDArray[np.uint8]:
    """Each pixel's brightest (``cv2.max``) or darkest (``cv2.min``) channel."""
    out = channels[0]
    for c in channels[1:]:
        out = pick(out, c)
    return np.asarray(out, np.uint8)


def _bright_around(
    bright: NDArray[np.bool_], dark: NDArray[np.bool_], box: NDArray[np.int32]
) -> float:
    """The share of the pixels around a component's ``box`` (x, y, w, h; as wide again, half of
    it each way), not dark, that are bright."""
    x, y, w, h = (int(v) for v in box[:4])
    around = (slice(max(y - h // 2, 0), y + h + h // 2), slice(max(x - w // 2, 0), x + w + w // 2))
    clear = int(np.count_nonzero(~dark[around]))
    return int(np.count_nonzero(bright[around])) / max(clear, 1)
