"""Color Field scoring: edge points per tile and side, perfect tiles, and the largest patch.

Pure functions of a Canvas; every point carries the reason it was scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.colorfield.model import (
    ALL_SEGMENTS,
    NEIGHBOURS,
    SPACES,
    Canvas,
    Colour,
    SegmentRef,
    Side,
)

PATCH_MINIMUM = 3
SIDES = tuple(Side)  # iterating the enum class itself is slow on the scoring path


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
    beyond = NEIGHBOURS[space - 1][side]
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
    n, e, s, w = (score_side(canvas, space, side) for side in SIDES)
    return TileScore(space, placed.tile.label(), placed.rotation, (n, e, s, w))


def _find(parent: list[int], node: int) -> int:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


# Graph nodes: spaces 1..6 as 0..5, then the ten segments in ALL_SEGMENTS order as 6..15.
_SEGMENT_NODE = {ref: 6 + i for i, ref in enumerate(ALL_SEGMENTS)}


def _arcs(canvas: Canvas) -> dict[Colour, list[tuple[int, int]]]:
    """Every arc of every colour's graph, each found once, keyed by colour."""
    arcs: dict[Colour, list[tuple[int, int]]] = {}
    for space in SPACES:
        placed = canvas.at(space)
        if placed is None:
            continue
        node = space - 1
        for side, beyond in zip(SIDES, NEIGHBOURS[node], strict=True):
            colour = placed.edge(side).colour
            if isinstance(beyond, SegmentRef):
                if colour in canvas.segment_colours(beyond):
                    arcs.setdefault(colour, []).append((node, _SEGMENT_NODE[beyond]))
            elif side is Side.E or side is Side.S:
                # A tile-tile arc is taken once, from its west or north end.
                other = canvas.at(beyond)
                if other is not None and other.edge(side.opposite).colour is colour:
                    arcs.setdefault(colour, []).append((node, beyond - 1))
    return arcs


def _components(colour: Colour, arcs: list[tuple[int, int]]) -> list[Patch]:
    parent = list(range(6 + len(ALL_SEGMENTS)))
    for a, b in arcs:
        parent[_find(parent, a)] = _find(parent, b)
    components: dict[int, list[int]] = {}
    for node in sorted({n for arc in arcs for n in arc}):
        components.setdefault(_find(parent, node), []).append(node)
    return [
        Patch(
            colour,
            tuple(n + 1 for n in members if n < 6),
            tuple(ALL_SEGMENTS[n - 6] for n in members if n >= 6),
        )
        for members in components.values()
    ]


def patches(canvas: Canvas, colour: Colour) -> list[Patch]:
    """Every patch of ``colour`` (connected components with at least one arc), largest first."""
    found = _components(colour, _arcs(canvas).get(colour, []))
    return sorted(found, key=lambda p: -p.size)


def largest_patch(canvas: Canvas) -> Patch:
    """The largest patch over all colours; ties go to the first colour in catalogue order,
    then to the component holding the lowest-numbered member."""
    best = Patch(None, (), ())
    arcs = _arcs(canvas)
    for colour in Colour:
        for patch in _components(colour, arcs.get(colour, [])):
            if patch.size > best.size:
                best = patch
    return best


def score_canvas(canvas: Canvas) -> CanvasScore:
    tiles = tuple(score_tile(canvas, space) for space in canvas.filled())
    return CanvasScore(tiles, largest_patch(canvas))
