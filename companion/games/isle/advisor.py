"""The move advisor: for a roll, the colour and cells that do the most for the player's score.

What it optimises: the points gained now (the sheet's score under the conditions in play after the
fill, less before; every condition counts, so a fill that costs a hamlet its empty neighbour pays
for it), plus a one-round look-ahead: the expected best gain of the next round over the six
faces of the die, with the colours the player is sure to hold then (the one kept, and solo the
reserve's front; the colour an opponent hands over is unknown, so it is left out). In the final
round there is no look-ahead. A face with no room counts 0.

Cost: every placement of the roll is tried with every held colour (at most 32,673 placements of 6
cells on the empty default island, about 5 microseconds each). The look-ahead scores every
connected set of 1 to 6 empty cells that a shortlisted fill leaves empty (the sets are found once,
with their neighbourhoods, and shared by every fill); it runs on the best few fills of
each held colour by immediate gain, as many as ``Limits.budget`` gain evaluations allow, and not
at all when fewer than two fit, since then it could not change the choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalActionError
from companion.games.isle.codec import cell_to_json
from companion.games.isle.gain import GainTable
from companion.games.isle.game import DIE_FACES, Game
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, Conditions, Sheet
from companion.games.isle.placements import connected_fills, placements

COLOUR_ORDER = tuple(Colour)


@dataclass(frozen=True)
class Limits:
    """How much work the look-ahead may do."""

    shortlist: int = 4  # fills of each colour, best by immediate gain, that get a look-ahead
    budget: int = 300_000  # gain evaluations the look-ahead may spend in all


@dataclass(frozen=True)
class Option:
    colour: Colour
    mask: int
    gain: int


@dataclass(frozen=True)
class Advice:
    colour: Colour
    cells: tuple[Cell, ...]
    gain: int  # points the fill adds now
    outlook_sixths: int  # the look-ahead, in sixths of a point (a sum over the six faces)
    fills_tried: int  # placements x colours scored for this roll
    looked_ahead: int  # fills that got a look-ahead

    @property
    def outlook(self) -> float:
        return self.outlook_sixths / DIE_FACES

    def to_json(self) -> dict[str, Any]:
        return {
            "color": self.colour.value,
            "cells": [cell_to_json(c) for c in self.cells],
            "gain": self.gain,
            "outlook": round(self.outlook, 2),
            "fills_tried": self.fills_tried,
            "looked_ahead": self.looked_ahead,
        }


Sets = list[tuple[int, int]]  # connected sets of empty cells, each with its neighbourhood


def best_gain_by_size(
    table: GainTable, colours: tuple[Colour, ...], sets: Sets | None = None
) -> list[int | None]:
    """For sizes 1..6, the best gain of one fill of that size in any of ``colours``, among
    ``sets`` (every connected set of the sheet's empty cells when None)."""
    best: list[int | None] = [None] * DIE_FACES
    sheet = table.sheet
    if sets is None:
        sets = list(connected_fills(sheet.island, sheet.empty_mask, DIE_FACES))
    for mask, around in sets:
        size = mask.bit_count()
        for colour in colours:
            gain = table.gain(mask, colour, around)
            known = best[size - 1]
            if known is None or gain > known:
                best[size - 1] = gain
    return best


def outlook_sixths(
    sheet: Sheet, conditions: Conditions, colours: tuple[Colour, ...], sets: Sets | None = None
) -> int:
    """Six times the expected best gain of the next round (a face with no room gives 0);
    ``sets`` as for ``best_gain_by_size``."""
    gains = best_gain_by_size(GainTable(sheet, conditions), colours, sets)
    return sum(g for g in gains if g is not None)


def rank_options(
    sheet: Sheet, conditions: Conditions, hand: tuple[Colour, ...], roll: int
) -> list[Option]:
    """Every legal fill for the roll with every held colour, best immediate gain first."""
    table = GainTable(sheet, conditions)
    options = [
        Option(colour, mask, table.gain(mask, colour))
        for mask in placements(sheet.island, sheet.empty_mask, roll)
        for colour in hand
    ]
    options.sort(key=_rank)
    return options


def _rank(option: Option) -> tuple[int, int, int]:
    # Ties resolve by colour order, then the cells (lowest bits first): the same in every run.
    return -option.gain, COLOUR_ORDER.index(option.colour), option.mask


def advise(
    sheet: Sheet,
    conditions: Conditions,
    hand: tuple[Colour, ...],
    roll: int,
    next_colours: Mapping[Colour, tuple[Colour, ...]] | None,
    limits: Limits = Limits(),
) -> Advice | None:
    """The best fill for ``roll``, or None when nothing fits.

    ``next_colours`` says, for each colour that could be used now, the colours the player will
    surely hold next round; None when no round follows.
    """
    options = rank_options(sheet, conditions, hand, roll)
    if not options:
        return None
    # The sets a look-ahead tries after a fill are those of today's empty cells that miss it.
    sets = (
        []
        if next_colours is None
        else list(connected_fills(sheet.island, sheet.empty_mask, DIE_FACES))
    )
    shortlist = _shortlist(len(sets), options, hand, next_colours, limits)
    if next_colours is None or len(shortlist) < 2:
        return _advice(sheet, options[0], 0, len(options), 0)
    looked = [
        (
            option,
            outlook_sixths(
                sheet.with_fill(option.mask, option.colour),
                conditions,
                next_colours[option.colour],
                [(mask, around) for mask, around in sets if not mask & option.mask],
            ),
        )
        for option in shortlist
    ]
    # Equal values go to the larger immediate gain, then (max() keeps the first) the ranking.
    best, sixths = max(looked, key=lambda pair: (pair[0].gain * DIE_FACES + pair[1], pair[0].gain))
    return _advice(sheet, best, sixths, len(options), len(shortlist))


def _shortlist(
    sets: int,
    options: list[Option],
    hand: tuple[Colour, ...],
    next_colours: Mapping[Colour, tuple[Colour, ...]] | None,
    limits: Limits,
) -> list[Option]:
    """The fills that get a look-ahead: the best few of each colour, as the budget allows.

    Each colour gets its own places because the colour used decides the colours held next.
    """
    if next_colours is None:
        return []
    # A look-ahead scores at most every connected set of the empty cells as they are now.
    per_fill = sets * max(len(colours) for colours in next_colours.values())
    per_colour = min(limits.shortlist, limits.budget // max(per_fill * len(hand), 1))
    chosen = [
        option
        for colour in hand
        for option in [o for o in options if o.colour is colour][:per_colour]
    ]
    return sorted(chosen, key=_rank)


def _advice(sheet: Sheet, option: Option, sixths: int, tried: int, looked: int) -> Advice:
    cells = sheet.island.cells_of(option.mask)
    return Advice(option.colour, cells, option.gain, sixths, tried, looked)


def advise_player(game: Game, player: int, limits: Limits = Limits()) -> Advice | None:
    """Advice for one player of a game whose round is rolled."""
    if not 0 <= player < len(game.players):
        raise IllegalActionError("no-such-player", f"there is no player {player}")
    if game.roll is None:
        raise IllegalActionError("roll-first", f"round {game.round} is not rolled yet")
    state = game.players[player]
    next_colours: dict[Colour, tuple[Colour, ...]] | None = None
    if not game.is_final_round:
        incoming = game.reserve[:1]  # solo: the reserve's front is known; else nothing is
        next_colours = {
            used: tuple(c for c in state.hand if c is not used) + incoming for used in state.hand
        }
    return advise(state.sheet, game.conditions, state.hand, game.roll, next_colours, limits)
