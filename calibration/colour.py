"""Colour correction: per-channel tone curves, then an affine map in linear RGB, that take the
colours a camera measured on the printed reference card to the colours that were printed.

Linear light is where a lamp's colour and an exposure change act as simple per-channel scales, so
a 3x4 affine map there undoes white balance, exposure and most of a camera's colour mixing with
twelve numbers; the fit needs only the two dozen patches on the card. Cameras do not stay linear in
the highlights, though: their tone curve rolls bright light off towards white, most of all in an
overexposed photo. The card's neutral greys, printed at known levels, trace that curve channel by
channel, so it is undone first; patches the camera clipped tell nothing and are left out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from calibration.errors import CalibrationError
from companion.colour import linear_to_srgb, srgb_to_lab, srgb_to_linear

MIN_PATCHES = 8
MIN_NEUTRALS = 3  # greys needed to trace a tone curve
RIDGE = 0.02  # how hard the affine map after the tone curves is held to the identity
CLIPPED = 250.0  # a measured channel this bright (sRGB) may have been cut off by the sensor
Pixels = NDArray[np.float64]
Curve = tuple[tuple[float, float], ...]  # (measured, straightened) linear levels, increasing


@dataclass(frozen=True)
class ColourCorrection:
    """out_linear_rgb = matrix[:, :3] @ in_linear_rgb + matrix[:, 3]"""

    matrix: tuple[tuple[float, float, float, float], ...]
    fitted_on: int  # patches
    error_before: float  # mean Delta E of the patches, uncorrected and corrected
    error_after: float
    # Per channel (R, G, B): the camera's tone curve undone, or () where it was not measured.
    curves: tuple[Curve, Curve, Curve] = ((), (), ())

    def apply_bgr(self, pixels: NDArray[np.uint8] | NDArray[np.float32]) -> NDArray[np.float32]:
        """Correct BGR pixels (N x 3, 0..255)."""
        rgb = straighten(
            srgb_to_linear(np.asarray(pixels, np.float64)[..., ::-1].reshape(-1, 3)), self.curves
        )
        m = np.array(self.matrix, np.float64)
        out = rgb @ m[:, :3].T + m[:, 3]
        return np.asarray(linear_to_srgb(out)[:, ::-1], np.float32)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "method": "curves-affine-linear-rgb" if any(self.curves) else "affine-linear-rgb",
            "matrix": [list(row) for row in self.matrix],
            "patches": self.fitted_on,
            "delta_e_before": round(self.error_before, 3),
            "delta_e_after": round(self.error_after, 3),
        }
        if any(self.curves):
            out["curves"] = {
                channel: [[round(a, 6), round(b, 6)] for a, b in curve]
                for channel, curve in zip("rgb", self.curves, strict=True)
            }
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> ColourCorrection:
        """Validate a profile's ``color`` section."""
        method = data.get("method")
        if method not in ("affine-linear-rgb", "curves-affine-linear-rgb"):
            raise CalibrationError(f"color.method: {method!r} is not supported")
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
        curves: tuple[Curve, Curve, Curve] = ((), (), ())
        if method == "curves-affine-linear-rgb":
            curves = _curves(data.get("curves"))
        return ColourCorrection(matrix, patches, before, after, curves)


def _curves(data: object) -> tuple[Curve, Curve, Curve]:
    if not isinstance(data, dict) or set(data) != {"r", "g", "b"}:
        raise CalibrationError("color.curves: expected a curve for each of r, g and b")
    curves = []
    for channel in "rgb":
        points = data[channel]
        if (
            not isinstance(points, list)
            or len(points) < 2
            or not all(
                isinstance(p, list)
                and len(p) == 2
                and all(
                    isinstance(v, int | float) and not isinstance(v, bool) and np.isfinite(v)
                    for v in p
                )
                for p in points
            )
        ):
            raise CalibrationError(f"color.curves.{channel}: expected [measured, level] pairs")
        curve = tuple((float(a), float(b)) for a, b in points)
        if any(b[0] <= a[0] or b[1] <= a[1] for a, b in itertools.pairwise(curve)):
            raise CalibrationError(f"color.curves.{channel}: levels must rise")
        curves.append(curve)
    return curves[0], curves[1], curves[2]


def straighten(linear_rgb: Pixels, curves: tuple[Curve, Curve, Curve]) -> Pixels:
    """Undo a camera's tone curve, channel by channel (N x 3 linear RGB); beyond the measured
    levels the curve's end segments carry on straight."""
    out = np.array(linear_rgb, np.float64)
    for channel, curve in enumerate(curves):
        if not curve:
            continue
        xs = np.array([p[0] for p in curve])
        ys = np.array([p[1] for p in curve])
        x = out[:, channel]
        y = np.interp(x, xs, ys)
        low, high = x < xs[0], x > xs[-1]
        y[low] = ys[0] + (x[low] - xs[0]) * (ys[1] - ys[0]) / (xs[1] - xs[0])
        y[high] = ys[-1] + (x[high] - xs[-1]) * (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
        out[:, channel] = y
    return out


def trace_curves(measured_rgb: Pixels, printed_rgb: Pixels) -> tuple[Curve, Curve, Curve]:
    """Each channel's tone curve from the neutral patches (printed R = G = B) the camera did not
    clip: where a grey printed at level p was measured at m, m maps to p."""
    printed = np.asarray(printed_rgb, np.float64)
    neutral = (printed.max(axis=1) - printed.min(axis=1)) < 1.0
    curves: list[Curve] = []
    for channel in range(3):
        pairs = sorted(
            (float(srgb_to_linear(m[channel])), float(srgb_to_linear(p[channel])))
            for m, p in zip(measured_rgb[neutral], printed[neutral], strict=True)
            if m[channel] < CLIPPED
        )
        rising: list[tuple[float, float]] = []
        for m, p in pairs:
            # A grey measured no brighter than a lighter one is noise or clipping: not a level.
            if not rising or (m > rising[-1][0] + 1e-4 and p > rising[-1][1]):
                rising.append((m, p))
        clipped = [
            p[channel]
            for m, p in zip(measured_rgb[neutral], printed[neutral], strict=True)
            if m[channel] >= CLIPPED
        ]
        top = _sensor_top(rising, float(srgb_to_linear(min(clipped)))) if clipped else None
        if top is not None:
            rising.append((1.0, top))
        if len(rising) < MIN_NEUTRALS:
            return ((), (), ())
        curves.append(tuple(rising))
    return curves[0], curves[1], curves[2]


def _sensor_top(rising: list[tuple[float, float]], darkest_clipped: float) -> float | None:
    """The level at the sensor's top, from the greys below it and the darkest it clipped: as
    the curve through the two lightest greys below runs on, but no higher than that clipped
    grey (a highlight shoulder bends up sooner). None when it adds no level above them. A curve
    run up to white instead would read every colour near the top far too bright, and the more
    so the more the photo was overexposed."""
    top = darkest_clipped
    if len(rising) >= 2:
        (m0, p0), (m1, p1) = rising[-2:]
        top = min(top, p1 + (1.0 - m1) * (p1 - p0) / (m1 - m0))
    return top if not rising or top > rising[-1][1] else None


def _number(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CalibrationError(f"{field}: expected a number")
    return float(value)


def _delta_e(a_rgb: Pixels, b_rgb: Pixels) -> NDArray[np.float64]:
    """CIE76 Delta E between two sets of sRGB colours (0..255), under D65."""
    return np.asarray(
        np.sqrt(((srgb_to_lab(a_rgb) - srgb_to_lab(b_rgb)) ** 2).sum(axis=1)), np.float64
    )


def usable(measured_rgb: Pixels, curves: tuple[Curve, Curve, Curve]) -> NDArray[np.bool_]:
    """The patches a fit uses: with tone curves traced, those the camera did not clip (a clipped
    patch tells only that the light was at least this bright); without, every one."""
    measured = np.asarray(measured_rgb, np.float64).reshape(-1, 3)
    if not any(curves):
        return np.ones(len(measured), bool)
    return np.asarray(measured.max(axis=1) < CLIPPED, bool)


def _fit_affine(source: Pixels, target: Pixels, ridge: float) -> Pixels:
    """Least squares, pulled towards the identity by ``ridge``: once the tone curves have put
    each channel right, the map has only cross-talk left to fix, and the few patches left
    unclipped in a bright photo must not let it wander."""
    identity = np.vstack([np.eye(3), np.zeros((1, 3))])
    weight = ridge * len(source)
    lhs = source.T @ source + weight * np.eye(4)
    rhs = source.T @ target + weight * identity
    return np.asarray(np.linalg.solve(lhs, rhs), np.float64)


def fit_correction(measured_rgb: Pixels, printed_rgb: Pixels) -> ColourCorrection:
    """Least squares in linear RGB from what the camera saw to what was printed (N x 3, 0..255)."""
    measured = np.asarray(measured_rgb, np.float64).reshape(-1, 3)
    printed = np.asarray(printed_rgb, np.float64).reshape(-1, 3)
    if len(measured) < MIN_PATCHES or len(measured) != len(printed):
        raise CalibrationError(
            f"colour calibration needs at least {MIN_PATCHES} measured patches, got {len(measured)}"
        )
    curves = trace_curves(measured, printed)
    kept = usable(measured, curves)
    if int(kept.sum()) < MIN_PATCHES:
        raise CalibrationError(
            f"colour calibration needs at least {MIN_PATCHES} patches that are not blown out, "
            f"got {int(kept.sum())}"
        )
    straight = straighten(srgb_to_linear(measured), curves)
    source = np.hstack([straight, np.ones((len(measured), 1))])
    target = srgb_to_linear(printed)
    solution = _fit_affine(source[kept], target[kept], ridge=RIDGE if any(curves) else 0.0)
    matrix = solution.T  # 3 x 4
    corrected = linear_to_srgb(source @ solution)
    before = float(_delta_e(measured, printed).mean())
    after = float(_delta_e(corrected[kept], printed[kept]).mean())
    rows = tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in matrix)
    return ColourCorrection(rows, int(kept.sum()), before, after, curves)
