"""Colour correction: an affine map in linear RGB that takes the colours a camera measured on the
printed reference card to the colours that were printed, fitted by least squares.

Linear light is where a lamp's colour and an exposure change act as simple per-channel scales, so
a 3x4 affine map there undoes white balance, exposure and most of a camera's colour mixing with
twelve numbers; the fit needs only the two dozen patches on the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from calibration.errors import CalibrationError

MIN_PATCHES = 8
Pixels = NDArray[np.float64]


def srgb_to_linear(values: NDArray[np.floating[Any]] | NDArray[np.uint8]) -> Pixels:
    v = np.asarray(values, np.float64) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(values: Pixels) -> Pixels:
    v = np.clip(values, 0.0, 1.0)
    return 255.0 * np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


@dataclass(frozen=True)
class ColourCorrection:
    """out_linear_rgb = matrix[:, :3] @ in_linear_rgb + matrix[:, 3]"""

    matrix: tuple[tuple[float, float, float, float], ...]
    fitted_on: int  # patches
    error_before: float  # mean Delta E of the patches, uncorrected and corrected
    error_after: float

    def apply_bgr(self, pixels: NDArray[np.uint8] | NDArray[np.float32]) -> NDArray[np.float32]:
        """Correct BGR pixels (N x 3, 0..255)."""
        rgb = srgb_to_linear(np.asarray(pixels, np.float64)[..., ::-1].reshape(-1, 3))
        m = np.array(self.matrix, np.float64)
        out = rgb @ m[:, :3].T + m[:, 3]
        return np.asarray(linear_to_srgb(out)[:, ::-1], np.float32)

    def to_json(self) -> dict[str, Any]:
        return {
            "method": "affine-linear-rgb",
            "matrix": [list(row) for row in self.matrix],
            "patches": self.fitted_on,
            "delta_e_before": round(self.error_before, 3),
            "delta_e_after": round(self.error_after, 3),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> ColourCorrection:
        """Validate a profile's ``color`` section."""
        if data.get("method") != "affine-linear-rgb":
            raise CalibrationError(f"color.method: {data.get('method')!r} is not supported")
        rows = data.get("matrix")
        if (
            not isinstance(rows, list)
            or len(rows) != 3
            or not all(isinstance(r, list) and len(r) == 4 for r in rows)
            or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and np.isfinite(v)
                for r in rows
                for v in r
            )
        ):
            raise CalibrationError("color.matrix: expected 3 rows of 4 finite numbers")
        matrix = tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in rows)
        patches = data.get("patches")
        if not isinstance(patches, int) or isinstance(patches, bool) or patches < MIN_PATCHES:
            raise CalibrationError(f"color.patches: expected a whole number >= {MIN_PATCHES}")
        before = _number(data.get("delta_e_before"), "color.delta_e_before")
        after = _number(data.get("delta_e_after"), "color.delta_e_after")
        return ColourCorrection(matrix, patches, before, after)


def _number(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CalibrationError(f"{field}: expected a number")
    return float(value)


def _delta_e(a_rgb: Pixels, b_rgb: Pixels) -> NDArray[np.float64]:
    """CIE76 Delta E between two sets of sRGB colours (0..255), under D65."""

    def lab(rgb: Pixels) -> Pixels:
        linear = srgb_to_linear(rgb)
        m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
        xyz = linear @ m.T / np.array([0.95047, 1.0, 1.08883])
        f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
        return np.stack(
            [116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1
        )

    return np.asarray(np.sqrt(((lab(a_rgb) - lab(b_rgb)) ** 2).sum(axis=1)), np.float64)


def fit_correction(measured_rgb: Pixels, printed_rgb: Pixels) -> ColourCorrection:
    """Least squares in linear RGB from what the camera saw to what was printed (N x 3, 0..255)."""
    measured = np.asarray(measured_rgb, np.float64).reshape(-1, 3)
    printed = np.asarray(printed_rgb, np.float64).reshape(-1, 3)
    if len(measured) < MIN_PATCHES or len(measured) != len(printed):
        raise CalibrationError(
            f"colour calibration needs at least {MIN_PATCHES} measured patches, got {len(measured)}"
        )
    source = np.hstack([srgb_to_linear(measured), np.ones((len(measured), 1))])
    target = srgb_to_linear(printed)
    solution, *_ = np.linalg.lstsq(source, target, rcond=None)
    matrix = solution.T  # 3 x 4
    corrected = linear_to_srgb(source @ solution)
    before = float(_delta_e(measured, printed).mean())
    after = float(_delta_e(corrected, printed).mean())
    rows = tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in matrix)
    return ColourCorrection(rows, len(measured), before, after)
