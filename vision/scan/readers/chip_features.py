"""What is measured of a Pigment Lab slot before its chip is decided: the features of the fitted
chip model (``vision.fitted``).

Each is a physical measurement against the slot's own surroundings, the dark well of its pan,
which lies in the same light: how much of the well around shows, whether the middle is one colour
and one light, whether its colour reaches past the ring, how it differs from the well in hue and
lightness, how far it lies from each printed chip ink taken as bright as the light allows, and
what the sensor clipped. None of them decides anything: the model does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration.colour import CLIPPED
from companion.colour import lightness_to_y, linear_to_srgb
from vision.layout.inks import INKS
from vision.scan.colours import channel_max, channel_sum, median_at_least, rgb_to_lab, to_lab
from vision.scan.readers.pigments_pixels import (
    LUMA_BGR,
    Floats,
    Lab,
    bgr_linear,
    linear_light,
    median,
    share,
    take_rows,
)

CHIPS = ("Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder")
TIO2 = CHIPS.index("TiO2")

# The well shows where a pixel is of its hue (within WELL_AB in a*, b*) and dark (at most
# WELL_MAX_L, or as light as the pan's own well-coloured pixels allow).
WELL_AB = (8.0, 10.0)
WELL_MAX_L = 65.0
# One colour: a pixel within CHROMA_REACH (linear chromaticity, which a shadow leaves alone) of
# the middle's median. One light: the middle's brighter against its darker pixels (percentiles).
CHROMA_REACH = 0.05
LIGHT_SPREAD = (10.0, 90.0)
# The chip's colour on the well around: pixels within BLEED_DELTA_E of the middle's median that
# are not well-coloured; "inner" counts only those at least RIM_MM inside the well's edge, which
# the pan's pale rim does not reach.
BLEED_DELTA_E = 12.0
# A chip's brightness against its well's: shadows, highlights and blur keep it within this factor
# range of what the well's brightness predicts; the chip may lie in the light of any part of the
# well around (the LIT_RANGE percentiles of its well-coloured pixels).
RELATIVE_LIGHT = (0.37, 1.8)
LIT_RANGE = (10.0, 90.0)
# A clipped chip is at most BRIGHTEST_CHIP times as bright as the best-lit part of the well
# predicts: its LIT_RANGE top.
BRIGHTEST_CHIP = 1.3
# Distances (Delta E) and log ratios beyond these say no more than these do.
FAR = 60.0
LOG_REACH = 4.0

FEATURES = (
    "well_shows",
    "one_colour",
    "light_spread",
    "bleed",
    "bleed_inner",
    "hue_from_well",
    "light_from_well",
    "hue_from_around",
    "light_from_around",
    # How far in light either way: the empty well is told by a band about 0, which no line in
    # the signed ratio draws.
    "light_apart_well",
    "light_apart_around",
    "lightness",
    "titanium",
    "clipped",
    "beyond_white",
    *(f"distance {chip}" for chip in CHIPS),
)

# How exposed the slot is, not how it differs from its well or the inks: the other features are
# measured relative to the light so that exposure does not move them, and a chip is not unlike its
# kind for being lit brighter than any the model was fitted on (docs/scanning.md).
EXPOSURE = ("lightness", "clipped", "beyond_white")
COMPARED = tuple(k for k, name in enumerate(FEATURES) if name not in EXPOSURE)


@dataclass(frozen=True)
class SlotView:
    """A slot's pixels, white-balanced: its middle (Lab and BGR), and the well around its ring."""

    centre: Lab
    centre_bgr: NDArray[np.float32]
    around: Lab
    inner: NDArray[np.bool_]  # which of ``around`` lie at least RIM_MM inside the well's edge
    # The middle as the sensor gave it, and balanced beyond 255 where it is so.
    centre_raw: NDArray[np.uint8]
    centre_balanced: NDArray[np.float32]


@dataclass(frozen=True)
class WellLook:
    """A pan's well as this photo shows it: its a*b*, and how light (L*) a pixel of that hue
    may be and still be the well showing."""

    hue: Floats
    lightest: float


@dataclass(frozen=True)
class SlotFeatures:
    """A slot's measurements, in FEATURES' order."""

    values: tuple[float, ...]

    def vector(self) -> NDArray[np.float64]:
        return np.asarray(self.values, np.float64)

    def named(self) -> dict[str, float]:
        return dict(zip(FEATURES, self.values, strict=True))


class ChipMeasure:
    """Measures slots against the printed chip inks and the well's, worked out once."""

    def __init__(self) -> None:
        self.well = rgb_to_lab(INKS["well"])
        self.well_luminance = lightness_to_y(float(self.well[0]))
        self.inks = np.stack([bgr_linear(chip) for chip in CHIPS])
        self.ink_luminance = self.inks @ LUMA_BGR

    def measure(self, view: SlotView, look: WellLook) -> SlotFeatures:
        """Every feature of a slot with pixels in its middle and around it."""
        shows = well_coloured(view.around, look.hue, look.lightest)
        well = shows & (view.around[:, 0] <= WELL_MAX_L)
        middle, around = median(view.centre), median(view.around)
        # The well-coloured part of the well around, or all of it when none is.
        shown = take_rows(view.around, np.flatnonzero(well)) if well.any() else view.around
        well_middle = median(shown)
        hue_well, light_well = difference(middle, well_middle)
        hue_around, light_around = difference(middle, around)
        bleed = (np.sqrt(channel_sum((view.around - middle) ** 2)) <= BLEED_DELTA_E) & ~well
        inner = bleed[view.inner]
        dark, lit = (
            lightness_to_y(float(q)) for q in np.percentile(view.centre[:, 0], LIGHT_SPREAD)
        )
        darker, brighter = (float(q) for q in np.percentile(shown[:, 0], LIT_RANGE))
        clipped = median_at_least(view.centre_raw, CLIPPED)
        bright = median(view.centre_balanced)
        at_limit = bool(clipped.any() or bright.max() > 255.0)
        if at_limit:
            distances = self.clipped_distances(bright, clipped, around, brighter)
        else:
            distances = self.distances(middle, around, (darker, brighter))
        local = lightness_to_y(float(around[0])) / self.well_luminance
        titanium = lightness_to_y(float(middle[0])) / (self.ink_luminance[TIO2] * local)
        values = (
            share(shows),
            one_colour(view.centre_bgr),
            _log(lit / max(dark, 1e-6)),
            share(bleed),
            share(inner) if len(inner) else share(bleed),
            hue_well,
            light_well,
            hue_around,
            light_around,
            abs(light_well),
            abs(light_around),
            float(middle[0]),
            _log(titanium),
            float(np.count_nonzero(clipped)),
            min(float(bright.max()) / 255.0, 2.0),
            *(min(float(d), FAR) for d in distances),
        )
        return SlotFeatures(tuple(float(v) for v in values))

    def distances(self, middle: Lab, around: Lab, lit: tuple[float, float]) -> Floats:
        """Delta E from the middle to each chip ink, the ink taken as bright as the middle as far
        as the light on the well around allows (``lit``: the L* of its darker and brighter
        well-coloured parts)."""
        local = lightness_to_y(float(around[0])) / self.well_luminance
        darker, brighter = (lightness_to_y(v) / self.well_luminance for v in lit)
        seen = lightness_to_y(float(middle[0]))
        low, high = RELATIVE_LIGHT
        scale = np.clip(
            seen / self.ink_luminance, min(local, darker) * low, max(local, brighter) * high
        )
        expected = to_lab(np.asarray(linear_to_srgb(self.inks * scale[:, None]), np.float32))
        return np.asarray(np.sqrt(((expected - middle) ** 2).sum(axis=1)), np.float64)

    def clipped_distances(
        self, bgr: NDArray[np.float32], clipped: NDArray[np.bool_], around: Lab, top: float
    ) -> Floats:
        """Delta E from a middle clipped in some channels to each chip ink at a brightness the
        well around allows that reaches the clipped level in each clipped channel; FAR for an ink
        that could not be that bright."""
        seen = linear_light(bgr)
        low = lightness_to_y(float(around[0])) / self.well_luminance * RELATIVE_LIGHT[0]
        high = lightness_to_y(top) / self.well_luminance * BRIGHTEST_CHIP
        # The least brightness at which each ink is clipped wherever the middle is.
        reach = np.where(clipped, seen / self.inks, 0.0).max(axis=1)
        free = ~clipped
        fit = (self.inks[:, free] @ seen[free]) / np.maximum(
            (self.inks[:, free] ** 2).sum(axis=1), 1e-9
        )
        scale = np.clip(np.maximum(fit, reach), low, high)
        expected = np.where(clipped, seen, self.inks * scale[:, None])
        # Compared as if a little less exposed where the balance takes the middle beyond white.
        down = max(1.0, float(seen.max()))
        lab = to_lab(np.asarray(linear_to_srgb(np.vstack([expected, seen]) / down), np.float32))
        middle, lab = lab[-1], lab[:-1]
        distance = np.asarray(np.sqrt(((lab - middle) ** 2).sum(axis=1)), np.float64)
        distance[reach > high] = FAR
        return distance


def well_coloured(lab: Lab, hue: Floats, lightest: float = WELL_MAX_L) -> NDArray[np.bool_]:
    """Which of ``lab`` are well-coloured: dark (L* at most ``lightest``), and of the wells'
    hue."""
    a_reach, b_reach = WELL_AB
    return np.asarray(
        (np.abs(lab[:, 1] - hue[0]) <= a_reach)
        & (np.abs(lab[:, 2] - hue[1]) <= b_reach)
        & (lab[:, 0] <= lightest)
    )


def difference(colour: Lab, reference: Lab) -> tuple[float, float]:
    """How far ``colour`` lies from ``reference`` in hue (a*b* distance) and in lightness (the
    log of their luminances' ratio, within LOG_REACH)."""
    apart = float(np.hypot(colour[1] - reference[1], colour[2] - reference[2]))
    ratio = lightness_to_y(float(colour[0])) / max(lightness_to_y(float(reference[0])), 1e-6)
    return apart, _log(ratio)


def one_colour(bgr: NDArray[np.float32]) -> float:
    """The share of pixels whose chromaticity (linear light) is that of their median."""
    linear = linear_light(bgr)
    chroma = np.asarray(linear / np.maximum(channel_sum(linear), 1e-3)[:, None], np.float32)
    spread = channel_max(np.abs(chroma - median(chroma)))
    return share(spread <= CHROMA_REACH)


def _log(ratio: float) -> float:
    return float(np.clip(math.log(max(ratio, 1e-12)), -LOG_REACH, LOG_REACH))
