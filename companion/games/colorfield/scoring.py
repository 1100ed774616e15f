"""Color Field scoring: edge points per tile and side, perfect tiles, and the largest patch.

Pure functions of a Canvas; every point carries the reason it was scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.colorfield.model import (
    ALL_SEGMENTS,
    SPACES,
    Canvas,
    Colour,
    SegmentRef,
    Side,
    neighbour,
)

PATCH_MINIMUM = 3


@dataclass(frozen=True)
class SideScore:
    """One side of one tile: its edge, what it faces, whether it matched, the points."""

    side: Side
    colour: Colour
    multiplier: int
    against: str  # "space N", "top[0]"..., the thing this side faces
    facing: tuple[Colour, ...]  # what that thing shows there (empty: an empty space)
    matched: bool

    @property
    def points(self) -> int:
        return self.multiplier if self.matched else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side.name,
            "color": self.colour.value,
            "multiplier": self.multiplier,
            "against": self.against,
            "facing": [c.value for c in self.facing],
            "matched": self.matched,
            "points": self.points,
        }


@dataclass(frozen=True)
class TileScore:
    space: int
    tile: str
    rotation: int
    sides: tuple[SideScore, SideScore, SideScore, SideScore]

    @property
    def points(self) -> int:
        return sum(s.points for s in self.sides)

    @property
    def perfect(self) -> bool:
        return all(s.matched for s in self.sides)

    def to_json(self) -> dict[str, Any]:
        return {
            "space": self.space,
            "tile": self.tile,
            "rotation": self.rotation,
            "points": self.points,
            "perfect": self.perfect,
            "sides": [s.to_json() for s in self.sides],
        }


@dataclass(frozen=True)
class Patch:
    """The largest patch: a connected same-colour set of tiles and canvas segments."""

    colour: Colour | None
    spaces: tuple[int, ...]
    segments: tuple[SegmentRef, ...]

    @property
    def size(self) -> int:
        return len(self.spaces) + len(self.segments)

    @property
    def points(self) -> int:
        return self.size if self.size >= PATCH_MINIMUM else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "color": self.colour.value if self.colour else None,
            "size": self.size,
            "points": self.points,
            "spaces": list(self.spaces),
            "segments": [str(s) for s in self.segments],
        }


@dataclass(frozen=True)
class CanvasScore:
    tiles: tuple[TileScore, ...]
    patch: Patch

    @property
    def edge_points(self) -> int:
        return sum(t.points for t in self.tiles)

    @property
    def total(self) -> int:
        return self.edge_points + self.patch.points

    @property
    def perfect_tiles(self) -> int:
        return sum(1 for t in self.tiles if t.perfect)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "colorfield",
            "total": self.total,
            "edge_points": self.edge_points,
            "patch": self.patch.to_json(),
            "perfect_tiles": self.perfect_tiles,
            "tiles": [t.to_json() for t in self.tiles],
        }


def score_side(canvas: Canvas, space: int, side: Side) -> SideScore:
    placed = canvas.at(space)
    if placed is None:
        raise ValueError(f"space {space} is empty")
    edge = placed.edge(side)
    beyond = neighbour(space, side)
    if isinstance(beyond, SegmentRef):
        facing: tuple[Colour, ...] = canvas.segment_colours(beyond)
        against = str(beyond)
    else:
        other = canvas.at(beyond)
        facing = () if other is None else (other.edge(side.opposite).colour,)
        against = f"space {beyond}"
    return SideScore(side, edge.colour, edge.multiplier, against, facing, edge.colour in facing)


def score_tile(canvas: Canvas, space: int) -> TileScore:
    placed = canvas.at(space)
    if placed is None:
        raise ValueError(f"space {space} is empty")
    n, e, s, w = (score_side(canvas, space, side) for side in Side)
    return TileScore(space, placed.tile.label(), placed.rotation, (n, e, s, w))


def _find(parent: dict[object, object], node: object) -> object:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def patches(canvas: Canvas, colour: Colour) -> list[Patch]:
    """Every patch of ``colour``: connected components of its graph that have at least one arc."""
    parent: dict[object, object] = {}
    touched: set[object] = set()

    def join(a: object, b: object) -> None:
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        touched.update((a, b))
        ra, rb = _find(parent, a), _find(parent, b)
        if ra != rb:
            parent[ra] = rb

    for space in SPACES:
        placed = canvas.at(space)
        if placed is None:
            continue
        # Each arc is found from its east/south end, or at the border, exactly once.
        for side in Side:
            if placed.edge(side).colour is not colour:
                continue
            beyond = neighbour(space, side)
            if isinstance(beyond, SegmentRef):
                if colour in canvas.segment_colours(beyond):
                    join(space, beyond)
            elif side in (Side.E, Side.S):
                other = canvas.at(beyond)
                if other is not None and other.edge(side.opposite).colour is colour:
                    join(space, beyond)

    components: dict[object, list[object]] = {}
    for node in touched:
        components.setdefault(_find(parent, node), []).append(node)
    result = []
    for members in components.values():
        spaces = tuple(sorted(m for m in members if isinstance(m, int)))
        segments = tuple(s for s in ALL_SEGMENTS if s in members)
        result.append(Patch(colour, spaces, segments))
    # Sets iterate in hash order; sort so ties resolve the same way in every process.
    result.sort(key=lambda p: (-p.size, p.spaces, [ALL_SEGMENTS.index(s) for s in p.segments]))
    return result


def largest_patch(canvas: Canvas) -> Patch:
    """The largest patch over all colours; ties go to the first colour in catalogue order."""
    best = Patch(None, (), ())
    for colour in Colour:
        for patch in patches(canvas, colour):
            if patch.size > best.size:
                best = patch
    return best


def score_canvas(canvas: Canvas) -> CanvasScore:
    tiles = tuple(score_tile(canvas, space) for space in canvas.filled())
    return CanvasScore(tiles, largest_patch(canvas))
