"""Composing the scene in table space: one image of everything on the table, before the camera.

The canvas holds colour premultiplied by coverage, and the coverage itself, so the table top
(drawn later, for the whole view) shows wherever nothing lies. Boards go down first, then each
board's shadowed pieces, then the chips; every shadow falls away from the light and is blurred
as soft light blurs it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.images import Image
from vision.layout.geometry import Rect
from vision.layout.inks import INKS
from vision.render.scene import Placed, PlacedChip, Points, Scene

SHIFT = 4  # fractional bits of OpenCV's sub-pixel drawing
MARGIN_MM = 20.0  # around the scene, for the shadows
# How far each kind of component stands off the table, which sets its shadow's offset (mm).
HEIGHTS: Mapping[str, float] = MappingProxyType(
    {"tile": 2.0, "art-card": 0.4, "shade": 0.4, "fault": 0.4}
)
BOARD_HEIGHT = 1.0
CHIP_HEIGHT = 2.5

Drawn = Callable[[Placed], Image]  # a component's face at the canvas's resolution


@dataclass(frozen=True)
class Shading:
    """What the light does on the table: where it comes from and how dark its shadows are."""

    light_deg: float  # the direction the light comes from, in the table frame
    strength: float  # a full shadow's darkening, 0..1
    softness_mm: float  # the blur of a shadow's edge


@dataclass(frozen=True)
class Canvas:
    origin: tuple[float, float]  # the table mm at pixel (0, 0)
    ppm: float
    colour: Image  # BGR premultiplied by coverage
    alpha: Image  # coverage, 0..255


class _Layer:
    """The canvas while it is being composed, in floating point."""

    def __init__(self, extent: Rect, ppm: float) -> None:
        self.origin = (extent.x - MARGIN_MM, extent.y - MARGIN_MM)
        self.ppm = ppm
        w = math.ceil((extent.w + 2 * MARGIN_MM) * ppm)
        h = math.ceil((extent.h + 2 * MARGIN_MM) * ppm)
        self.colour = np.zeros((h, w, 3), np.float32)
        self.alpha = np.zeros((h, w), np.float32)

    def px(self, points: Points) -> Points:
        return np.asarray((np.asarray(points) - np.asarray(self.origin)) * self.ppm, np.float64)

    def roi(self, points: Points, pad_px: float) -> tuple[int, int, int, int] | None:
        """The canvas box (x0, y0, x1, y1) around ``points`` px, or None when off the canvas."""
        h, w = self.alpha.shape
        x0 = max(0, math.floor(points[:, 0].min() - pad_px))
        y0 = max(0, math.floor(points[:, 1].min() - pad_px))
        x1 = min(w, math.ceil(points[:, 0].max() + pad_px) + 1)
        y1 = min(h, math.ceil(points[:, 1].max() + pad_px) + 1)
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None

    def over(
        self,
        box: tuple[int, int, int, int],
        colour: NDArray[np.float32],
        cover: NDArray[np.float32],
    ) -> None:
        """Lay ``colour`` (not premultiplied) with ``cover`` (0..1) over the box."""
        x0, y0, x1, y1 = box
        a = cover[:, :, None]
        self.colour[y0:y1, x0:x1] = colour * a + self.colour[y0:y1, x0:x1] * (1.0 - a)
        self.alpha[y0:y1, x0:x1] = cover + self.alpha[y0:y1, x0:x1] * (1.0 - cover)

    def shadow(self, outlines: Sequence[Points], height_mm: float, shading: Shading) -> None:
        """The blurred shadows of ``outlines`` (table mm), cast ``height_mm`` off the table."""
        a = math.radians(shading.light_deg)
        offset = -height_mm * np.array([math.cos(a), math.sin(a)])
        sigma = shading.softness_mm * (0.5 + height_mm / 2) * self.ppm
        polygons = [self.px(o + offset) for o in outlines]
        box = self.roi(np.vstack(polygons), 3 * sigma + 2)
        if box is None:
            return
        x0, y0, x1, y1 = box
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for polygon in polygons:
            fixed = np.round((polygon - (x0, y0)) * (1 << SHIFT)).astype(np.int32)
            cv2.fillConvexPoly(mask, fixed, 255, cv2.LINE_AA, SHIFT)
        soft = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), max(sigma, 0.5))
        black = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        self.over(box, black, soft * shading.strength)

    def paste(self, face: Image, placed: Placed) -> None:
        """A component's face, drawn at this canvas's resolution, laid at its pose."""
        corners = self.px(placed.outline())
        box = self.roi(corners, 2)
        if box is None:
            return
        x0, y0, x1, y1 = box
        m = placed.pose.matrix()
        ox, oy = self.origin
        to_box = np.array(
            [
                [m[0, 0], m[0, 1], (m[0, 2] - ox) * self.ppm - x0],
                [m[1, 0], m[1, 1], (m[1, 2] - oy) * self.ppm - y0],
            ]
        )
        size = (x1 - x0, y1 - y0)
        colour = cv2.warpAffine(face, to_box, size, flags=cv2.INTER_LINEAR)
        solid = np.full(face.shape[:2], 255, np.uint8)
        cover = cv2.warpAffine(solid, to_box, size, flags=cv2.INTER_LINEAR)
        self.over(box, colour.astype(np.float32), cover.astype(np.float32) / 255.0)

    def chip(self, chip: PlacedChip, shading: Shading) -> None:
        """A chip seen from above: a disc of its ink, its rim lit on the light's side."""
        (cx, cy), r = self.px(np.array([chip.centre]))[0], chip.radius * self.ppm
        box = self.roi(np.array([[cx - r, cy - r], [cx + r, cy + r]]), 2)
        if box is None:
            return
        x0, y0, x1, y1 = box
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        dx, dy = (xs - cx) / r, (ys - cy) / r
        d = np.sqrt(dx * dx + dy * dy)
        cover = np.clip((1.0 - d) * r + 0.5, 0.0, 1.0)
        a = math.radians(shading.light_deg)
        facing = dx * math.cos(a) + dy * math.sin(a)  # +1 on the rim nearest the light
        rim = np.clip((d - 0.7) / 0.3, 0.0, 1.0) ** 2
        spot = np.exp(-((dx - 0.45 * math.cos(a)) ** 2 + (dy - 0.45 * math.sin(a)) ** 2) / 0.08)
        light = 1.0 + 0.22 * facing * rim - 0.12 * rim + 0.10 * spot
        red, green, blue = INKS[chip.chip]
        ink = np.array([blue, green, red], np.float32)
        colour = np.clip(light[:, :, None] * ink, 0.0, 255.0)
        self.over(box, colour, cover)

    def finish(self) -> Canvas:
        colour = np.clip(np.round(self.colour), 0, 255).astype(np.uint8)
        alpha = np.clip(np.round(self.alpha * 255.0), 0, 255).astype(np.uint8)
        return Canvas(self.origin, self.ppm, colour, alpha)


def _disc(chip: PlacedChip) -> Points:
    angles = np.linspace(0.0, 2 * math.pi, 24, endpoint=False)
    return np.column_stack(
        [
            chip.centre[0] + chip.radius * np.cos(angles),
            chip.centre[1] + chip.radius * np.sin(angles),
        ]
    )


def compose(scene: Scene, ppm: float, drawn: Drawn, shading: Shading) -> Canvas:
    layer = _Layer(scene.extent(), ppm)
    layer.shadow([b.outline() for b in scene.boards], BOARD_HEIGHT, shading)
    for board in scene.boards:
        layer.paste(drawn(board), board)
    for board in scene.boards:
        pieces = [p for p in scene.pieces if p.board == board.layout.key]
        for piece in pieces:
            layer.shadow([piece.outline()], HEIGHTS.get(piece.layout.kind, 0.4), shading)
            layer.paste(drawn(piece), piece)
    for chip in scene.chips:
        layer.shadow([_disc(chip)], CHIP_HEIGHT, shading)
        layer.chip(chip, shading)
    return layer.finish()
