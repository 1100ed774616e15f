"""Reading and writing an Isle of Colors position (positions.md, "isle — one island sheet")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.content.isle import IsleContent
from companion.errors import FieldError
from companion.fields import Field
from companion.games.isle.codec import (
    cells_to_json,
    conditions_to_json,
    parse_cells,
    parse_colour,
    parse_conditions,
)
from companion.games.isle.game import DIE_FACES, HAND_SIZE
from companion.games.isle.model import Colour, Conditions, Sheet

DEFAULT_ISLAND = "default"


@dataclass(frozen=True)
class Turn:
    """The round the player is in: the die, the colours in hand, and what follows.

    ``incoming`` is a colour the player is sure to receive after this round (solo: the reserve's
    front), None when unknown; in the final round no round follows.
    """

    roll: int
    hand: tuple[Colour, ...]
    incoming: Colour | None = None
    final_round: bool = False

    def next_colours(self) -> dict[Colour, tuple[Colour, ...]] | None:
        """For each colour used now, the colours surely held next round; None in the final one."""
        if self.final_round:
            return None
        incoming = () if self.incoming is None else (self.incoming,)
        return {used: tuple(c for c in self.hand if c is not used) + incoming for used in self.hand}


@dataclass(frozen=True)
class IslePosition:
    """One island sheet and the scoring conditions in play; ``turn`` when the round is given."""

    conditions: Conditions
    sheet: Sheet
    turn: Turn | None = None


TURN_KEYS = ("roll", "hand", "incoming", "final_round")


def parse_turn(members: dict[str, Field]) -> Turn | None:
    """The round from ``roll`` and ``hand`` (both or neither), ``incoming`` and ``final_round``."""
    if not any(key in members for key in TURN_KEYS):
        return None
    for key in ("roll", "hand"):
        if key not in members:
            raise FieldError(key, "missing (a round needs both 'roll' and 'hand')")
    roll = members["roll"].integer(1, DIE_FACES)
    hand: list[Colour] = []
    for entry in members["hand"].array(length=HAND_SIZE):
        colour = parse_colour(entry)
        if colour in hand:
            raise entry.error(f"colour {colour.value!r} is held twice")
        hand.append(colour)
    incoming = None
    if "incoming" in members:
        incoming = parse_colour(members["incoming"])
        if incoming in hand:
            raise members["incoming"].error(f"{incoming.value!r} is already in hand")
    final = members["final_round"].boolean() if "final_round" in members else False
    return Turn(roll, tuple(hand), incoming, final)


def parse_position(field: Field, content: IsleContent) -> IslePosition:
    """A whole position document (its ``game`` key already checked by the dispatcher).

    ``island`` may be left out for the default island.
    """
    members = field.members(
        required=("game", "conditions", "cells"), optional=("island", *TURN_KEYS)
    )
    if "island" in members:
        island = members["island"].lookup(content.islands, "island")
    elif DEFAULT_ISLAND in content.islands:
        island = content.islands[DEFAULT_ISLAND]
    else:
        raise field.error(f"no 'island' named and there is no {DEFAULT_ISLAND!r} island")
    conditions = parse_conditions(members["conditions"])
    sheet = parse_cells(members["cells"], island)
    return IslePosition(conditions, sheet, parse_turn(members))


def position_to_json(position: IslePosition) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "isle",
        "island": position.sheet.island.id,
        "conditions": conditions_to_json(position.conditions),
        "cells": cells_to_json(position.sheet),
    }
    turn = position.turn
    if turn is not None:
        out |= {"roll": turn.roll, "hand": [c.value for c in turn.hand]}
        if turn.incoming is not None:
            out["incoming"] = turn.incoming.value
        if turn.final_round:
            out["final_round"] = True
    return out
