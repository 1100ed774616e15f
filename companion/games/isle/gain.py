"""How much a fill would add to a sheet's score, fast enough to try tens of thousands of fills.

``GainTable`` holds what the scoring conditions need about one sheet (colour masks, their
neighbourhoods, groups) as bit masks, so the score change of filling a connected set S with one
colour is worked out from S and the groups it touches, without rescoring the sheet. It is a
second implementation of the rules in ``scoring``; the tests hold the two to the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from companion.games.isle.hexgrid import Axis
from companion.games.isle.model import Colour, Condition, Conditions, Sheet, bits
from companion.games.isle.scoring import (
    BEACH_POINTS,
    CAVES_FACTOR,
    DESERT_POINTS,
    FJORD_POINTS,
    FJORD_SIZES,
    GRASS_MIN_GROUP,
    GRASS_POINTS,
    HAMLET_POINTS,
    RIVER_FACTOR,
    RIVER_MAX_NEIGHBOURS,
    SWAMP_FACTOR,
    TOWN_POINTS,
    VILLAGE_POINTS,
    score_sheet,
)

GREEN, BLUE, BROWN, RED = Colour.GREEN, Colour.BLUE, Colour.BROWN, Colour.RED

# Which fill colours can change each condition's points; any other fill leaves them alone.
AFFECTED_BY: Mapping[Condition, frozenset[Colour]] = MappingProxyType(
    {
        Condition.GRASS: frozenset({GREEN}),
        Condition.FOREST: frozenset({GREEN, BLUE}),
        Condition.SWAMP: frozenset({GREEN}),
        Condition.SHORE: frozenset({BLUE}),
        Condition.RIVER: frozenset({BLUE}),
        Condition.FJORDS: frozenset({BLUE}),
        Condition.BEACH: frozenset({GREEN, BLUE, BROWN}),
        Condition.DESERT: frozenset({BLUE, BROWN}),
        Condition.CAVES: frozenset({BROWN}),
        Condition.HAMLET: frozenset(Colour),
        Condition.VILLAGE: frozenset(Colour),
        Condition.TOWN: frozenset({RED}),
    }
)


@dataclass(frozen=True)
class Fill:
    """One candidate fill: its cells, its colour and the island cells around it."""

    mask: int
    colour: Colour
    around: int  # island cells next to the fill

    def masks(self, table: GainTable) -> Mapping[Colour, int]:
        return {c: m | self.mask if c is self.colour else m for c, m in table.masks.items()}

    def touching(self, table: GainTable, colour: Colour) -> int:
        """Island cells next to ``colour`` once the fill is in."""
        near = table.touching[colour]
        return near | self.around if colour is self.colour else near


@dataclass(frozen=True)
class GainTable:
    """The score-relevant structure of one sheet under one set of conditions."""

    sheet: Sheet
    conditions: Conditions

    @cached_property
    def masks(self) -> Mapping[Colour, int]:
        return self.sheet.masks

    @cached_property
    def touching(self) -> Mapping[Colour, int]:
        island = self.sheet.island
        return MappingProxyType({c: island.dilate(m) for c, m in self.masks.items()})

    @cached_property
    def groups(self) -> Mapping[Colour, tuple[int, ...]]:
        island = self.sheet.island
        return MappingProxyType({c: island.components(m) for c, m in self.masks.items()})

    @cached_property
    def points(self) -> Mapping[Condition, int]:
        score = score_sheet(self.sheet, self.conditions)
        return MappingProxyType({c.condition: c.points for c in score.colours})

    @cached_property
    def rivers(self) -> frozenset[int]:
        return frozenset(g for g in self.groups[BLUE] if self.is_river(g, g))

    @cached_property
    def near_groups(self) -> Mapping[int, int]:
        return MappingProxyType({g: self.near(g) for g in self.groups[RED]})

    @cached_property
    def hamlets(self) -> int:
        """Red cells next to an empty cell."""
        island = self.sheet.island
        empty = self.sheet.empty_mask
        return sum(1 << i for i in bits(self.masks[RED]) if island.neighbour_masks[i] & empty)

    @cached_property
    def longest_brown_run(self) -> int:
        brown = self.masks[BROWN]
        return max((self.run_through(i, brown) for i in bits(brown)), default=0)

    def is_river(self, group: int, check: int) -> bool:
        """Whether each cell of ``check`` has at most two neighbours in the blue ``group``."""
        masks = self.sheet.island.neighbour_masks
        return all((masks[i] & group).bit_count() <= RIVER_MAX_NEIGHBOURS for i in bits(check))

    def near(self, mask: int) -> int:
        """The island cells within hex distance 2 of a cell of ``mask``."""
        near = 0
        for i in bits(mask):
            near |= self.sheet.island.near_masks[i]
        return near

    def run_through(self, cell: int, brown: int) -> int:
        """The longest straight run of ``brown`` through ``cell`` along any axis."""
        island = self.sheet.island
        best = 0
        for axis in Axis:
            length = 1
            for table in (island.axis_next[axis], island.axis_previous[axis]):
                j = table[cell]
                while j != -1 and brown >> j & 1:
                    length += 1
                    j = table[j]
            best = max(best, length)
        return best

    @cached_property
    def changes(self) -> Mapping[Colour, tuple[tuple[Callable[[GainTable, Fill], int], ...], int]]:
        """For each fill colour, the conditions it can change (as their ``AFTER`` functions) and
        their points before: worked out once, since a look-ahead asks for many thousand gains."""
        found = {}
        for colour in Colour:
            changed = [c for _, c in self.conditions.items() if colour in AFFECTED_BY[c]]
            found[colour] = (tuple(AFTER[c] for c in changed), sum(self.points[c] for c in changed))
        return MappingProxyType(found)

    def gain(self, mask: int, colour: Colour, around: int | None = None) -> int:
        """The score after filling the empty cells of ``mask`` with ``colour``, less before.
        ``around``, when given, is ``mask``'s neighbourhood (``Island.dilate``), already known."""
        fill = Fill(mask, colour, self.sheet.island.dilate(mask) if around is None else around)
        afters, total = self.changes[colour]
        total = -total
        for after in afters:
            total += after(self, fill)
        return total

    def merged(self, fill: Fill) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The fill's group once in, the groups it joins, and the groups it leaves alone."""
        joined = tuple(g for g in self.groups[fill.colour] if g & fill.around)
        untouched = tuple(g for g in self.groups[fill.colour] if not g & fill.around)
        group = fill.mask
        for g in joined:
            group |= g
        return group, joined, untouched


def _grass(table: GainTable, fill: Fill) -> int:
    group, joined, _ = table.merged(fill)
    big = sum(1 for g in joined if g.bit_count() >= GRASS_MIN_GROUP)
    new = 1 if group.bit_count() >= GRASS_MIN_GROUP else 0
    return table.points[Condition.GRASS] + GRASS_POINTS * (new - big)


def _forest(table: GainTable, fill: Fill) -> int:
    return (fill.masks(table)[GREEN] & fill.touching(table, BLUE)).bit_count()


def _swamp(table: GainTable, fill: Fill) -> int:
    group, _, untouched = table.merged(fill)
    sizes = sorted((g.bit_count() for g in (*untouched, group)), reverse=True)
    return SWAMP_FACTOR * sizes[1] if len(sizes) > 1 else 0


def _shore(table: GainTable, fill: Fill) -> int:
    return (fill.masks(table)[BLUE] & table.sheet.island.edge_mask).bit_count()


def _river(table: GainTable, fill: Fill) -> int:
    group, joined, untouched = table.merged(fill)
    sizes = [g.bit_count() for g in untouched if g in table.rivers]
    # Only the fill's cells and their blue neighbours gain blue neighbours.
    changed = fill.mask | (group & fill.around)
    if all(g in table.rivers for g in joined) and table.is_river(group, changed):
        sizes.append(group.bit_count())
    return RIVER_FACTOR * max(sizes, default=0)


def _fjords(table: GainTable, fill: Fill) -> int:
    group, joined, _ = table.merged(fill)
    lost = sum(1 for g in joined if g.bit_count() in FJORD_SIZES)
    new = 1 if group.bit_count() in FJORD_SIZES else 0
    return table.points[Condition.FJORDS] + FJORD_POINTS * (new - lost)


def _beach(table: GainTable, fill: Fill) -> int:
    brown = fill.masks(table)[BROWN]
    return (
        BEACH_POINTS
        * (brown & fill.touching(table, GREEN) & fill.touching(table, BLUE)).bit_count()
    )


def _desert(table: GainTable, fill: Fill) -> int:
    wet = fill.touching(table, BLUE)
    if fill.colour is BROWN:
        group, _, untouched = table.merged(fill)
        groups: tuple[int, ...] = (*untouched, group)
    else:
        groups = table.groups[BROWN]
    return DESERT_POINTS * sum(1 for g in groups if not g & wet)


def _caves(table: GainTable, fill: Fill) -> int:
    brown = table.masks[BROWN] | fill.mask
    runs = (table.run_through(i, brown) for i in bits(fill.mask))
    return CAVES_FACTOR * max(table.longest_brown_run, max(runs, default=0))


def _hamlet(table: GainTable, fill: Fill) -> int:
    island = table.sheet.island
    empty = table.sheet.empty_mask & ~fill.mask
    red = table.masks[RED]
    # Only red cells next to the fill (and the fill itself, if red) can change.
    changed = (red & fill.around) | (fill.mask if fill.colour is RED else 0)
    kept = (table.hamlets & ~changed).bit_count()
    gained = sum(1 for i in bits(changed) if island.neighbour_masks[i] & empty)
    return HAMLET_POINTS * (kept + gained)


def _village(table: GainTable, fill: Fill) -> int:
    red = fill.masks(table)[RED]
    for colour in (GREEN, BLUE, BROWN):
        red &= fill.touching(table, colour)
    return VILLAGE_POINTS * red.bit_count()


def _town(table: GainTable, fill: Fill) -> int:
    group, joined, untouched = table.merged(fill)
    if not untouched:
        return 0
    red = table.masks[RED] | fill.mask
    near_group = table.near(fill.mask)
    for g in joined:
        near_group |= table.near_groups[g]
    nears = [(g, table.near_groups[g]) for g in untouched] + [(group, near_group)]
    return TOWN_POINTS * sum(1 for g, near in nears if not near & red & ~g)


AFTER: Mapping[Condition, Callable[[GainTable, Fill], int]] = MappingProxyType(
    {
        Condition.GRASS: _grass,
        Condition.FOREST: _forest,
        Condition.SWAMP: _swamp,
        Condition.SHORE: _shore,
        Condition.RIVER: _river,
        Condition.FJORDS: _fjords,
        Condition.BEACH: _beach,
        Condition.DESERT: _desert,
        Condition.CAVES: _caves,
        Condition.HAMLET: _hamlet,
        Condition.VILLAGE: _village,
        Condition.TOWN: _town,
    }
)
