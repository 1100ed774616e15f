"""Reading and writing an Isle of Colors position (positions.md, "isle — one island sheet")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.content.isle import IsleContent
from companion.fields import Field
from companion.games.isle.codec import (
    cells_to_json,
    conditions_to_json,
    parse_cells,
    parse_conditions,
)
from companion.games.isle.model import Conditions, Sheet

DEFAULT_ISLAND = "default"


@dataclass(frozen=True)
class IslePosition:
    """One island sheet and the scoring conditions in play."""

    conditions: Conditions
    sheet: Sheet


def parse_position(field: Field, content: IsleContent) -> IslePosition:
    """A whole position document (its ``game`` key already checked by the dispatcher).

    ``island`` may be left out for the default island.
    """
    members = field.members(required=("game", "conditions", "cells"), optional=("island",))
    if "island" in members:
        island = members["island"].lookup(content.islands, "island")
    elif DEFAULT_ISLAND in content.islands:
        island = content.islands[DEFAULT_ISLAND]
    else:
        raise field.error(f"no 'island' named and there is no {DEFAULT_ISLAND!r} island")
    conditions = parse_conditions(members["conditions"])
    return IslePosition(conditions, parse_cells(members["cells"], island))


def position_to_json(position: IslePosition) -> dict[str, Any]:
    return {
        "game": "isle",
        "island": position.sheet.island.id,
        "conditions": conditions_to_json(position.conditions),
        "cells": cells_to_json(position.sheet),
    }
