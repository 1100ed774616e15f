"""Cells coloured in by hand: strokes of a pencil or a felt marker, never a flat fill.

Each player has one hand: a tool and a favoured stroke direction. A cell is hatched with
parallel strokes at that angle (a little different each time), of uneven pressure, with some
left short or skipped, inside the hexagon as the hand traced it: wobbling over the printed edge
into the neighbours here and stopping short of it there. The same hand colours the sheet's
pencil key, each hexagon with its own colour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np

from vision.images import Image
from vision.layout.geometry import Hexagon
from vision.layout.model import Layout
from vision.render.pencils import PRINTED, PencilSet
from vision.render.plan import FillPlan
from vision.render.scene import Points

SHIFT = 4  # fractional bits of OpenCV's sub-pixel drawing


@dataclass(frozen=True)
class Tool:
    spacing_mm: tuple[float, float]  # between strokes
    width_mm: tuple[float, float]
    pressure: tuple[float, float]  # how much ink a stroke leaves, 0..1
    skipped: float  # chance a stroke is missed out
    wobble_mm: float  # how far the traced outline strays from the printed one


TOOLS: Mapping[str, Tool] = MappingProxyType(
    {
        "pencil": Tool((0.9, 1.3), (0.5, 0.8), (0.55, 0.9), 0.08, 0.8),
        "marker": Tool((1.6, 2.2), (1.8, 2.6), (0.8, 0.95), 0.03, 1.1),
    }
)


@dataclass(frozen=True)
class Hand:
    tool: str
    angle_deg: float  # the favoured stroke direction

    def to_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "angle_deg": round(self.angle_deg, 3)}


def choose_hand(rng: np.random.Generator) -> Hand:
    tool = "pencil" if rng.random() < 0.6 else "marker"
    return Hand(tool, float(rng.uniform(20.0, 70.0)))


def _traced(hexagon: Hexagon, tool: Tool, rng: np.random.Generator) -> Points:
    """The outline the hand followed: the hexagon with its corners pushed in or out."""
    points = np.asarray(hexagon.corners(), np.float64)
    centre = np.array([hexagon.cx, hexagon.cy])
    out = points - centre
    push = rng.normal(0.2, 0.5, len(points)).clip(-1.0, 1.5) * tool.wobble_mm
    return np.asarray(centre + out * (1.0 + push / hexagon.r)[:, None], np.float64)


def _hatch(
    shape: tuple[int, int],
    origin: tuple[float, float],
    hexagon: Hexagon,
    tool: Tool,
    angle_deg: float,
    ppm: float,
    rng: np.random.Generator,
) -> Image:
    """The strokes' ink (0..255) on a patch of ``shape`` px; its pixel (0, 0) is ``origin`` mm."""
    ink = np.zeros(shape, np.uint8)
    a = math.radians(angle_deg)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    centre = np.array([hexagon.cx - origin[0], hexagon.cy - origin[1]])
    reach = hexagon.r + 2.0
    offset = -reach + rng.uniform(0, tool.spacing_mm[1])
    while offset < reach:
        if rng.random() >= tool.skipped:
            start = -reach * (1.0 - 0.25 * rng.random() * rng.random())
            stop = reach * (1.0 - 0.6 * rng.random() ** 4)  # the pencil sometimes lifts early
            base = centre + offset * across
            p, q = (base + start * along) * ppm, (base + stop * along) * ppm
            width = max(1, round(rng.uniform(*tool.width_mm) * ppm))
            level = round(255 * rng.uniform(*tool.pressure))
            cv2.line(
                ink,
                tuple(np.round(p * (1 << SHIFT)).astype(int)),
                tuple(np.round(q * (1 << SHIFT)).astype(int)),
                level,
                width,
                cv2.LINE_AA,
                SHIFT,
            )
        offset += rng.uniform(*tool.spacing_mm)
    return ink


def key_fills(layout: Layout) -> tuple[FillPlan, ...]:
    """The sheet's pencil key, each hexagon coloured with its own colour's pencil."""
    return tuple(
        FillPlan(region.name, str(region.info["colour"]))
        for region in layout.regions
        if region.role == "key"
    )


def colour_cells(
    image: Image,
    layout: Layout,
    fills: tuple[FillPlan, ...],
    ppm: float,
    hand: Hand,
    rng: np.random.Generator,
    pencils: PencilSet = PRINTED,
) -> Image:
    """A copy of a drawn sheet with ``fills`` (cells or key hexagons) coloured in by ``hand``
    with ``pencils``."""
    out = image.copy()
    tool = TOOLS[hand.tool]
    low, high = tool.pressure
    tool = replace(tool, pressure=(low * pencils.pressure, min(1.0, high * pencils.pressure)))
    rows, cols = out.shape[:2]
    for fill in fills:
        hexagon = layout.region(fill.cell).shape
        assert isinstance(hexagon, Hexagon)
        margin = hexagon.r + 3.0
        x0 = max(0, math.floor((hexagon.cx - margin) * ppm))
        y0 = max(0, math.floor((hexagon.cy - margin) * ppm))
        x1 = min(cols, math.ceil((hexagon.cx + margin) * ppm))
        y1 = min(rows, math.ceil((hexagon.cy + margin) * ppm))
        origin = (x0 / ppm, y0 / ppm)
        angle = hand.angle_deg + float(rng.normal(0.0, 6.0))
        strokes = _hatch((y1 - y0, x1 - x0), origin, hexagon, tool, angle, ppm, rng)
        region = np.zeros_like(strokes)
        outline = (_traced(hexagon, tool, rng) - origin) * ppm * (1 << SHIFT)
        cv2.fillPoly(region, [np.round(outline).astype(np.int32)], 255, cv2.LINE_AA, SHIFT)
        alpha = (strokes.astype(np.float32) * region.astype(np.float32) / 65025.0)[:, :, None]
        r, g, b = pencils.tints[fill.colour]
        tint = np.array([b, g, r], np.float32) / 255.0
        # Ink darkens the paper it lies on (a multiply), as pencil and marker do.
        patch = out[y0:y1, x0:x1].astype(np.float32)
        out[y0:y1, x0:x1] = np.round(patch * (1.0 - alpha + alpha * tint)).astype(np.uint8)
    return out
