"""Colour conversions: sRGB levels, linear light, CIE XYZ and CIELAB under D65, by the formulas of
the standards. Shared by the rules engines, vision and calibration, so numpy and the standard
library only.

Arrays in, arrays out, worked in the precision the caller asks for or gives (vision reads float32
pixels, calibration fits in float64). The helpers on single floats, for the Pigment Lab display
colours, use the standard library's power: numpy's vectorised one may differ in the last bit.
OpenCV's own CIELAB conversions, which vision uses for speed, are tabulated approximations of
these and stay in vision (``vision.scan.colours``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

Vector = tuple[float, float, float]

# Linear sRGB to CIE XYZ and back, under the D65 white (Y = 1): IEC 61966-2-1, to four places.
RGB_TO_XYZ = ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))
XYZ_TO_RGB = ((3.2406, -1.5372, -0.4986), (-0.9689, 1.8758, 0.0415), (0.0557, -0.2040, 1.0570))
D65: Vector = (0.95047, 1.0, 1.08883)
Y_OF_RGB: Vector = RGB_TO_XYZ[1]  # relative luminance from linear R, G, B

# The sRGB transfer curve: linear near black, a power above.
_LINEAR_BELOW = 0.0031308  # linear light below this is encoded linearly...
_ENCODED_BELOW = 0.04045  # ...to an encoded level below this
_SLOPE = 12.92
_SCALE, _OFFSET = 1.055, 0.055
_GAMMA = 2.4

# CIELAB's lightness: a cube root of luminance, linear near black.
_DELTA = 6 / 29
_KAPPA = 903.3  # L* per unit of luminance near black, as CIE 1976 rounds it (24389 / 27)
_KAPPA_BELOW = 8.0  # the L* where the two parts meet


def srgb_to_linear(levels: ArrayLike, dtype: DTypeLike = np.float64) -> NDArray[Any]:
    """sRGB levels (0..255, or beyond: the curve runs on) to linear light (0..1), worked out in
    ``dtype``."""
    v = np.asarray(levels, dtype) / 255.0
    return np.asarray(np.where(v <= _ENCODED_BELOW, v / _SLOPE, ((v + _OFFSET) / _SCALE) ** _GAMMA))


def linear_to_srgb(linear: ArrayLike) -> NDArray[Any]:
    """Linear light, clipped to 0..1, to sRGB levels (0..255), in the precision given."""
    v = np.clip(linear, 0.0, 1.0)
    encoded = np.where(v <= _LINEAR_BELOW, v * _SLOPE, _SCALE * v ** (1 / _GAMMA) - _OFFSET)
    return np.asarray(255.0 * encoded)


def srgb_to_lab(rgb: ArrayLike) -> NDArray[np.float64]:
    """sRGB colours (N x 3 levels, 0..255, in R, G, B order) to CIELAB (L* 0..100)."""
    xyz = srgb_to_linear(rgb) @ np.array(RGB_TO_XYZ).T / np.array(D65)
    f = np.where(xyz > _DELTA**3, np.cbrt(xyz), xyz / (3 * _DELTA**2) + 4 / 29)
    return np.stack(
        [116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1
    )


def encode(channel: float) -> float:
    """One channel of linear light (0..1) on the sRGB transfer curve (0..1), unclipped."""
    if channel <= _LINEAR_BELOW:
        return _SLOPE * channel
    return _SCALE * math.pow(channel, 1 / _GAMMA) - _OFFSET


def linear_rgb_to_y(rgb: Vector) -> float:
    """The relative luminance Y (0..1) of a linear sRGB colour."""
    r, g, b = rgb
    return Y_OF_RGB[0] * r + Y_OF_RGB[1] * g + Y_OF_RGB[2] * b


def y_to_lightness(luminance: float) -> float:
    """CIE L* (0 black .. 100 white) of a relative luminance."""
    f: float = (
        luminance ** (1 / 3) if luminance > _DELTA**3 else luminance / (3 * _DELTA**2) + 4 / 29
    )
    return 116 * f - 16


def lightness_to_y(lightness: float) -> float:
    """The relative luminance (0..1) of a CIE L*."""
    return ((lightness + 16.0) / 116.0) ** 3 if lightness > _KAPPA_BELOW else lightness / _KAPPA
