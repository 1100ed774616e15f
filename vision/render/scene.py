"""The scene on the table, in table millimetres: every component with its pose.

The table frame is the printed components' own: x right, y down (towards the player), origin
anywhere; a component's pose maps its own millimetres (origin at its top-left) to the table's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.layout.geometry import Point, Rect
from vision.layout.model import Layout
from vision.render.plan import FillPlan

Points = NDArray[np.float64]  # (n, 2)


@dataclass(frozen=True)
class Pose:
    """A rigid placement: rotate by ``angle_deg`` (clockwise, as y points down), then move."""

    x: float
    y: float
    angle_deg: float = 0.0

    def matrix(self) -> NDArray[np.float64]:
        """The 2x3 affine matrix from component to table millimetres."""
        a = math.radians(self.angle_deg)
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, -s, self.x], [s, c, self.y]])

    def apply(self, points: Points | list[Point] | tuple[Point, ...]) -> Points:
        p = np.asarray(points, np.float64).reshape(-1, 2)
        m = self.matrix()
        return p @ m[:, :2].T + m[:, 2]

    def then(self, inner: Pose) -> Pose:
        """This pose applied after ``inner``: ``inner`` places a child in this pose's frame."""
        ((x, y),) = self.apply([(inner.x, inner.y)])
        return Pose(float(x), float(y), self.angle_deg + inner.angle_deg)


@dataclass(frozen=True)
class Placed:
    """A printed component on the table; a piece names the board and place it lies in."""

    layout: Layout
    pose: Pose
    position: int  # which position of the table it belongs to
    board: str | None = None  # the board's layout key, for a piece
    place: str | None = None
    quarter_turns: int = 0
    fills: tuple[FillPlan, ...] = ()  # cells coloured in on a sheet

    def outline(self) -> Points:
        """The outline's corners on the table, clockwise from the component's own top-left."""
        return self.pose.apply(self.layout.outline.corners())

    def marker_corners(self) -> list[Points]:
        return [self.pose.apply(m.rect.corners()) for m in self.layout.markers]


@dataclass(frozen=True)
class PlacedChip:
    chip: str
    centre: Point  # table mm
    radius: float
    board: str
    slot: str


@dataclass(frozen=True)
class Scene:
    boards: tuple[Placed, ...]
    pieces: tuple[Placed, ...]
    chips: tuple[PlacedChip, ...]

    @property
    def components(self) -> tuple[Placed, ...]:
        return self.boards + self.pieces

    def extent(self) -> Rect:
        """The table area the components cover."""
        corners = np.vstack([c.outline() for c in self.components])
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        return Rect(float(lo[0]), float(lo[1]), float(hi[0] - lo[0]), float(hi[1] - lo[1]))
