"""Camera calibration: OpenCV's reference photos, a synthetic ChArUco camera, outliers, errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import calibrate
from calibration.errors import CalibrationError
from calibration.patterns import Pattern, View, find_pattern
from tests.cli import Run, assert_user_error, atelier_main
from vision.images import read_image

PHOTOS = sorted((Path(__file__).parents[1] / "data/calibration").glob("left*.jpg"))
# OpenCV's samples/python/calibrate.py on the same thirteen photos.
REFERENCE_MATRIX = np.array([[532.79536562, 0, 342.45825163], [0, 532.91928338, 233.90060514]])
REFERENCE_K1_K2 = (-0.281086258, 0.0272581009)


def calibrate_chessboard(photos: list[Path], profile: Path) -> Run:
    """``atelier calibrate camera`` on OpenCV's 9x6 chessboard photos, 25 mm squares."""
    args: list[str | Path] = ["--chessboard", "9x6", "--square", "25", "--profile", profile]
    return atelier_main("calibrate", "camera", *photos, *args)


def chessboard_views() -> list[View]:
    pattern = Pattern("chessboard", 9, 6, 1.0)
    return [find_pattern(read_image(p, grayscale=True), pattern, p.name) for p in PHOTOS]


def test_matches_opencvs_reference_on_its_sample_photos() -> None:
    assert len(PHOTOS) == 13
    result = calibrate(chessboard_views())
    assert result.views_used == 13
    assert result.rejected == ()
    matrix = np.array(result.model.camera_matrix)[:2]
    # Within 1 % of OpenCV's own result (the issue allows a few percent).
    assert np.allclose(matrix, REFERENCE_MATRIX, rtol=0.01, atol=0.5)
    k1, k2 = result.model.dist_coeffs[:2]
    assert k1 == pytest.approx(REFERENCE_K1_K2[0], rel=0.02)
    assert k2 == pytest.approx(REFERENCE_K1_K2[1], abs=0.01)
    assert 0.15 < result.rms < 0.25


def test_cli_prints_the_promised_keys_and_saves_a_profile(tmp_path: Path) -> None:
    profile = tmp_path / "table.json"
    run = calibrate_chessboard(PHOTOS, profile)
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert {"rms", "camera_matrix", "dist_coeffs", "views_used", "per_view_error"} <= set(data)
    assert data["views_used"] == len(data["per_view_error"]) == 13
    assert data["camera_matrix"][0][0] == pytest.approx(532.8, rel=0.01)
    saved = json.loads(profile.read_text())
    assert saved["kind"] == "atelier-calibration" and saved["name"] == "table"
    assert saved["camera"]["camera_matrix"] == data["camera_matrix"] or np.allclose(
        saved["camera"]["camera_matrix"], data["camera_matrix"], rtol=1e-6
    )
    assert saved["camera"]["pattern"] == "chessboard 9x6 inner corners, 25 mm squares"


def test_updating_a_profile_keeps_its_colour_section(tmp_path: Path) -> None:
    profile = tmp_path / "p.json"
    colour = {"method": "test", "matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}
    profile.write_text(
        json.dumps({"format": 1, "kind": "atelier-calibration", "name": "mine", "color": colour})
    )
    run = calibrate_chessboard(PHOTOS[:6], profile)
    assert run.status == 0, run.stderr
    saved = json.loads(profile.read_text())
    assert saved["color"] == colour and saved["name"] == "mine" and saved["camera"] is not None


def synthetic_charuco_views(pattern: Pattern, focal: float) -> list[View]:
    """Photos of a ChArUco board by a known, distortion-free camera from eight poses."""
    board = pattern.charuco_board()
    px_per_mm = 4
    width_mm, height_mm = pattern.cols * pattern.square_mm, pattern.rows * pattern.square_mm
    flat = board.generateImage((int(width_mm * px_per_mm), int(height_mm * px_per_mm)))
    size = (1280, 960)
    matrix = np.array([[focal, 0, size[0] / 2], [0, focal, size[1] / 2], [0, 0, 1]])
    views = []
    poses = [(-25, 0), (25, 0), (0, -25), (0, 25), (-20, 20), (20, -20), (15, 15), (-15, -15)]
    for index, (rx, ry) in enumerate(poses):
        rvec = np.array([math.radians(rx), math.radians(ry), math.radians(10 * index)])
        tvec = np.array([-width_mm / 2, -height_mm / 2, 600.0])
        corners_mm = np.array(
            [[0, 0, 0], [width_mm, 0, 0], [width_mm, height_mm, 0], [0, height_mm, 0]], np.float64
        )
        projected, _ = cv2.projectPoints(corners_mm, rvec, tvec, matrix, np.zeros(5))
        src = (corners_mm[:, :2] * px_per_mm).astype(np.float32)
        homography = cv2.getPerspectiveTransform(src, projected.reshape(4, 2).astype(np.float32))
        photo = cv2.warpPerspective(flat, homography, size, borderValue=200)
        views.append(find_pattern(np.asarray(photo, np.uint8), pattern, f"view{index}"))
    return views


def test_charuco_recovers_a_known_camera() -> None:
    pattern = Pattern("charuco", 5, 7, 30.0, 20.0, "DICT_6X6_250")
    result = calibrate(synthetic_charuco_views(pattern, focal=1000.0))
    assert result.views_used >= 6
    fx, fy = result.model.camera_matrix[0][0], result.model.camera_matrix[1][1]
    assert fx == pytest.approx(1000.0, rel=0.02) and fy == pytest.approx(1000.0, rel=0.02)
    assert result.rms < 0.5


def test_a_view_that_does_not_fit_is_left_out() -> None:
    views = chessboard_views()
    bad = views[3]
    assert bad.image_points is not None
    # Corners off by a few pixels each, as from a blurred or misdetected photo.
    noise = np.random.default_rng(0).normal(0, 4, bad.image_points.shape).astype(np.float32)
    scrambled = View(bad.name, bad.image_size, bad.object_points, bad.image_points + noise)
    result = calibrate([*views[:3], scrambled, *views[4:]])
    assert [name for name, _ in result.rejected] == [bad.name]
    assert "reprojection error" in result.rejected[0][1]
    assert result.views_used == 12


def test_too_few_views_and_mixed_sizes_are_refused() -> None:
    views = chessboard_views()
    with pytest.raises(CalibrationError, match="found in 2 of 2 photos; at least 3"):
        calibrate(views[:2])
    small = View("small", (320, 240), views[0].object_points, views[0].image_points)
    with pytest.raises(CalibrationError, match="differ in size"):
        calibrate([*views[:3], small])


def test_cli_bad_inputs(tmp_path: Path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640), 255, np.uint8))
    args: list[str | Path] = [
        "--chessboard",
        "9x6",
        "--square",
        "25",
        "--profile",
        tmp_path / "p.json",
    ]
    assert_user_error(
        atelier_main("calibrate", "camera", blank, blank, blank, *args), "found in 0 of 3 photos"
    )
    assert_user_error(
        atelier_main("calibrate", "camera", tmp_path / "x.jpg", *args), "no such file"
    )
    assert_user_error(
        atelier_main("calibrate", "camera", *PHOTOS[:3], "--chessboard", "nine", "--square", "1"),
        "--chessboard: expected COLSxROWS",
    )
    assert_user_error(
        atelier_main("calibrate", "camera", *PHOTOS[:3], "--chessboard", "9x6", "--square", "-1"),
        "--square: must be positive",
    )
    assert_user_error(
        atelier_main("calibrate", "camera", *PHOTOS[:3], "--charuco", "5x7", "--square", "30"),
        "--marker: must be positive",
    )
    assert not (tmp_path / "p.json").exists()


def test_a_corrupt_existing_profile_is_not_overwritten(tmp_path: Path) -> None:
    profile = tmp_path / "p.json"
    profile.write_text('{"format": 1, "kind": "something else", "name": "x"}')
    run = calibrate_chessboard(PHOTOS[:4], profile)
    assert_user_error(run, "p.json", "kind: 'something else' is not an Atelier calibration profile")
    assert profile.read_text() == '{"format": 1, "kind": "something else", "name": "x"}'
