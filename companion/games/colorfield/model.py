"""Color Field values: colours, tile edges, tiles, canvas boards and a canvas position.

Geometry (games.md section 1): spaces 1..6 row-major on a 2x3 grid; ten canvas segments
(``top`` 3, ``bottom`` 3, ``left`` 2, ``right`` 2), each showing two colours. A tile placed with
rotation r shows, on canvas side s (0=N..3=W), its printed edge (s - r) mod 4.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

SPACES = (1, 2, 3, 4, 5, 6)
ROWS, COLUMNS = 2, 3


class Colour(StrEnum):
    LEMON = "lemon"
    CORAL = "coral"
    NAVY = "navy"
    TURQUOISE = "turquoise"


class Side(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        return Side((self + 2) % 4)

    @property
    def word(self) -> str:
        return ("top", "right", "bottom", "left")[self]


class TileKind(StrEnum):
    """Which deck a catalogue tile belongs to; inline tiles have no kind."""

    FOUNDATION = "foundation"
    ROUND1 = "round1"
    ROUND2 = "round2"
    ROUND3 = "round3"

    @staticmethod
    def for_round(round_number: int) -> TileKind:
        return (TileKind.ROUND1, TileKind.ROUND2, TileKind.ROUND3)[round_number - 1]


@dataclass(frozen=True)
class Edge:
    colour: Colour
    multiplier: int = 1

    def __post_init__(self) -> None:
        if self.multiplier not in (1, 2, 3):
            raise ValueError(f"edge multiplier must be 1, 2 or 3, not {self.multiplier}")


@dataclass(frozen=True)
class Tile:
    """A printed paint tile: edges N, E, S, W; catalogue tiles also have ``id`` and ``kind``."""

    edges: tuple[Edge, Edge, Edge, Edge]
    id: str | None = None
    kind: TileKind | None = None

    def __post_init__(self) -> None:
        if len(self.edges) != 4:
            raise ValueError("a tile has exactly four edges")

    @property
    def up_mark(self) -> bool:
        """Foundation tiles carry an up-mark that must point to the canvas top when primed."""
        return self.kind is TileKind.FOUNDATION

    def label(self) -> str:
        return (
            self.id
            if self.id is not None
            else "/".join(
                f"{e.colour}{'x' + str(e.multiplier) if e.multiplier > 1 else ''}"
                for e in self.edges
            )
        )


@dataclass(frozen=True)
class PlacedTile:
    tile: Tile
    rotation: int = 0

    def __post_init__(self) -> None:
        if self.rotation not in (0, 1, 2, 3):
            raise ValueError(f"rotation must be 0..3 quarter turns, not {self.rotation}")

    def edge(self, side: Side) -> Edge:
        """The printed edge that faces canvas side ``side``."""
        return self.tile.edges[(side - self.rotation) % 4]

    def rotated(self, quarter_turns: int) -> PlacedTile:
        return PlacedTile(self.tile, (self.rotation + quarter_turns) % 4)


Segment = tuple[Colour, Colour]


@dataclass(frozen=True)
class CanvasBoard:
    """The printed board: which two colours each border segment shows."""

    top: tuple[Segment, Segment, Segment]
    bottom: tuple[Segment, Segment, Segment]
    left: tuple[Segment, Segment]
    right: tuple[Segment, Segment]
    id: str | None = None

    def __post_init__(self) -> None:
        for name, count in SEGMENT_COUNTS.items():
            segments = getattr(self, name)
            if len(segments) != count:
                raise ValueError(f"canvas {name} has {count} segments, not {len(segments)}")
            for segment in segments:
                if len(segment) != 2 or segment[0] == segment[1]:
                    raise ValueError(f"canvas {name} segment must show two different colours")

    def segment(self, name: str, index: int) -> Segment:
        segments: tuple[Segment, ...] = getattr(self, name)
        return segments[index]


SEGMENT_COUNTS = {"top": 3, "bottom": 3, "left": 2, "right": 2}


@dataclass(frozen=True)
class SegmentRef:
    """A border segment by side name and index: ``top[1]`` is over space 2."""

    side: str
    index: int

    def __str__(self) -> str:
        return f"{self.side}[{self.index}]"


def space_cell(space: int) -> tuple[int, int]:
    """(row, column) of a space numbered 1..6."""
    return divmod(space - 1, COLUMNS)


def neighbour(space: int, side: Side) -> int | SegmentRef:
    """What lies beyond ``side`` of ``space``: another space number or a border segment."""
    row, col = space_cell(space)
    if side is Side.N:
        return SegmentRef("top", col) if row == 0 else space - COLUMNS
    if side is Side.S:
        return SegmentRef("bottom", col) if row == ROWS - 1 else space + COLUMNS
    if side is Side.W:
        return SegmentRef("left", row) if col == 0 else space - 1
    return SegmentRef("right", row) if col == COLUMNS - 1 else space + 1


ALL_SEGMENTS = tuple(
    SegmentRef(name, index) for name, count in SEGMENT_COUNTS.items() for index in range(count)
)

# What lies beyond each side of each space, computed once: scoring asks this for every side.
NEIGHBOURS: tuple[tuple[int | SegmentRef, ...], ...] = tuple(
    tuple(neighbour(space, side) for side in Side) for space in SPACES
)


@dataclass(frozen=True)
class Canvas:
    """One player's canvas: the board and what lies in each of the six spaces (None = empty)."""

    board: CanvasBoard
    spaces: tuple[PlacedTile | None, ...]

    def __post_init__(self) -> None:
        if len(self.spaces) != len(SPACES):
            raise ValueError(f"a canvas has 6 spaces, not {len(self.spaces)}")

    def at(self, space: int) -> PlacedTile | None:
        return self.spaces[space - 1]

    def with_space(self, space: int, placed: PlacedTile | None) -> Canvas:
        spaces = list(self.spaces)
        spaces[space - 1] = placed
        return Canvas(self.board, tuple(spaces))

    def segment_colours(self, ref: SegmentRef) -> Segment:
        return self.board.segment(ref.side, ref.index)

    def filled(self) -> tuple[int, ...]:
        return tuple(s for s in SPACES if self.at(s) is not None)

    def empty(self) -> tuple[int, ...]:
        return tuple(s for s in SPACES if self.at(s) is None)
