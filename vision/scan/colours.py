"""Colour classification in CIELAB with an explicit reject threshold, shared by every reader.

Pixels are taken to CIELAB by OpenCV, several times faster than the formulas of
``companion.colour``, which it approximates by tables: the readers' thresholds were measured on
its values.

A board's white (the quiet ring printed around each marker) is measured first and the photo's
colours are scaled so that it reads white again: a von Kries white balance that undoes a warm lamp
or a cold window before any colour is compared with the inks Atelier printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.colour import CLIPPED, ColourCorrection
from vision.layout.inks import RGB

Lab = NDArray[np.float32]
WHITE = 245.0  # the level a board's white is balanced to
# OpenCV's 8-bit CIELAB: L* scaled to 0..255, a* and b* offset by 128.
LAB_SCALE = np.array([100.0 / 255.0, 1.0, 1.0], np.float32)
LAB_OFFSET = np.array([0.0, 128.0, 128.0], np.float32)


def to_lab(bgr: NDArray[np.uint8] | NDArray[np.float32]) -> Lab:
    """BGR pixels (N x 3, 0..255) to CIELAB (L 0..100) under D65."""
    pixels = np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0
    return np.asarray(cv2.cvtColor(np.clip(pixels, 0, 1), cv2.COLOR_BGR2Lab), np.float32).reshape(
        -1, 3
    )


def rgb_to_lab(rgb: RGB) -> Lab:
    r, g, b = rgb
    lab: Lab = to_lab(np.array([[b, g, r]], np.float32))[0]
    return lab


def lab_8bit(bgr: NDArray[np.float32]) -> Lab:
    """BGR levels (N x 3, 0..255) to CIELAB, through 8 bits: OpenCV converts those by table,
    several times faster, and half a level is far below any difference read here."""
    levels = np.clip(np.rint(bgr), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(levels, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    return np.asarray(lab * LAB_SCALE - LAB_OFFSET, np.float32)


def channel_sum(pixels: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each pixel's channels (N x 3) summed, in the order ``sum(axis=1)`` adds them, so to the
    same bit: numpy reduces so short an axis several times slower than it adds three columns."""
    return np.asarray(pixels[:, 0] + pixels[:, 1] + pixels[:, 2])


def channel_max(pixels: NDArray[Any]) -> NDArray[Any]:
    """Each pixel's brightest channel (N x 3), as ``max(axis=1)``, several times faster."""
    return np.asarray(np.maximum(np.maximum(pixels[:, 0], pixels[:, 1]), pixels[:, 2]))


def column_median(samples: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each column's median (of an even count, the mean of the two middle values), as
    ``np.median`` gives it, by one partial sort: several times cheaper on a few hundred rows."""
    lower, upper = (len(samples) - 1) // 2, len(samples) // 2
    ordered = np.partition(samples, sorted({lower, upper}), axis=0)
    return np.asarray((ordered[lower] + ordered[upper]) / 2, samples.dtype)


def median_at_least(samples: NDArray[np.uint8], level: float) -> NDArray[np.bool_]:
    """Per column of ``samples`` (at least one row), whether its median (of an even count, the
    mean of the two middle values) is at least ``level``: by a partial sort, as the full median
    costs several times more."""
    lower, upper = (len(samples) - 1) // 2, len(samples) // 2
    ordered = np.partition(samples, sorted({lower, upper}), axis=0)
    return np.asarray((ordered[lower].astype(np.float64) + ordered[upper]) / 2 >= level)


@dataclass(frozen=True)
class WhiteBalance:
    """A colour correction from calibration (if any), then per-channel gains (B, G, R) that make
    the board's white read as white. Light falls unevenly across a table, so the gains follow it:
    each white measured at a point (a marker's ring) pulls the gains near it, weighted by inverse
    squared distance, so they never leave the range of what was measured."""

    whites: tuple[tuple[float, float, tuple[float, float, float]], ...] = ()  # x, y mm, gains
    correction: ColourCorrection | None = None

    @staticmethod
    def white_of(
        pixels: NDArray[np.uint8], correction: ColourCorrection | None
    ) -> NDArray[np.float32] | None:
        """The mean white of a patch of white paper (None when too little was seen)."""
        if len(pixels) < 10:
            return None
        # The brightest half: black marker cells bleeding into the ring must not count.
        brightness = channel_sum(pixels.astype(np.float32))
        # At least the median: the sums are whole numbers and none lies between the two middle
        # ones, so that is at least the upper middle one.
        middle = len(brightness) // 2
        upper = np.flatnonzero(brightness >= np.partition(brightness, middle)[middle])
        bright = np.take(pixels, upper, axis=0)  # as pixels[...], several times faster
        corrected = correction.apply_bgr(bright) if correction else bright.astype(np.float32)
        white = corrected.mean(axis=0)
        clipped = median_at_least(bright, CLIPPED)
        if clipped.any():
            # A channel the sensor clipped is only known to be at least as bright as it reads.
            # Once calibration has taken the light's colour out, the paper is as bright there
            # as in the channels it did not clip; else it is taken as white. (A calibrated
            # overexposed photo reads a clipped white dark: balanced up to white, every colour
            # would blow out again, or turn the hue of the channels not clipped.)
            measured = white[~clipped]
            level = float(measured.max()) if correction and len(measured) else WHITE
            white = np.where(clipped, np.maximum(white, level), white)
        return np.asarray(np.maximum(white, 1.0), np.float32)

    @staticmethod
    def from_whites(
        whites: list[tuple[float, float, NDArray[np.float32]]],
        correction: ColourCorrection | None = None,
    ) -> WhiteBalance:
        points = tuple(
            (x, y, (float(WHITE / w[0]), float(WHITE / w[1]), float(WHITE / w[2])))
            for x, y, w in whites
        )
        return WhiteBalance(points, correction)

    def gains_at(self, x: float, y: float) -> NDArray[np.float32]:
        if not self.whites:
            return np.ones(3, np.float32)
        # Softened by 25 mm so that a point beside one marker is not ruled by it alone.
        weights = np.array(
            [1.0 / ((x - wx) ** 2 + (y - wy) ** 2 + 625.0) for wx, wy, _ in self.whites]
        )
        gains = np.array([g for _, _, g in self.whites], np.float64)
        return np.asarray(weights @ gains / weights.sum(), np.float32)

    def apply(
        self, pixels: NDArray[np.uint8], at: tuple[float, float] = (0.0, 0.0)
    ) -> NDArray[np.float32]:
        """Correct pixels lying around ``at`` (mm on the board)."""
        return np.asarray(np.clip(self.balanced(pixels, at), 0, 255), np.float32)

    def balanced(
        self, pixels: NDArray[np.uint8], at: tuple[float, float] = (0.0, 0.0)
    ) -> NDArray[np.float32]:
        """Like ``apply``, but beyond 255 where the gains take a colour there."""
        base = self.correction.apply_bgr(pixels) if self.correction else pixels.astype(np.float32)
        return np.asarray(base * self.gains_at(*at), np.float32)


@dataclass(frozen=True)
class ColourMatch:
    name: str | None  # None: no reference within the reject threshold
    nearest: str | None  # the closest reference, accepted or not
    delta_e: float  # distance to the closest reference
    runner_up: str | None
    margin: float  # how much further the second closest is (a confidence)

    def to_json(self) -> dict[str, object]:
        return {
            "color": self.name,
            "delta_e": round(self.delta_e, 2),
            "runner_up": self.runner_up,
            "margin": round(self.margin, 2),
        }


class ColourClassifier:
    """Names colours by the nearest reference in CIELAB (Delta E 1976), or rejects them."""

    def __init__(self, references: Mapping[str, RGB], reject_delta_e: float) -> None:
        self.names = tuple(references)
        self.reject_delta_e = reject_delta_e
        self._lab = np.stack([rgb_to_lab(rgb) for rgb in references.values()])

    def distances(self, lab: Lab) -> NDArray[np.float32]:
        """N x references Delta E."""
        diff = lab[:, None, :] - self._lab[None, :, :]
        return np.asarray(np.sqrt((diff * diff).sum(axis=2)), np.float32)

    def classify(self, pixels: NDArray[np.float32] | NDArray[np.uint8]) -> ColourMatch:
        """The colour of a patch: its median in Lab against the references."""
        if len(pixels) == 0:
            return ColourMatch(None, None, float("inf"), None, 0.0)
        lab = np.median(to_lab(pixels), axis=0, keepdims=True).astype(np.float32)
        d = self.distances(lab)[0]
        order = np.argsort(d)
        best, second = int(order[0]), int(order[1]) if len(order) > 1 else int(order[0])
        name = self.names[best] if d[best] <= self.reject_delta_e else None
        return ColourMatch(
            name, self.names[best], float(d[best]), self.names[second], float(d[second] - d[best])
        )


def subset(references: Mapping[str, RGB], names: Sequence[str]) -> dict[str, RGB]:
    return {name: references[name] for name in names}
