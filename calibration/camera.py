"""Camera intrinsics from views of a pattern, rejecting views that do not fit the others."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.patterns import Points, View

MIN_VIEWS = 3
# A view whose reprojection error exceeds this many times the median (and 1 px) is dropped: it is
# usually a misdetected corner order or a blurred photo, and it drags every parameter with it.
OUTLIER_FACTOR = 3.0
OUTLIER_FLOOR_PX = 1.0


@dataclass(frozen=True)
class CameraModel:
    image_size: tuple[int, int]
    camera_matrix: tuple[tuple[float, ...], ...]  # 3 x 3
    dist_coeffs: tuple[float, ...]

    def matrix(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        return np.array(self.camera_matrix, np.float64)

    def distortion(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        return np.array(self.dist_coeffs, np.float64)

    @property
    def horizontal_fov_deg(self) -> float:
        return math.degrees(2 * math.atan(self.image_size[0] / (2 * self.camera_matrix[0][0])))


@dataclass(frozen=True)
class CameraCalibration:
    model: CameraModel
    rms: float
    per_view_error: tuple[tuple[str, float], ...]  # the views used, each with its RMS error (px)
    rejected: tuple[tuple[str, str], ...]  # views left out, each with the reason

    @property
    def views_used(self) -> int:
        return len(self.per_view_error)

    def to_json(self) -> dict[str, Any]:
        return {
            "rms": round(self.rms, 6),
            "camera_matrix": [[round(v, 6) for v in row] for row in self.model.camera_matrix],
            "dist_coeffs": [round(v, 8) for v in self.model.dist_coeffs],
            "views_used": self.views_used,
            "per_view_error": [round(e, 6) for _, e in self.per_view_error],
            "image_size": list(self.model.image_size),
            "views": [
                {"image": n, "used": True, "error": round(e, 6)} for n, e in self.per_view_error
            ]
            + [{"image": n, "used": False, "reason": why} for n, why in self.rejected],
        }


def _points(view: View) -> tuple[Points, Points]:
    if view.object_points is None or view.image_points is None:
        raise ValueError(f"{view.name}: the pattern was not found")
    return view.object_points, view.image_points


def _solve(views: Sequence[View], size: tuple[int, int]) -> tuple[float, Any, Any, list[float]]:
    pairs = [_points(v) for v in views]
    objects = [o for o, _ in pairs]
    images = [i for _, i in pairs]
    rms, matrix, dist, rvecs, tvecs = cv2.calibrateCamera(objects, images, size, None, None)
    errors = []
    for (obj, img), rvec, tvec in zip(pairs, rvecs, tvecs, strict=True):
        projected, _ = cv2.projectPoints(obj, rvec, tvec, matrix, dist)
        diff = projected.reshape(-1, 2) - img.reshape(-1, 2)
        errors.append(float(np.sqrt(np.mean(np.sum(diff * diff, axis=1)))))
    return float(rms), matrix, dist, errors


def calibrate(views: Sequence[View]) -> CameraCalibration:
    """Calibrate from every view where the pattern was found; drop outliers one at a time."""
    rejected = [(v.name, v.problem or "pattern not found") for v in views if not v.found]
    usable = [v for v in views if v.found]
    sizes = {v.image_size for v in usable}
    if len(sizes) > 1:
        listed = ", ".join(f"{w}x{h}" for w, h in sorted(sizes))
        raise CalibrationError(f"the photos differ in size ({listed}): use one camera and setting")
    if len(usable) < MIN_VIEWS:
        raise CalibrationError(
            f"the pattern was found in {len(usable)} of {len(views)} photos; at least "
            f"{MIN_VIEWS} are needed (take more photos, tilted and from different sides)"
        )
    (size,) = sizes
    while True:
        rms, matrix, dist, errors = _solve(usable, size)
        worst = int(np.argmax(errors))
        limit = max(OUTLIER_FACTOR * float(np.median(errors)), OUTLIER_FLOOR_PX)
        if errors[worst] <= limit or len(usable) <= MIN_VIEWS:
            break
        rejected.append(
            (usable[worst].name, f"reprojection error {errors[worst]:.2f} px, over {limit:.2f}")
        )
        usable = usable[:worst] + usable[worst + 1 :]
    model = CameraModel(
        image_size=size,
        camera_matrix=tuple(tuple(float(v) for v in row) for row in matrix),
        dist_coeffs=tuple(float(v) for v in np.asarray(dist).ravel()),
    )
    per_view = tuple((v.name, e) for v, e in zip(usable, errors, strict=True))
    return CameraCalibration(model, rms, per_view, tuple(rejected))
