"""Things in the way: a hand reaching over a board's corner, a cup standing on the table.

Both are solid bodies above the table, seen through the same camera as everything else, with
their shadows on the table. Their silhouette in the image is the occlusion mask the truth uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.images import Image
from vision.layout.geometry import Point
from vision.render.camera import Camera
from vision.render.photo import Lighting
from vision.render.scene import Points, Scene
from vision.render.warp import Frame

SHIFT = 4
SKINS = ((95, 130, 190), (120, 160, 220), (60, 90, 140), (80, 120, 175))  # BGR
CUPS = ((235, 235, 235), (60, 60, 170), (150, 90, 40), (90, 170, 200))
COFFEE = (25, 45, 70)
HAND_LIFT_MM = 20.0  # a hand hovers a little above the board
CUP_HEIGHT_MM = 90.0


@dataclass(frozen=True)
class Occluder:
    kind: str  # "hand" or "cup"
    centre: Point  # table mm
    radius_mm: float
    colour: tuple[int, int, int]  # BGR
    # A hand's shape: harmonic amplitudes and phases of its outline, and where it reaches from.
    shape: tuple[float, ...] = ()
    facing_deg: float = 0.0
    filled: bool = False  # a cup with coffee in it

    def outline(self) -> Points:
        """The silhouette's edge on (or above) the table, table mm."""
        angles = np.linspace(0.0, 2 * math.pi, 72, endpoint=False)
        if self.kind == "hand":
            radius = np.full_like(angles, self.radius_mm)
            for k, (amp, phase) in enumerate(zip(self.shape[::2], self.shape[1::2], strict=True)):
                radius *= 1.0 + amp * np.cos((k + 2) * angles + phase)
            # Stretched along the arm: a hand is longer than it is wide.
            stretch = 1.0 + 0.45 * np.cos(angles - math.radians(self.facing_deg)) ** 2
            radius = radius * stretch
        else:
            radius = np.full_like(angles, self.radius_mm)
        x = self.centre[0] + radius * np.cos(angles)
        y = self.centre[1] + radius * np.sin(angles)
        return np.column_stack([x, y])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "centre_mm": [round(v, 3) for v in self.centre],
            "radius_mm": round(self.radius_mm, 3),
            "colour_bgr": list(self.colour),
        }
        if self.kind == "cup":
            out["filled"] = self.filled
        return out


def choose_occluders(scene: Scene, rng: np.random.Generator) -> tuple[Occluder, ...]:
    """A hand over one corner of one board, and, one time in two, a cup on the table."""
    hand = hand_over(scene, int(rng.integers(len(scene.boards))), rng)
    if rng.random() < 0.5:
        return (hand,)
    extent = scene.extent()
    spot = (
        float(extent.x + rng.uniform(0.1, 0.9) * extent.w),
        float(extent.y + rng.uniform(0.1, 0.9) * extent.h),
    )
    cup = Occluder(
        "cup",
        spot,
        float(rng.uniform(38.0, 45.0)),
        CUPS[int(rng.integers(len(CUPS)))],
        filled=bool(rng.random() < 0.7),
    )
    return hand, cup


def hand_over(scene: Scene, board_index: int, rng: np.random.Generator) -> Occluder:
    """A hand reaching over one corner of the scene's board ``board_index``."""
    board = scene.boards[board_index]
    corners = board.outline()
    corner = corners[int(rng.integers(4))]
    middle = corners.mean(axis=0)
    outward = corner - middle
    outward /= np.linalg.norm(outward)
    centre = corner + outward * rng.uniform(-10.0, 25.0)
    shape = tuple(
        float(v) for k in range(3) for v in (rng.uniform(0.0, 0.12), rng.uniform(0, 2 * math.pi))
    )
    return Occluder(
        "hand",
        (float(centre[0]), float(centre[1])),
        float(rng.uniform(45.0, 60.0)),
        SKINS[int(rng.integers(len(SKINS)))],
        shape,
        math.degrees(math.atan2(outward[1], outward[0])),
    )


def _fill(shape: tuple[int, int], pixels: Points) -> Image:
    mask = np.zeros(shape, np.uint8)
    polygon = np.round(pixels * (1 << SHIFT)).astype(np.int32)
    cv2.fillPoly(mask, [polygon], 255, cv2.LINE_AA, SHIFT)
    return mask


def _lay(frame: Frame, mask: Image, colour: np.ndarray[Any, Any], soften: float) -> None:
    a = cv2.GaussianBlur(mask, (0, 0), soften).astype(np.float32)[:, :, None] / 255.0
    frame *= 1.0 - a
    frame += colour * a


def _lifted(points: Points, height: float) -> Points:
    return np.column_stack([points, np.full(len(points), -height)])


def _box(points: Points, shape: tuple[int, ...], pad: int) -> tuple[int, int, int, int] | None:
    h, w = shape[:2]
    x0 = max(0, math.floor(points[:, 0].min()) - pad)
    y0 = max(0, math.floor(points[:, 1].min()) - pad)
    x1 = min(w, math.ceil(points[:, 0].max()) + pad)
    y1 = min(h, math.ceil(points[:, 1].max()) + pad)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def draw_occluders(
    frame: Frame, camera: Camera, occluders: tuple[Occluder, ...], lighting: Lighting
) -> Image:
    """Draw ``occluders`` into ``frame`` (in place); returns their silhouette mask (0 or 255).
    Each is drawn within the box its shadow and body project to, not over the whole frame."""
    silhouette = np.zeros(frame.shape[:2], np.uint8)
    a = math.radians(lighting.light_deg)
    away = -np.array([math.cos(a), math.sin(a)])
    for occluder in occluders:
        outline = occluder.outline()
        lift = HAND_LIFT_MM if occluder.kind == "hand" else CUP_HEIGHT_MM
        shadow = camera.project(outline + away * lift * 0.6)
        if occluder.kind == "hand":
            bodies = [camera.project(_lifted(outline, HAND_LIFT_MM))]
        else:
            base = camera.project(outline * 0.85 + np.asarray(occluder.centre) * 0.15)
            rim = camera.project(_lifted(outline, CUP_HEIGHT_MM))
            hull = cv2.convexHull(np.vstack([base, rim]).astype(np.float32)).reshape(-1, 2)
            inner_outline = outline * 0.88 + np.asarray(occluder.centre) * 0.12
            inner = camera.project(_lifted(inner_outline, CUP_HEIGHT_MM - 2.0))
            bodies = [hull.astype(np.float64), rim, inner]
        box = _box(np.vstack([shadow, *bodies]), frame.shape, 30)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        view, shape = frame[y0:y1, x0:x1], (y1 - y0, x1 - x0)
        shift = np.array([x0, y0], np.float64)
        dark = cv2.GaussianBlur(_fill(shape, shadow - shift), (0, 0), 6.0)
        view *= 1.0 - lighting.shadow_strength * dark.astype(np.float32)[:, :, None] / 255.0
        colour = np.asarray(occluder.colour, np.float32)
        body = _fill(shape, bodies[0] - shift)
        if occluder.kind == "hand":
            # Rounder towards the middle: a hand's edges turn away from the light.
            inside = cv2.distanceTransform((body > 127).astype(np.uint8), cv2.DIST_L2, 5)
            shade = 0.72 + 0.28 * np.clip(inside / 25.0, 0.0, 1.0)
            _lay(view, body, shade[:, :, None] * colour, 1.2)
        else:
            _lay(view, body, colour * 0.8, 0.8)
            _lay(view, _fill(shape, bodies[1] - shift), colour, 0.8)
            inside = np.asarray(COFFEE if occluder.filled else occluder.colour, np.float32)
            tint = inside * (1.0 if occluder.filled else 0.7)
            _lay(view, _fill(shape, bodies[2] - shift), tint, 0.8)
        silhouette[y0:y1, x0:x1] |= np.where(body > 127, 255, 0).astype(np.uint8)
    return silhouette
