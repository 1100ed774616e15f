"""The pencils a player colours an Isle sheet with: the printed inks, or a set of their own.

Real players use whatever pencils they own, so a "varied" set moves each colour away from its
printed ink in CIELAB (hue, chroma and lightness, independently) and presses a little harder or
softer than the hand's tool alone would.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from companion.colour import D65, XYZ_TO_RGB, linear_to_srgb, srgb_to_lab
from companion.games.isle.model import Colour
from vision.layout.inks import INKS, RGB

SPREADS = ("printed", "varied")
HUE_SD_DEG, HUE_MAX_DEG = 12.0, 25.0
CHROMA_SCALE = (0.7, 1.2)
LIGHTNESS_SD, LIGHTNESS_MAX = 5.0, 10.0
PRESSURE_SCALE = (0.8, 1.1)
_DELTA = 6 / 29  # where CIELAB's cube root turns linear


@dataclass(frozen=True)
class PencilSet:
    """Each colour's pencil as the sRGB tint it leaves, and how hard the player presses (a scale
    on the tool's pressure)."""

    tints: Mapping[str, RGB]
    pressure: float = 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "tints": {colour: list(tint) for colour, tint in self.tints.items()},
            "pressure": round(self.pressure, 3),
        }


PRINTED = PencilSet(MappingProxyType({c.value: INKS[c.value] for c in Colour}))


def lab_to_srgb(lab: tuple[float, float, float]) -> RGB:
    """A CIELAB colour to sRGB levels, clipped to the gamut channel by channel."""
    lightness, a, b = lab
    fy = (lightness + 16) / 116
    f = np.array([fy + a / 500, fy, fy - b / 200])
    xyz = np.where(f > _DELTA, f**3, 3 * _DELTA**2 * (f - 4 / 29)) * np.array(D65)
    levels = linear_to_srgb(np.array(XYZ_TO_RGB) @ xyz)
    r, g, b_ = (int(v) for v in np.round(levels))
    return (r, g, b_)


def _shifted(rgb: RGB, rng: np.random.Generator) -> RGB:
    lightness, a, b = srgb_to_lab(np.array([rgb], np.float64))[0]
    hue = math.atan2(b, a) + math.radians(
        float(np.clip(rng.normal(0.0, HUE_SD_DEG), -HUE_MAX_DEG, HUE_MAX_DEG))
    )
    chroma = math.hypot(a, b) * float(rng.uniform(*CHROMA_SCALE))
    lightness += float(np.clip(rng.normal(0.0, LIGHTNESS_SD), -LIGHTNESS_MAX, LIGHTNESS_MAX))
    return lab_to_srgb((lightness, chroma * math.cos(hue), chroma * math.sin(hue)))


def choose_pencils(spread: str, rng: np.random.Generator) -> PencilSet:
    """The printed inks, or ("varied") a player's own pencils, each colour drawn independently."""
    if spread == "printed":
        return PRINTED
    if spread != "varied":
        raise ValueError(f"pencils {spread!r}: expected one of {SPREADS}")
    tints = {colour: _shifted(tint, rng) for colour, tint in PRINTED.tints.items()}
    return PencilSet(MappingProxyType(tints), float(rng.uniform(*PRESSURE_SCALE)))
