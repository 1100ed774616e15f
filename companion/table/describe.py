"""Components and what they hold in words a player recognises at the table: a tile by its
colours, an art card by its icons, an island cell by its row and place; never a printed id."""

from __future__ import annotations

import re
from typing import Any

from companion.content import colorfield, paintings
from companion.games.colorfield.model import PlacedTile
from companion.games.colorfield.words import placed_tile_words
from companion.games.isle.words import cell_words
from companion.games.paintings.words import card_words

_CELL = re.compile(r"cell \((\d+),(\d+)\)")
_PAINTING = re.compile(r"painting (\d+) card (bottom|middle|top)")
_SHADE = re.compile(r"shade (.+)")


def component_words(component: str) -> str:
    """Where a component lies: "space 3", "row 3, place 5", "painting 1's top card",
    "the small pan's shade card" (others, such as "small window 1", are words already)."""
    if cell := _CELL.fullmatch(component):
        return cell_words(int(cell[1]), int(cell[2]))
    if painting := _PAINTING.fullmatch(component):
        return f"painting {painting[1]}'s {painting[2]} card"
    if shade := _SHADE.fullmatch(component):
        return f"the {shade[1]} pan's shade card"
    return component


def value_words(game: str, value: object) -> str:
    """What a component holds: a tile or card described, a colour, chip or shade by name."""
    if value is None:
        return "empty"
    if game == "colorfield":
        placed: dict[str, Any] = value if isinstance(value, dict) else {"tile": value}
        tile = colorfield.default_content().tiles.get(str(placed["tile"]))
        if tile is None:
            return "an unknown tile"
        return placed_tile_words(PlacedTile(tile, int(placed.get("rotation", 0)) % 4))
    if game == "paintings":
        card = paintings.default_content().cards.get(str(value))
        return "an unknown card" if card is None else card_words(card)
    return str(value)
