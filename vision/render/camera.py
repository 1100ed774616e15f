"""The camera: a pinhole with radial lens distortion (OpenCV's model), posed above the table.

A pose is drawn from the difficulty's envelope and kept only when the whole scene is in the
frame and, where the envelope asks for it, every marker cell spans enough pixels. Draws are
seeded, so the same seed always finds the same camera.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import ATELIER_DICTIONARY, predefined_dictionary
from vision.layout.geometry import Point
from vision.render.envelope import Envelope
from vision.render.scene import Points, Scene

FIELD_OF_VIEW_DEG = 70.0  # horizontal
MARKER_CELLS = predefined_dictionary(ATELIER_DICTIONARY).bits + 2  # code and black border
FRAME_MARGIN = 0.03  # of the image width: keep the scene this far inside the frame
ATTEMPTS = 400


def _rx(a: float) -> NDArray[np.float64]:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _rz(a: float) -> NDArray[np.float64]:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class CameraPose:
    """Where the camera looks from: ``tilt_deg`` from straight down, from the side of the table
    at ``yaw_deg`` (0: from the players' side, y down), ``distance_mm`` from ``target``."""

    tilt_deg: float
    yaw_deg: float
    roll_deg: float
    distance_mm: float
    target: Point  # table mm, where the optical axis meets the table

    def to_json(self) -> dict[str, Any]:
        return {
            "tilt_deg": round(self.tilt_deg, 3),
            "yaw_deg": round(self.yaw_deg, 3),
            "roll_deg": round(self.roll_deg, 3),
            "distance_mm": round(self.distance_mm, 3),
            "target_mm": [round(v, 3) for v in self.target],
        }


@dataclass(frozen=True)
class Camera:
    size: tuple[int, int]  # width, height in px
    pose: CameraPose
    k1: float
    k2: float

    @property
    def focal_px(self) -> float:
        return self.size[0] / 2 / math.tan(math.radians(FIELD_OF_VIEW_DEG / 2))

    def matrix(self) -> NDArray[np.float64]:
        w, h = self.size
        f = self.focal_px
        return np.array([[f, 0.0, (w - 1) / 2], [0.0, f, (h - 1) / 2], [0.0, 0.0, 1.0]])

    def distortion(self) -> NDArray[np.float64]:
        return np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    def rotation(self) -> NDArray[np.float64]:
        """Table to camera. The table frame is x right, y down, z into the table, so a camera
        looking straight down with no yaw sees the table as printed."""
        p = self.pose
        to_table = (
            _rz(math.radians(p.yaw_deg))
            @ _rx(math.radians(p.tilt_deg))
            @ _rz(math.radians(p.roll_deg))
        )
        return to_table.T

    def translation(self) -> NDArray[np.float64]:
        r = self.rotation()
        target = np.array([self.pose.target[0], self.pose.target[1], 0.0])
        centre = target - self.pose.distance_mm * r[2]  # back along the optical axis
        return np.asarray(-r @ centre, np.float64)

    def homography(self) -> NDArray[np.float64]:
        """Table mm (x, y, 1) to ideal normalised image coordinates, before distortion."""
        r = self.rotation()
        return np.column_stack([r[:, 0], r[:, 1], self.translation()])

    def project(self, points: Points) -> Points:
        """Table mm to image pixels, lens distortion included: (x, y) on the table, or
        (x, y, z) with z negative above it."""
        p = np.asarray(points, np.float64)
        objects = p if p.shape[-1] == 3 else np.column_stack([p.reshape(-1, 2), np.zeros(len(p))])
        rvec, _ = cv2.Rodrigues(self.rotation())
        image, _ = cv2.projectPoints(
            objects, rvec, self.translation(), self.matrix(), self.distortion()
        )
        return np.asarray(image, np.float64).reshape(-1, 2)

    def to_json(self) -> dict[str, Any]:
        rvec, _ = cv2.Rodrigues(self.rotation())
        return {
            "size": list(self.size),
            "field_of_view_deg": FIELD_OF_VIEW_DEG,
            "matrix": [[round(v, 4) for v in row] for row in self.matrix().tolist()],
            "distortion": [round(v, 6) for v in self.distortion().tolist()],
            "rvec": [round(v, 6) for v in rvec.ravel().tolist()],
            "tvec_mm": [round(v, 3) for v in self.translation().tolist()],
            "pose": self.pose.to_json(),
        }


def marker_cell_px(quad: Points) -> float:
    """The smallest marker cell of a projected marker, from its shortest side."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(sides.min()) / MARKER_CELLS


def _slack(camera: Camera, scene: Scene, env: Envelope) -> float:
    """How comfortably the camera meets the envelope's demands: >= 0 when it meets them all."""
    w, h = camera.size
    outlines = np.vstack([c.outline() for c in scene.components])
    pixels = camera.project(outlines)
    margin = FRAME_MARGIN * w
    inside = min(
        float(pixels[:, 0].min()) - margin,
        w - 1 - margin - float(pixels[:, 0].max()),
        float(pixels[:, 1].min()) - margin,
        h - 1 - margin - float(pixels[:, 1].max()),
    )
    slack = inside / w
    if env.marker_cells_px is not None:
        quads = [q for c in scene.components for q in c.marker_corners()]
        projected = camera.project(np.vstack(quads)).reshape(-1, 4, 2)
        smallest = min(marker_cell_px(q) for q in projected)
        slack = min(slack, smallest / env.marker_cells_px - 1.0)
    return slack


def _draw(env: Envelope, size: tuple[int, int], scene: Scene, rng: np.random.Generator) -> Camera:
    extent = scene.extent()
    cx, cy = extent.centre
    pose = CameraPose(
        tilt_deg=float(rng.uniform(*env.tilt_deg)),
        yaw_deg=float(rng.uniform(0.0, 360.0)),
        roll_deg=float(rng.uniform(*env.roll_deg)),
        distance_mm=float(rng.uniform(*env.distance_mm)),
        target=(
            cx + float(rng.uniform(-0.05, 0.05)) * extent.w,
            cy + float(rng.uniform(-0.05, 0.05)) * extent.h,
        ),
    )
    return Camera(size, pose, float(rng.uniform(*env.k1)), float(rng.uniform(*env.k2)))


def choose_camera(
    scene: Scene, env: Envelope, size: tuple[int, int], rng: np.random.Generator
) -> tuple[Camera, bool]:
    """The first drawn camera that frames the scene within the envelope (and True), or, when
    none of the attempts does (a table too large for it), the one that came closest (and False)."""
    best: tuple[float, Camera] | None = None
    for _ in range(ATTEMPTS):
        camera = _draw(env, size, scene, rng)
        slack = _slack(camera, scene, env)
        if slack >= 0:
            return camera, True
        if best is None or slack > best[0]:
            best = (slack, camera)
    assert best is not None
    return best[1], False
