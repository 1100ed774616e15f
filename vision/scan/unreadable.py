"""Boards in view that were not read: marker-shaped outlines the detector could not decode.

Under motion blur or from too far away OpenCV still outlines a board's markers but cannot read
their cells, and the board would vanish from the scan. Those outlines that no decoded marker and
no board found explains are kept when shaped like a marker, grouped by proximity, and each group
is reported with its size in pixels per marker cell, so the players are told why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.observation import Unreadable
from vision.fiducials import Marker
from vision.layout.boards import PRINTABLE
from vision.layout.ids import BOARD_MARKER_MM

Quad = NDArray[np.float64]

CELLS = 8  # an AprilTag 36h11 marker is 8 cells across: 6 data cells and the black border
# The cell size the markers are printed for (docs/fiducials.md); under it decoding fails.
NEEDED_PX_PER_CELL = 4.0
# Marker-shaped: OpenCV already drops outlines under 3 % of the photo's longer side in perimeter;
# on blurred renders a board marker's outline stays within 1.2 of square (a 45-degree tilt makes
# 1.4), while the clean renders' rejects are thin slivers of print (3.8 to 8.5).
MIN_SIDE_PX = 10.0
MAX_ELONGATION = 2.0
# A rhombus of four equal sides may still be a thin sliver: under 18-24 px of motion blur, 76 of
# the 180 outlines kept on train renders (seeds 20000-20009) that lay on no marker were slivers of
# wood grain enclosing under 0.4 of their mean side squared, against 4 of 45 board markers' (a
# square encloses 1, a 45-degree rhombus 0.71).
MIN_SQUARENESS = 0.5
# A board marker is 28 mm of a board at most 198 mm high: one over a fifth of the photo's
# shorter side belongs to a board too big to be in view, so is some other square of print.
MAX_SIDE_SHARE = 0.2
# Outlines as close as the largest board's diagonal, measured in their own marker sides, may be
# markers of one board.
BOARD_REACH = math.hypot(*PRINTABLE) / BOARD_MARKER_MM
# Where no marker at all was decoded a single outline is reported: it is all the players have.
# Beside decoded markers a lone square is more likely print than a board.
MIN_GROUP = 2


def unreadable(
    outlines: Sequence[Quad],
    markers: Sequence[Marker],
    boards: Sequence[Quad],
    width: int,
    height: int,
) -> tuple[Unreadable, ...]:
    """The groups of undecoded ``outlines`` (photo px) shaped like markers, away from every
    decoded (or named) marker and every board found (its outline in photo px)."""
    explained = [np.asarray(m.corners, np.float64) for m in markers]
    kept = [
        q
        for q in outlines
        if _marker_shaped(q, min(width, height))
        and not any(_inside(q.mean(axis=0), area) for area in [*explained, *boards])
    ]
    least = 1 if not markers else MIN_GROUP
    return tuple(_described(group) for group in _groups(kept) if len(group) >= least)


def _marker_shaped(quad: Quad, shorter: int) -> bool:
    sides = _sides(quad)
    contour = quad.astype(np.float32).reshape(-1, 1, 2)
    convex = cv2.isContourConvex(contour)
    return bool(
        convex
        and cv2.contourArea(contour) >= MIN_SQUARENESS * float(sides.mean()) ** 2
        and sides.min() >= MIN_SIDE_PX
        and sides.max() <= MAX_ELONGATION * sides.min()
        and sides.max() <= MAX_SIDE_SHARE * shorter
    )


def _inside(point: NDArray[np.float64], area: Quad) -> bool:
    contour = area.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def _groups(quads: Sequence[Quad]) -> list[list[Quad]]:
    """``quads`` joined wherever two centres lie within a board's reach of each other (single
    linkage: a board's far corners are joined through the markers between)."""
    centres = [q.mean(axis=0) for q in quads]
    sides = [float(np.median(_sides(q))) for q in quads]
    group = list(range(len(quads)))

    def root(k: int) -> int:
        while group[k] != k:
            k = group[k]
        return k

    for a in range(len(quads)):
        for b in range(a + 1, len(quads)):
            reach = BOARD_REACH * max(sides[a], sides[b])
            if float(np.linalg.norm(centres[a] - centres[b])) <= reach:
                group[root(b)] = root(a)
    joined: dict[int, list[Quad]] = {}
    for k, quad in enumerate(quads):
        joined.setdefault(root(k), []).append(quad)
    return list(joined.values())


def _described(group: Sequence[Quad]) -> Unreadable:
    points = np.concatenate(group)
    x0, y0 = np.floor(points.min(axis=0)).astype(int)
    x1, y1 = np.ceil(points.max(axis=0)).astype(int)
    cell = float(np.median([_sides(q) for q in group])) / CELLS
    # Large enough cells that still do not decode can only be blurred; small ones may be both.
    if cell >= NEEDED_PX_PER_CELL:
        cause, hint = "too blurred", "the camera or the table moved, or it is out of focus"
    else:
        cause, hint = "too small or too blurred", "the camera may be too far"
    count = f"{len(group)} candidate{'s' if len(group) > 1 else ''}"
    problem = (
        f"markers seen but not decodable: {count} at {cell:.1f} px per marker cell "
        f"({cause}: {hint}; the detector needs about {NEEDED_PX_PER_CELL:.0f})"
    )
    where = (int(x0), int(y0), int(x1 - x0), int(y1 - y0))
    return Unreadable(where, len(group), cell, cause, problem)


def _sides(quad: Quad) -> NDArray[np.float64]:
    return np.asarray(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1), np.float64)
