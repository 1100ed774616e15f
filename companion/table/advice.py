"""A suggested move for one player at a table: their board as the table holds it, and what no
camera sees (a Color Field tile in hand, Paintings cards in hand, the Isle colours held, the
Pigment Lab drafts on offer), given by the player, through the game's own advisor.

A table switches suggestions off at setup (``options.advice``); then, and once the game is
over, none is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from companion.fields import Field
from companion.games.pigments.model import BOARD
from companion.games.registry import Report, games
from companion.table.projection import TableState
from companion.table.session import ConflictError

# What a player tells the advisor, by game: the position keys no board shows.
ASKED: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "colorfield": ("tile",),
        "paintings": ("hand",),
        "isle": ("hand", "roll"),
        "pigments": ("crates", "spill_tray", "spill_line", "shade_row"),
    }
)


class NoAdviceError(ConflictError):
    """No suggestion can be given at this table now (switched off, game over, no board)."""


def advise_seat(state: TableState, seat: int, request: Field) -> Report:
    """The game's advice for ``seat`` on its board as last read, with ``request``'s keys."""
    game = state.setup.game
    if not state.setup.options.advice:
        raise NoAdviceError("move suggestions are switched off at this table")
    if state.finished:
        raise NoAdviceError("the game is over: there is no next move to suggest")
    asked = request.members(optional=ASKED[game])
    document = {**_board(state, seat), **{key: field.value for key, field in asked.items()}}
    if game == "isle" and "roll" not in asked:
        if state.roll is None:
            raise request.error("roll: missing (enter this round's roll, or send it)")
        document["roll"] = state.roll
    row = state.setup.options.shade_row
    if game == "pigments" and "shade_row" not in asked and row:
        document["shade_row"] = list(row)  # the shade row the table was set up with
    entry = games()[game]
    if entry.advise is None:
        raise NoAdviceError(f"{entry.title} has no advisor yet")
    return entry.advise(Field(document), None)


def _board(state: TableState, seat: int) -> dict[str, Any]:
    """The seat's position as the table last read it, or the game's empty board where a game
    starts from one (Paintings, Isle of Colors, Pigment Lab); Color Field needs its canvas."""
    reading = state.seat(seat).reading
    if reading is not None and reading.scored.score is not None:
        return dict(reading.scored.position)
    if reading is not None:
        raise NoAdviceError(f"seat {seat}'s board needs a look first: correct what was not read")
    options = state.setup.options
    game = state.setup.game
    if game == "paintings":
        return {"game": game, "scoring_cards": list(options.scoring_cards), "paintings": []}
    if game == "isle":
        return {"game": game, "conditions": dict(options.conditions), "cells": []}
    if game == "pigments":
        pans: list[dict[str, Any]] = [
            {"pan": size.value, "chips": [], "shade": None} for size in BOARD
        ]
        return {"game": game, "pans": pans}
    raise NoAdviceError(f"scan seat {seat}'s canvas first: the advice places a tile on it")
