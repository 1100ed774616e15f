"""Calibration profiles: round trips, and every kind of corruption refused with the field named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from calibration.camera import CameraModel
from calibration.errors import CalibrationError
from calibration.profile import CameraSection, Profile, load_profile, save_profile

CAMERA = CameraSection(
    CameraModel(
        (1920, 1080),
        ((1400.0, 0.0, 960.0), (0.0, 1400.0, 540.0), (0.0, 0.0, 1.0)),
        (-0.1, 0.01, 0.0, 0.0, 0.0),
    ),
    0.21,
    12,
    "chessboard 9x6 inner corners, 25 mm squares",
)


def good() -> dict[str, Any]:
    return Profile("kitchen", CAMERA).to_json()


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    save_profile(Profile("kitchen", CAMERA, {"matrix": [[1, 0, 0]]}), path)
    loaded = load_profile(path)
    assert loaded == Profile("kitchen", CAMERA, {"matrix": [[1, 0, 0]]})
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]  # no temporary file left


def corrupt(path: str, value: object) -> dict[str, Any]:
    data = good()
    target: Any = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is ...:
        del target[last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (corrupt("kind", "camera"), "kind: 'camera' is not an Atelier calibration profile"),
        (corrupt("format", 9), "format: 9 is not supported"),
        (corrupt("name", ...), "name: missing"),
        (corrupt("extra", 1), "extra: unknown key"),
        (
            corrupt("camera.camera_matrix", [[1, 0, 0]]),
            "camera.camera_matrix: expected a list of 3",
        ),
        (corrupt("camera.camera_matrix.2", [0, 0, 2]), "not a camera matrix"),
        (corrupt("camera.camera_matrix.0", [-5, 0, 1]), "not a camera matrix"),
        (
            corrupt("camera.dist_coeffs", [0.1, 0.2, 0.3]),
            "camera.dist_coeffs: expected a list of 4",
        ),
        (corrupt("camera.dist_coeffs.0", "k1"), "camera.dist_coeffs[0]: expected a finite number"),
        (corrupt("camera.image_size", [1920, 0]), "camera.image_size: expected two positive"),
        (corrupt("camera.rms", ...), "camera.rms: missing"),
        (corrupt("color", [1, 2]), "color: expected an object or null"),
    ],
)
def test_corrupt_profiles_are_refused(tmp_path: Path, data: object, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_profile(path)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="no such profile file"):
        load_profile(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": 1,')
    with pytest.raises(CalibrationError, match="line 1 column 14: not valid JSON"):
        load_profile(broken)
    nan = tmp_path / "nan.json"
    nan.write_text(json.dumps(good()).replace("0.21", "NaN"))
    with pytest.raises(CalibrationError, match=r"camera\.rms: expected a finite number"):
        load_profile(nan)
    deep = tmp_path / "deep.json"
    deep.write_text('{"camera": ' + "[" * 5_000 + "]" * 5_000 + "}")
    with pytest.raises(CalibrationError, match="nested more than 32 levels deep"):
        load_profile(deep)
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(good()).replace("0.21", "1" * 5_000))
    with pytest.raises(CalibrationError, match="a whole number out of range"):
        load_profile(huge)
