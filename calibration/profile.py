"""Calibration profiles: one JSON file per camera and table, versioned, validated on load, and
written atomically so a crash never leaves half a profile behind.

```json
{"format": 1, "kind": "atelier-calibration", "name": "kitchen table",
 "camera": {"image_size": [1920, 1080], "camera_matrix": [[...], [...], [...]],
            "dist_coeffs": [k1, k2, p1, p2, k3], "rms": 0.21, "views_used": 14,
            "pattern": "chessboard 9x6 inner corners, 25 mm squares"},
 "color": null}
```
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from calibration.camera import CameraModel
from calibration.errors import CalibrationError
from companion.json_input import JsonError, parse_json

FORMAT = 1
KIND = "atelier-calibration"
DISTORTION_LENGTHS = (4, 5, 8, 12, 14)  # what OpenCV's camera models accept


@dataclass(frozen=True)
class CameraSection:
    model: CameraModel
    rms: float
    views_used: int
    pattern: str

    def to_json(self) -> dict[str, Any]:
        return {
            "image_size": list(self.model.image_size),
            "camera_matrix": [list(row) for row in self.model.camera_matrix],
            "dist_coeffs": list(self.model.dist_coeffs),
            "rms": self.rms,
            "views_used": self.views_used,
            "pattern": self.pattern,
        }


@dataclass(frozen=True)
class Profile:
    name: str
    camera: CameraSection | None = None
    # The colour correction, kept as validated JSON by the colour module that owns its meaning.
    color: dict[str, Any] | None = None

    def with_camera(self, camera: CameraSection) -> Profile:
        return replace(self, camera=camera)

    def with_color(self, color: dict[str, Any]) -> Profile:
        return replace(self, color=color)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "kind": KIND,
            "name": self.name,
            "camera": self.camera.to_json() if self.camera else None,
            "color": self.color,
        }


def _number(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CalibrationError(f"{field}: expected a finite number, got {value!r}")
    return float(value)


def _list(value: Any, field: str, lengths: tuple[int, ...]) -> list[Any]:
    if not isinstance(value, list) or len(value) not in lengths:
        wanted = " or ".join(str(n) for n in lengths)
        raise CalibrationError(f"{field}: expected a list of {wanted} entries")
    return value


def _object(
    value: Any, field: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CalibrationError(f"{field or 'profile'}: expected an object")
    prefix = f"{field}." if field else ""
    for key in value:
        if key not in required and key not in optional:
            raise CalibrationError(f"{prefix}{key}: unknown key")
    for key in required:
        if key not in value:
            raise CalibrationError(f"{prefix}{key}: missing")
    return value


def parse_camera(data: Any) -> CameraSection:
    fields = ("image_size", "camera_matrix", "dist_coeffs", "rms", "views_used", "pattern")
    obj = _object(data, "camera", fields)
    size = _list(obj["image_size"], "camera.image_size", (2,))
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size):
        raise CalibrationError("camera.image_size: expected two positive whole numbers")
    rows = _list(obj["camera_matrix"], "camera.camera_matrix", (3,))
    matrix = tuple(
        tuple(
            _number(v, f"camera.camera_matrix[{i}][{j}]")
            for j, v in enumerate(_list(row, f"camera.camera_matrix[{i}]", (3,)))
        )
        for i, row in enumerate(rows)
    )
    if matrix[0][0] <= 0 or matrix[1][1] <= 0 or matrix[2] != (0.0, 0.0, 1.0):
        raise CalibrationError(
            "camera.camera_matrix: not a camera matrix (fx, fy > 0, last row 0 0 1)"
        )
    dist = tuple(
        _number(v, f"camera.dist_coeffs[{i}]")
        for i, v in enumerate(_list(obj["dist_coeffs"], "camera.dist_coeffs", DISTORTION_LENGTHS))
    )
    views = obj["views_used"]
    if not isinstance(views, int) or isinstance(views, bool) or views < 1:
        raise CalibrationError("camera.views_used: expected a positive whole number")
    if not isinstance(obj["pattern"], str):
        raise CalibrationError("camera.pattern: expected a string")
    model = CameraModel((size[0], size[1]), matrix, dist)
    return CameraSection(model, _number(obj["rms"], "camera.rms"), views, obj["pattern"])


def parse_profile(data: Any) -> Profile:
    obj = _object(data, "", ("format", "kind", "name"), ("camera", "color"))
    if obj["kind"] != KIND:
        raise CalibrationError(f"kind: {obj['kind']!r} is not an Atelier calibration profile")
    if obj["format"] != FORMAT:
        raise CalibrationError(
            f"format: {obj['format']!r} is not supported (this version reads {FORMAT})"
        )
    if not isinstance(obj["name"], str) or not obj["name"].strip():
        raise CalibrationError("name: expected a non-empty string")
    camera = obj.get("camera")
    color = obj.get("color")
    if color is not None and not isinstance(color, dict):
        raise CalibrationError("color: expected an object or null")
    return Profile(obj["name"], parse_camera(camera) if camera is not None else None, color)


def load_profile(path: Path) -> Profile:
    """Read and validate a profile; every problem is a CalibrationError naming the field."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError("no such profile file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"cannot read the profile ({exc})") from None
    try:
        data = parse_json(text)
    except JsonError as exc:
        raise CalibrationError(str(exc)) from None
    return parse_profile(data)


def save_profile(profile: Profile, path: Path) -> None:
    """Write the profile atomically: a temporary file beside it, then a rename."""
    text = json.dumps(profile.to_json(), indent=2) + "\n"
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
