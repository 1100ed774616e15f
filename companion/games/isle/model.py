"""Isle of Colors values: colours, scoring conditions, an island's geometry and a filled sheet.

An island is data (``companion/content/isle.json``): a set of cells. Inside, cells are numbered
0..n-1 in row-major order so that sets of cells can be held as bit masks (bit i = cell i); the
rules engine, the move search and the advisor all share these precomputed tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType

from companion.games.isle.hexgrid import Axis, Cell, distance, neighbours, step

SIDES = 6


class Colour(StrEnum):
    GREEN = "green"
    BLUE = "blue"
    BROWN = "brown"
    RED = "red"


class Condition(StrEnum):
    GRASS = "grass"
    FOREST = "forest"
    SWAMP = "swamp"
    SHORE = "shore"
    RIVER = "river"
    FJORDS = "fjords"
    BEACH = "beach"
    DESERT = "desert"
    CAVES = "caves"
    HAMLET = "hamlet"
    VILLAGE = "village"
    TOWN = "town"

    @property
    def colour(self) -> Colour:
        return next(c for c, conditions in CONDITIONS.items() if self in conditions)


CONDITIONS: Mapping[Colour, tuple[Condition, ...]] = MappingProxyType(
    {
        Colour.GREEN: (Condition.GRASS, Condition.FOREST, Condition.SWAMP),
        Colour.BLUE: (Condition.SHORE, Condition.RIVER, Condition.FJORDS),
        Colour.BROWN: (Condition.BEACH, Condition.DESERT, Condition.CAVES),
        Colour.RED: (Condition.HAMLET, Condition.VILLAGE, Condition.TOWN),
    }
)


@dataclass(frozen=True)
class Conditions:
    """The scoring condition in play for each colour (one per colour, of that colour)."""

    green: Condition
    blue: Condition
    brown: Condition
    red: Condition

    def __post_init__(self) -> None:
        for colour in Colour:
            if self.of(colour).colour is not colour:
                raise ValueError(f"{self.of(colour)} is not a {colour} condition")

    def of(self, colour: Colour) -> Condition:
        condition: Condition = getattr(self, colour.value)
        return condition

    def items(self) -> Iterator[tuple[Colour, Condition]]:
        return ((colour, self.of(colour)) for colour in Colour)

    @staticmethod
    def from_mapping(chosen: Mapping[Colour, Condition]) -> Conditions:
        return Conditions(
            chosen[Colour.GREEN], chosen[Colour.BLUE], chosen[Colour.BROWN], chosen[Colour.RED]
        )


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Island:
    """The cells of one island sheet, with its neighbour, edge and line tables."""

    id: str
    name: str
    cells: tuple[Cell, ...]

    def __post_init__(self) -> None:
        if not self.cells:
            raise ValueError("an island has at least one cell")
        if list(self.cells) != sorted(set(self.cells)):
            raise ValueError("island cells must be unique and in row-major order")

    @cached_property
    def index(self) -> Mapping[Cell, int]:
        return MappingProxyType({cell: i for i, cell in enumerate(self.cells)})

    def __contains__(self, cell: object) -> bool:
        return cell in self.index

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell index, the indices of its neighbours on the island."""
        return tuple(
            tuple(self.index[n] for n in neighbours(cell) if n in self.index) for cell in self.cells
        )

    @cached_property
    def neighbour_masks(self) -> tuple[int, ...]:
        return tuple(sum(1 << j for j in around) for around in self.neighbours)

    @cached_property
    def all_mask(self) -> int:
        return (1 << len(self.cells)) - 1

    @cached_property
    def edge_mask(self) -> int:
        """Edge cells: fewer than six neighbours on the island."""
        return sum(1 << i for i, around in enumerate(self.neighbours) if len(around) < SIDES)

    @cached_property
    def near_masks(self) -> tuple[int, ...]:
        """For each cell, the island cells within hex distance 2 of it (itself included)."""
        return tuple(
            sum(1 << j for j, other in enumerate(self.cells) if distance(cell, other) <= 2)
            for cell in self.cells
        )

    @cached_property
    def axis_next(self) -> Mapping[Axis, tuple[int, ...]]:
        """For each axis and cell, the index of the next island cell along it, or -1."""
        return MappingProxyType(
            {
                axis: tuple(self.index.get(step(cell, axis), -1) for cell in self.cells)
                for axis in Axis
            }
        )

    @cached_property
    def axis_previous(self) -> Mapping[Axis, tuple[int, ...]]:
        return MappingProxyType(
            {
                axis: tuple(self.index.get(step(cell, axis, -1), -1) for cell in self.cells)
                for axis in Axis
            }
        )

    def lines(self, axis: Axis) -> tuple[tuple[Cell, ...], ...]:
        """The maximal straight lines of island cells along ``axis``, each in axis order."""
        nxt, prev = self.axis_next[axis], self.axis_previous[axis]
        found = []
        for start in range(len(self.cells)):
            if prev[start] != -1:
                continue
            line, i = [], start
            while i != -1:
                line.append(self.cells[i])
                i = nxt[i]
            found.append(tuple(line))
        return tuple(found)

    def mask_of(self, cells: Iterable[Cell]) -> int:
        return sum(1 << self.index[cell] for cell in set(cells))

    def cells_of(self, mask: int) -> tuple[Cell, ...]:
        return tuple(self.cells[i] for i in bits(mask))

    def dilate(self, mask: int) -> int:
        """Every island cell next to a cell of ``mask`` (``mask`` itself not added)."""
        around = 0
        for i in bits(mask):
            around |= self.neighbour_masks[i]
        return around

    def component(self, mask: int, seed: int) -> int:
        """The connected part of ``mask`` that holds cell index ``seed``."""
        group = frontier = 1 << seed
        while frontier:
            frontier = self.dilate(frontier) & mask & ~group
            group |= frontier
        return group

    def components(self, mask: int) -> tuple[int, ...]:
        """The connected parts of ``mask``, ordered by their lowest cell index."""
        found = []
        rest = mask
        while rest:
            group = self.component(rest, (rest & -rest).bit_length() - 1)
            found.append(group)
            rest &= ~group
        return tuple(found)


@dataclass(frozen=True)
class Sheet:
    """One player's island sheet: the colour filled into each cell (``None`` = empty)."""

    island: Island
    fills: tuple[Colour | None, ...]

    def __post_init__(self) -> None:
        if len(self.fills) != len(self.island.cells):
            raise ValueError(f"{len(self.fills)} fills for {len(self.island.cells)} cells")

    @staticmethod
    def empty(island: Island) -> Sheet:
        return Sheet(island, (None,) * len(island.cells))

    @staticmethod
    def from_cells(island: Island, filled: Mapping[Cell, Colour]) -> Sheet:
        fills: list[Colour | None] = [None] * len(island.cells)
        for cell, colour in filled.items():
            fills[island.index[cell]] = colour
        return Sheet(island, tuple(fills))

    def at(self, cell: Cell) -> Colour | None:
        return self.fills[self.island.index[cell]]

    @cached_property
    def masks(self) -> Mapping[Colour, int]:
        found = dict.fromkeys(Colour, 0)
        for i, colour in enumerate(self.fills):
            if colour is not None:
                found[colour] |= 1 << i
        return MappingProxyType(found)

    @cached_property
    def empty_mask(self) -> int:
        filled = 0
        for mask in self.masks.values():
            filled |= mask
        return self.island.all_mask & ~filled

    def filled(self) -> tuple[tuple[Cell, Colour], ...]:
        return tuple(
            (cell, colour)
            for cell, colour in zip(self.island.cells, self.fills, strict=True)
            if colour is not None
        )

    def groups(self, colour: Colour) -> tuple[tuple[Cell, ...], ...]:
        """The groups (maximal connected same-colour sets) of ``colour``."""
        return tuple(self.island.cells_of(g) for g in self.island.components(self.masks[colour]))

    def with_fill(self, mask: int, colour: Colour) -> Sheet:
        """The sheet with the cells of ``mask`` (which must be empty) filled with ``colour``."""
        if mask & ~self.empty_mask:
            raise ValueError("cannot fill a cell that is not empty")
        fills = list(self.fills)
        for i in bits(mask):
            fills[i] = colour
        return Sheet(self.island, tuple(fills))
