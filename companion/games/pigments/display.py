"""A display colour (sRGB) for a mix, derived from its surviving bands and its TiO2 share.

1. Each band is a stretch of the spectrum (nanometres below). A surviving band reflects fully,
   except where it borders a swallowed band: absorption has a shoulder, so such a band reflects
   ``SHOULDER`` of its light. This is what makes ultramarine read blue rather than cyan, and
   FeO(OH) ochre rather than lemon.
2. The reflected spectrum, under equal-energy light, is turned into CIE XYZ with the CIE 1931
   observer (the multi-lobe fit of Wyman, Sloan and Shirley, 2013), scaled so that a mix that
   reflects every band is the sRGB white, and converted to linear sRGB.
3. Colours outside the sRGB gamut are pulled towards the grey of the same luminance until no
   channel is negative; channels above 1 are clipped.
4. TiO2 moves the colour towards white in linear light by ``WHITENING`` times its share.
   Every channel rises with the share, so the lightness (CIE L*) does too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.colour import D65, XYZ_TO_RGB, Vector, encode, linear_rgb_to_y, y_to_lightness
from companion.games.pigments.colour import Colour
from companion.games.pigments.model import BANDS, Band

# Where each band lies in the spectrum, nanometres [from, to).
SPECTRUM: Mapping[Band, tuple[int, int]] = MappingProxyType(
    {
        Band.VIOLET: (380, 450),
        Band.BLUE: (450, 495),
        Band.GREEN: (495, 570),
        Band.YELLOW: (570, 590),
        Band.ORANGE: (590, 620),
        Band.RED: (620, 750),
    }
)
SHOULDER = 0.3
WHITENING = 0.6


def _lobe(x: float, mu: float, below: float, above: float) -> float:
    sigma = below if x < mu else above
    return math.exp(-0.5 * ((x - mu) / sigma) ** 2)


def observer(nm: float) -> Vector:
    """The CIE 1931 colour matching functions at one wavelength (analytic fit)."""
    x = (
        1.056 * _lobe(nm, 599.8, 37.9, 31.0)
        + 0.362 * _lobe(nm, 442.0, 16.0, 26.7)
        - 0.065 * _lobe(nm, 501.1, 20.4, 26.2)
    )
    y = 0.821 * _lobe(nm, 568.8, 46.9, 40.5) + 0.286 * _lobe(nm, 530.9, 16.3, 31.1)
    z = 1.217 * _lobe(nm, 437.0, 11.8, 36.0) + 0.681 * _lobe(nm, 459.0, 26.0, 13.8)
    return (x, y, z)


def band_xyz(band: Band) -> Vector:
    """XYZ of one band reflected in full under equal-energy light (1 nm steps)."""
    lo, hi = SPECTRUM[band]
    samples = [observer(nm + 0.5) for nm in range(lo, hi)]
    return (
        sum(s[0] for s in samples),
        sum(s[1] for s in samples),
        sum(s[2] for s in samples),
    )


_BAND_XYZ: Mapping[Band, Vector] = MappingProxyType({band: band_xyz(band) for band in BANDS})
_WHITE_XYZ: Vector = (
    sum(v[0] for v in _BAND_XYZ.values()),
    sum(v[1] for v in _BAND_XYZ.values()),
    sum(v[2] for v in _BAND_XYZ.values()),
)


def reflectance(bands: tuple[Band, ...]) -> dict[Band, float]:
    """How much of each surviving band comes back: less where it borders a swallowed band."""
    kept = set(bands)
    out: dict[Band, float] = {}
    for index, band in enumerate(BANDS):
        if band not in kept:
            continue
        neighbours = [BANDS[i] for i in (index - 1, index + 1) if 0 <= i < len(BANDS)]
        out[band] = SHOULDER if any(n not in kept for n in neighbours) else 1.0
    return out


def base_linear(bands: tuple[Band, ...]) -> tuple[Vector, float]:
    """Linear sRGB (in gamut) of the reflected bands, and its relative luminance Y."""
    weights = reflectance(bands)
    xyz = [sum(w * _BAND_XYZ[b][i] for b, w in weights.items()) for i in range(3)]
    # Equal-energy white maps onto the display white.
    scaled = [xyz[i] / _WHITE_XYZ[i] * D65[i] for i in range(3)]
    luminance = scaled[1]
    rgb = [sum(row[j] * scaled[j] for j in range(3)) for row in XYZ_TO_RGB]
    lowest = min(rgb)
    pull = luminance / (luminance - lowest) if lowest < 0 else 1.0
    r, g, b = (min(1.0, luminance + (c - luminance) * pull) for c in rgb)
    return (r, g, b), luminance


def linear_rgb(colour: Colour) -> Vector:
    if colour.is_black:
        return (0.0, 0.0, 0.0)
    (r, g, b), _ = base_linear(colour.bands)
    white = WHITENING * float(colour.tio2)
    return (r + (1 - r) * white, g + (1 - g) * white, b + (1 - b) * white)


@dataclass(frozen=True)
class Display:
    """How a colour shows on a screen: 8-bit sRGB and its lightness L*."""

    rgb: tuple[int, int, int]
    lightness: float

    @property
    def hex(self) -> str:
        return "#" + "".join(f"{c:02x}" for c in self.rgb)


def display(colour: Colour) -> Display:
    linear = linear_rgb(colour)
    r, g, b = (round(encode(c) * 255) for c in linear)
    return Display((r, g, b), round(y_to_lightness(linear_rgb_to_y(linear)), 1))
