"""Components and what they hold in words a player recognises at the table: a tile by its
colours, an art card by its icons, an island cell by its row and place; never a printed id."""

from __future__ import annotations

import re

from companion.content import colorfield, paintings
from companion.games.colorfield.model import Tile, TileKind

_CELL = re.compile(r"cell \((\d+),(\d+)\)")
_PAINTING = re.compile(r"painting (\d+) card (bottom|middle|top)")
_SHADE = re.compile(r"shade (.+)")


def component_words(component: str) -> str:
    """Where a component lies: "space 3", "row 3, place 5", "painting 1's top card",
    "the small pan's shade card" (others, such as "small window 1", are words already)."""
    if cell := _CELL.fullmatch(component):
        return f"row {int(cell[1]) + 1}, place {int(cell[2]) + 1}"
    if painting := _PAINTING.fullmatch(component):
        return f"painting {painting[1]}'s {painting[2]} card"
    if shade := _SHADE.fullmatch(component):
        return f"the {shade[1]} pan's shade card"
    return component


def tile_words(tile: Tile) -> str:
    """A tile by its deck and its sides' colours, clockwise: "a Round 2 tile (coral x2,
    navy, lemon, navy)"."""
    sides = ", ".join(
        f"{edge.colour.value}{f' x{edge.multiplier}' if edge.multiplier > 1 else ''}"
        for edge in tile.edges
    )
    if tile.kind is TileKind.FOUNDATION:
        return f"a Foundation tile ({sides})"
    if tile.kind is not None:
        return f"a Round {tile.kind.value.removeprefix('round')} tile ({sides})"
    return f"a tile ({sides})"


def card_words(card_id: str) -> str:
    """An art card by its icons, slot by slot: "a card of hue, shape, bonus texture"."""
    card = paintings.default_content().cards.get(card_id)
    if card is None:
        return "an unknown card"
    icons = [icon.value.replace("-", " ") for slot in card.slots for icon in slot]
    return f"a card of {', '.join(icons)}" if icons else "a blank card"


def value_words(game: str, value: object) -> str:
    """What a component holds: a tile or card described, a colour, chip or shade by name."""
    if value is None:
        return "empty"
    if game == "colorfield":
        tile_id = value["tile"] if isinstance(value, dict) else str(value)
        tile = colorfield.default_content().tiles.get(tile_id)
        return "an unknown tile" if tile is None else tile_words(tile)
    if game == "paintings":
        return card_words(str(value))
    return str(value)
