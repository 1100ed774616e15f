"""Calibration patterns and finding them in a photo: a chessboard, or a ChArUco board."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.errors import CalibrationError

Points = NDArray[np.float32]
SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 30, 0.01)
MIN_CHARUCO_CORNERS = 6


@dataclass(frozen=True)
class Pattern:
    """``chessboard``: cols x rows inner corners. ``charuco``: cols x rows squares, with markers
    of ``marker_mm`` from ``dictionary`` in the white squares."""

    kind: Literal["chessboard", "charuco"]
    cols: int
    rows: int
    square_mm: float
    marker_mm: float = 0.0
    dictionary: str = "DICT_6X6_250"

    def __post_init__(self) -> None:
        if self.cols < 2 or self.rows < 2:
            raise CalibrationError(f"a {self.kind} needs at least 2x2, not {self.cols}x{self.rows}")
        if self.square_mm <= 0:
            raise CalibrationError(f"--square: must be positive, not {self.square_mm}")
        if self.kind == "charuco":
            if not 0 < self.marker_mm < self.square_mm:
                raise CalibrationError(
                    f"--marker: must be positive and smaller than the square ({self.square_mm} mm)"
                )
            if not hasattr(cv2.aruco, self.dictionary):
                raise CalibrationError(f"--dict: unknown marker dictionary {self.dictionary!r}")

    def describe(self) -> str:
        if self.kind == "chessboard":
            return (
                f"chessboard {self.cols}x{self.rows} inner corners, {self.square_mm:g} mm squares"
            )
        return (
            f"ChArUco {self.cols}x{self.rows} squares of {self.square_mm:g} mm, markers "
            f"{self.marker_mm:g} mm from {self.dictionary}"
        )

    def charuco_board(self) -> Any:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return cv2.aruco.CharucoBoard(
            (self.cols, self.rows), self.square_mm, self.marker_mm, dictionary
        )


@dataclass(frozen=True)
class View:
    """What one photo gave: matched board points (mm) and image points (px), or why none."""

    name: str
    image_size: tuple[int, int]  # width, height
    object_points: Points | None
    image_points: Points | None
    problem: str | None = None

    @property
    def found(self) -> bool:
        return self.object_points is not None


def _chessboard_object_points(pattern: Pattern) -> Points:
    grid = np.zeros((pattern.cols * pattern.rows, 3), np.float32)
    grid[:, :2] = np.indices((pattern.cols, pattern.rows)).T.reshape(-1, 2) * pattern.square_mm
    return grid


def find_pattern(gray: NDArray[np.uint8], pattern: Pattern, name: str) -> View:
    """Find the pattern in a grayscale photo, corners refined to sub-pixel accuracy."""
    size = (int(gray.shape[1]), int(gray.shape[0]))
    if pattern.kind == "chessboard":
        found, corners = cv2.findChessboardCorners(
            gray,
            (pattern.cols, pattern.rows),
            flags=cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE,
        )
        if not found:
            return View(name, size, None, None, f"no {pattern.cols}x{pattern.rows} chessboard")
        refined = cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), SUBPIX_CRITERIA)
        points = np.asarray(refined, np.float32).reshape(-1, 2)
        return View(name, size, _chessboard_object_points(pattern), points)
    board = pattern.charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    corners, ids, _markers, _marker_ids = detector.detectBoard(gray)
    count = 0 if ids is None else len(ids)
    if count < MIN_CHARUCO_CORNERS:
        return View(
            name, size, None, None, f"{count} ChArUco corners (at least {MIN_CHARUCO_CORNERS})"
        )
    object_points, image_points = board.matchImagePoints(corners, ids)
    return View(
        name,
        size,
        np.asarray(object_points, np.float32).reshape(-1, 3),
        np.asarray(image_points, np.float32).reshape(-1, 2),
    )
