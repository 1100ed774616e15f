"""The truth of a render: where each board, piece, marker, chip and coloured cell landed in the
image, what covers it, and every parameter that made the photo."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from vision.images import Image
from vision.layout.geometry import Circle, Hexagon, Rect, Shape
from vision.render.camera import Camera, marker_cell_px
from vision.render.scene import Placed, Points, Scene

OCCLUDED = 0.01  # the share of a marker hidden before it counts as occluded
# A place's middle: its outline shrunk to this share about its centre. Readers look there first
# (a chip in a 9 mm ring is read within 4.95 mm of its centre), so an occluder over a place's
# edge alone may hide nothing that decides it.
MIDDLE = 0.55


def _pixels(points: Points) -> list[list[float]]:
    return [[round(float(x), 3), round(float(y), 3)] for x, y in points]


def _in_frame(points: Points, size: tuple[int, int]) -> bool:
    w, h = size
    return bool(
        (points[:, 0] >= 0).all()
        and (points[:, 0] <= w - 1).all()
        and (points[:, 1] >= 0).all()
        and (points[:, 1] <= h - 1).all()
    )


def covered(polygon: Points, silhouette: Image) -> float:
    """The share of the in-frame part of ``polygon`` (px) that ``silhouette`` hides."""
    h, w = silhouette.shape
    x0 = max(0, math.floor(polygon[:, 0].min()))
    y0 = max(0, math.floor(polygon[:, 1].min()))
    x1 = min(w, math.ceil(polygon[:, 0].max()) + 1)
    y1 = min(h, math.ceil(polygon[:, 1].max()) + 1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round((polygon - (x0, y0)) * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    area = int(inside.sum())
    if area == 0:
        return 0.0
    hidden = int(np.count_nonzero(inside & (silhouette[y0:y1, x0:x1] > 0)))
    return round(hidden / area, 4)


def _component(placed: Placed, camera: Camera, silhouette: Image) -> dict[str, Any]:
    layout = placed.layout
    corners = camera.project(placed.outline())
    markers = []
    for spec, quad in zip(layout.markers, placed.marker_corners(), strict=True):
        pixels = camera.project(quad)
        share = covered(pixels, silhouette)
        markers.append(
            {
                "id": spec.id,
                "role": spec.role,
                "corners": _pixels(pixels),
                "in_frame": _in_frame(pixels, camera.size),
                "occluded": share >= OCCLUDED,
                "covered": share,
                "cell_px": round(marker_cell_px(pixels), 3),
            }
        )
    share = covered(corners, silhouette)
    return {
        "key": layout.key,
        "game": layout.game,
        "kind": layout.kind,
        "seat": layout.seat,
        "position": placed.position,
        "board": placed.board,
        "place": placed.place,
        "quarter_turns": placed.quarter_turns,
        "pose_mm": {
            "x": round(placed.pose.x, 3),
            "y": round(placed.pose.y, 3),
            "angle_deg": round(placed.pose.angle_deg, 3),
        },
        "corners": _pixels(corners),
        "in_frame": _in_frame(corners, camera.size),
        "occluded": share >= OCCLUDED,
        "covered": share,
        "markers": markers,
    }


def _cells(scene: Scene, camera: Camera) -> list[dict[str, Any]]:
    cells = []
    for board in scene.boards:
        for fill in board.fills:
            hexagon = board.layout.region(fill.cell).shape
            assert isinstance(hexagon, Hexagon)
            (centre,) = camera.project(board.pose.apply([(hexagon.cx, hexagon.cy)]))
            cells.append(
                {
                    "board": board.layout.key,
                    "cell": fill.cell,
                    "colour": fill.colour,
                    "centre": _pixels(np.array([centre]))[0],
                }
            )
    return cells


def _outline(shape: Shape) -> list[tuple[float, float]]:
    if isinstance(shape, Circle):
        turns = np.linspace(0.0, 2 * math.pi, 24, endpoint=False)
        return [(shape.cx + shape.r * math.cos(t), shape.cy + shape.r * math.sin(t)) for t in turns]
    if isinstance(shape, Rect | Hexagon):
        return list(shape.corners())
    return [shape.a, shape.b, shape.c]


def _covered_regions(scene: Scene, camera: Camera, silhouette: Image) -> list[dict[str, Any]]:
    """Every place on a board that an occluder hides part of: what a reader may rightly refuse."""
    regions: list[dict[str, Any]] = []
    if not silhouette.any():
        return regions
    for board in scene.boards:
        # The Isle sheet's pencil key is no place of the game: nothing is read or scored there.
        for region in (r for r in board.layout.regions if r.role != "key"):
            outline = np.asarray(_outline(region.shape), np.float64)
            share = covered(camera.project(board.pose.apply(outline)), silhouette)
            if share > 0:
                centre = outline.mean(axis=0)
                middle = centre + (outline - centre) * MIDDLE
                regions.append(
                    {
                        "board": board.layout.key,
                        "region": region.name,
                        "covered": share,
                        "covered_middle": covered(
                            camera.project(board.pose.apply(middle)), silhouette
                        ),
                    }
                )
    return regions


def _chips(scene: Scene, camera: Camera) -> list[dict[str, Any]]:
    chips = []
    for chip in scene.chips:
        x, y = chip.centre
        centre, edge = camera.project(np.array([[x, y], [x + chip.radius, y]]))
        chips.append(
            {
                "chip": chip.chip,
                "board": chip.board,
                "slot": chip.slot,
                "centre": _pixels(np.array([centre]))[0],
                "radius_px": round(float(np.linalg.norm(edge - centre)), 3),
            }
        )
    return chips


def truth(
    positions: tuple[Any, ...],
    scene: Scene,
    camera: Camera,
    silhouette: Image,
    parameters: dict[str, Any],
) -> dict[str, Any]:
    return {
        "positions": list(positions),
        "size": list(camera.size),
        "components": [_component(p, camera, silhouette) for p in scene.components],
        "chips": _chips(scene, camera),
        "cells": _cells(scene, camera),
        "covered_regions": _covered_regions(scene, camera, silhouette),
        "render": {"camera": camera.to_json(), **parameters},
    }
