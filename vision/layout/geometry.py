"""Plane shapes in millimetres, origin at a component's top-left corner, x right, y down."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Clockwise from the top-left, the order OpenCV gives marker corners in."""
        x, y, w, h = self.x, self.y, self.w, self.h
        return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))

    def inset(self, by: float) -> Rect:
        return Rect(self.x + by, self.y + by, self.w - 2 * by, self.h - 2 * by)

    def contains(self, other: Rect) -> bool:
        eps = 1e-9
        return (
            other.x >= self.x - eps
            and other.y >= self.y - eps
            and other.x + other.w <= self.x + self.w + eps
            and other.y + other.h <= self.y + self.h + eps
        )

    def overlaps(self, other: Rect) -> bool:
        return not (
            other.x >= self.x + self.w
            or other.x + other.w <= self.x
            or other.y >= self.y + self.h
            or other.y + other.h <= self.y
        )

    def to_json(self) -> dict[str, Any]:
        return {"rect": [round(v, 3) for v in (self.x, self.y, self.w, self.h)]}


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float

    @property
    def bounds(self) -> Rect:
        return Rect(self.cx - self.r, self.cy - self.r, 2 * self.r, 2 * self.r)

    def to_json(self) -> dict[str, Any]:
        return {"circle": [round(v, 3) for v in (self.cx, self.cy, self.r)]}


@dataclass(frozen=True)
class Hexagon:
    """A pointy-top hexagon: ``r`` is the distance from the centre to each corner."""

    cx: float
    cy: float
    r: float

    def corners(self) -> tuple[Point, ...]:
        return tuple(
            (
                self.cx + self.r * math.cos(math.radians(60 * k - 90)),
                self.cy + self.r * math.sin(math.radians(60 * k - 90)),
            )
            for k in range(6)
        )

    @property
    def bounds(self) -> Rect:
        half_w = self.r * math.sqrt(3) / 2
        return Rect(self.cx - half_w, self.cy - self.r, 2 * half_w, 2 * self.r)

    def to_json(self) -> dict[str, Any]:
        return {"hexagon": [round(v, 3) for v in (self.cx, self.cy, self.r)]}


@dataclass(frozen=True)
class Triangle:
    """A tile's edge region: the triangle from one tile side to the tile's centre."""

    a: Point
    b: Point
    c: Point

    @property
    def bounds(self) -> Rect:
        xs, ys = (self.a[0], self.b[0], self.c[0]), (self.a[1], self.b[1], self.c[1])
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    def to_json(self) -> dict[str, Any]:
        return {"triangle": [[round(v, 3) for v in p] for p in (self.a, self.b, self.c)]}


Shape = Rect | Circle | Hexagon | Triangle


def bounds(shape: Shape) -> Rect:
    return shape if isinstance(shape, Rect) else shape.bounds
