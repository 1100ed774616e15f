"""Isle of Colors scoring: the twelve conditions of games.md section 3, each point explained.

Pure functions of a Sheet. Each condition returns the cells or groups that earned points (with
the reason) and a note on the whole colour, so a player can check every point on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.games.isle.codec import cell_to_json
from companion.games.isle.hexgrid import Axis, Cell, distance
from companion.games.isle.model import Colour, Condition, Conditions, Sheet
from companion.words import plural

GRASS_MIN_GROUP = 5
GRASS_POINTS = 6
SWAMP_FACTOR = 2
RIVER_MAX_NEIGHBOURS = 2
RIVER_FACTOR = 2
FJORD_SIZES = (3, 4)
FJORD_POINTS = 4
BEACH_POINTS = 2
DESERT_POINTS = 4
CAVES_FACTOR = 3
HAMLET_POINTS = 3
VILLAGE_POINTS = 3
TOWN_MIN_DISTANCE = 3
TOWN_POINTS = 4


@dataclass(frozen=True)
class Scored:
    """Cells that earned points together (one cell, a group, a line) and why."""

    cells: tuple[Cell, ...]
    points: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "cells": [cell_to_json(c) for c in self.cells],
            "points": self.points,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class ColourScore:
    colour: Colour
    condition: Condition
    scored: tuple[Scored, ...]
    note: str

    @property
    def points(self) -> int:
        return sum(s.points for s in self.scored)

    def to_json(self) -> dict[str, Any]:
        return {
            "condition": self.condition.value,
            "points": self.points,
            "scored": [s.to_json() for s in self.scored],
            "note": self.note,
        }


@dataclass(frozen=True)
class SheetScore:
    island: str
    colours: tuple[ColourScore, ...]

    @property
    def total(self) -> int:
        return sum(c.points for c in self.colours)

    def of(self, colour: Colour) -> ColourScore:
        return next(c for c in self.colours if c.colour is colour)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "isle",
            "island": self.island,
            "total": self.total,
            "colors": {c.colour.value: c.to_json() for c in self.colours},
        }


Outcome = tuple[tuple[Scored, ...], str]


def _sizes(groups: tuple[tuple[Cell, ...], ...]) -> str:
    return ", ".join(str(len(g)) for g in sorted(groups, key=len, reverse=True)) or "none"


def _touching(sheet: Sheet, cell: Cell, colour: Colour) -> bool:
    island = sheet.island
    return bool(island.neighbour_masks[island.index[cell]] & sheet.masks[colour])


def _cells(sheet: Sheet, colour: Colour) -> tuple[Cell, ...]:
    return sheet.island.cells_of(sheet.masks[colour])


def grass(sheet: Sheet) -> Outcome:
    groups = sheet.groups(Colour.GREEN)
    scored = tuple(
        Scored(g, GRASS_POINTS, f"green group of {len(g)} cells")
        for g in groups
        if len(g) >= GRASS_MIN_GROUP
    )
    note = (
        f"{plural(len(groups), 'green group')} (sizes {_sizes(groups)}); "
        f"{len(scored)} of size {GRASS_MIN_GROUP} or more"
    )
    return scored, note


def forest(sheet: Sheet) -> Outcome:
    greens = _cells(sheet, Colour.GREEN)
    scored = tuple(
        Scored((c,), 1, "green cell next to blue")
        for c in greens
        if _touching(sheet, c, Colour.BLUE)
    )
    return scored, f"{len(scored)} of {plural(len(greens), 'green cell')} touch blue"


def swamp(sheet: Sheet) -> Outcome:
    # sorted() is stable: of equal sizes the group found first (top-left) ranks first.
    groups = sorted(sheet.groups(Colour.GREEN), key=len, reverse=True)
    if len(groups) < 2:
        return (), f"{plural(len(groups), 'green group')}: a swamp needs at least 2"
    second = groups[1]
    reason = f"second-largest green group: {len(second)} cells (largest: {len(groups[0])})"
    note = f"{len(groups)} green groups (sizes {_sizes(tuple(groups))})"
    return (Scored(second, SWAMP_FACTOR * len(second), reason),), note


def shore(sheet: Sheet) -> Outcome:
    island = sheet.island
    blues = _cells(sheet, Colour.BLUE)
    edge = island.cells_of(sheet.masks[Colour.BLUE] & island.edge_mask)
    scored = tuple(Scored((c,), 1, "blue cell on the island's edge") for c in edge)
    return scored, f"{len(scored)} of {plural(len(blues), 'blue cell')} on the edge"


def _crowded_cell(sheet: Sheet, group: tuple[Cell, ...]) -> Cell | None:
    """A cell of a blue group with more than two blue neighbours, if any (not a river)."""
    island = sheet.island
    blue = sheet.masks[Colour.BLUE]
    for cell in group:
        if (island.neighbour_masks[island.index[cell]] & blue).bit_count() > RIVER_MAX_NEIGHBOURS:
            return cell
    return None


def river(sheet: Sheet) -> Outcome:
    groups = sheet.groups(Colour.BLUE)
    rivers = [g for g in groups if _crowded_cell(sheet, g) is None]
    if not rivers:
        return (), f"{plural(len(groups), 'blue group')}, none of them a river"
    longest = max(rivers, key=len)  # max() keeps the first of equal sizes
    reason = f"largest river: {len(longest)} blue cells, none with more than 2 blue neighbours"
    others = [
        f"the group at {g[0]} is not a river ({_crowded_cell(sheet, g)} has 3 or more blue "
        "neighbours)"
        for g in groups
        if g not in rivers
    ]
    note = f"{plural(len(groups), 'blue group')}, rivers among them: {len(rivers)}"
    if others:
        note += "; " + "; ".join(others)
    return (Scored(longest, RIVER_FACTOR * len(longest), reason),), note


def fjords(sheet: Sheet) -> Outcome:
    groups = sheet.groups(Colour.BLUE)
    scored = tuple(
        Scored(g, FJORD_POINTS, f"blue group of {len(g)} cells")
        for g in groups
        if len(g) in FJORD_SIZES
    )
    note = f"{plural(len(groups), 'blue group')} (sizes {_sizes(groups)}); {len(scored)} of 3 or 4"
    return scored, note


def beach(sheet: Sheet) -> Outcome:
    browns = _cells(sheet, Colour.BROWN)
    scored = tuple(
        Scored((c,), BEACH_POINTS, "brown cell next to green and to blue")
        for c in browns
        if _touching(sheet, c, Colour.GREEN) and _touching(sheet, c, Colour.BLUE)
    )
    return scored, f"{len(scored)} of {plural(len(browns), 'brown cell')} touch green and blue"


def desert(sheet: Sheet) -> Outcome:
    groups = sheet.groups(Colour.BROWN)
    scored = tuple(
        Scored(g, DESERT_POINTS, f"brown group of {len(g)} cells, none next to blue")
        for g in groups
        if not any(_touching(sheet, c, Colour.BLUE) for c in g)
    )
    note = f"{plural(len(groups), 'brown group')}; {len(scored)} of them away from blue"
    return scored, note


def longest_run(sheet: Sheet, colour: Colour) -> tuple[tuple[Cell, ...], Axis | None]:
    """The longest straight run of ``colour`` along any axis (the first found of equal length)."""
    best: tuple[Cell, ...] = ()
    best_axis: Axis | None = None
    for axis in Axis:
        for line in sheet.island.lines(axis):
            run: list[Cell] = []
            for cell in (*line, None):
                if cell is not None and sheet.at(cell) is colour:
                    run.append(cell)
                    continue
                if len(run) > len(best):
                    best, best_axis = tuple(run), axis
                run = []
    return best, best_axis


def caves(sheet: Sheet) -> Outcome:
    run, axis = longest_run(sheet, Colour.BROWN)
    if axis is None:
        return (), "no brown cells"
    reason = f"{plural(len(run), 'brown cell')} in a straight line ({axis.words})"
    return (Scored(run, CAVES_FACTOR * len(run), reason),), f"longest brown line: {len(run)}"


def hamlet(sheet: Sheet) -> Outcome:
    reds = _cells(sheet, Colour.RED)
    island = sheet.island
    scored = tuple(
        Scored((c,), HAMLET_POINTS, "red cell next to an empty cell")
        for c in reds
        if island.neighbour_masks[island.index[c]] & sheet.empty_mask
    )
    return scored, f"{len(scored)} of {plural(len(reds), 'red cell')} touch an empty cell"


def village(sheet: Sheet) -> Outcome:
    reds = _cells(sheet, Colour.RED)
    others = (Colour.GREEN, Colour.BLUE, Colour.BROWN)
    scored = tuple(
        Scored((c,), VILLAGE_POINTS, "red cell next to green, blue and brown")
        for c in reds
        if all(_touching(sheet, c, other) for other in others)
    )
    return scored, f"{len(scored)} of {plural(len(reds), 'red cell')} touch all three colours"


def group_distance(a: tuple[Cell, ...], b: tuple[Cell, ...]) -> int:
    """The distance between two groups: the least hex distance between a cell of each."""
    return min(distance(x, y) for x in a for y in b)


def town(sheet: Sheet) -> Outcome:
    groups = sheet.groups(Colour.RED)
    if len(groups) < 2:
        return (), f"{plural(len(groups), 'red group')}: a town needs at least 2"
    scored = []
    for i, group in enumerate(groups):
        nearest = min(group_distance(group, other) for j, other in enumerate(groups) if j != i)
        if nearest >= TOWN_MIN_DISTANCE:
            reason = f"red group of {len(group)} at distance {nearest} from the nearest red group"
            scored.append(Scored(group, TOWN_POINTS, reason))
    note = f"{len(groups)} red groups; {len(scored)} at distance 3 or more from all the others"
    return tuple(scored), note


RULES: Mapping[Condition, Callable[[Sheet], Outcome]] = MappingProxyType(
    {
        Condition.GRASS: grass,
        Condition.FOREST: forest,
        Condition.SWAMP: swamp,
        Condition.SHORE: shore,
        Condition.RIVER: river,
        Condition.FJORDS: fjords,
        Condition.BEACH: beach,
        Condition.DESERT: desert,
        Condition.CAVES: caves,
        Condition.HAMLET: hamlet,
        Condition.VILLAGE: village,
        Condition.TOWN: town,
    }
)


def score_condition(sheet: Sheet, condition: Condition) -> ColourScore:
    scored, note = RULES[condition](sheet)
    return ColourScore(condition.colour, condition, scored, note)


def score_sheet(sheet: Sheet, conditions: Conditions) -> SheetScore:
    return SheetScore(
        sheet.island.id,
        tuple(score_condition(sheet, condition) for _, condition in conditions.items()),
    )
