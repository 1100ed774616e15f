"""What the correction picker draws each game's pieces from: the printed content as plain JSON
(tiles with their edges, art cards with their slots, the island's cells, chips and the shade
cards' faces) with the colours to draw them in. Read-only and the same for every table, so the
browser caches it.

A shade card is sent by its face alone (name and colour): its recipe is the back of the card, and
the picker must not give it away.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from companion.content import colorfield, isle, paintings, pigments
from companion.games.colorfield.model import Colour as Paint
from companion.games.isle.model import Colour as Pencil
from companion.games.paintings.model import ELEMENTS
from companion.games.pigments.checker import mix
from companion.games.pigments.model import Chip

# The printed inks (the same sRGB values the boards are printed and read with); the web may not
# import vision, so they are repeated here and a test keeps the two in step.
INKS: Mapping[str, str] = MappingProxyType(
    {
        "lemon": "#F4D03F",
        "coral": "#EE7457",
        "navy": "#1F2D6B",
        "turquoise": "#27B1A6",
        "green": "#4C9A3B",
        "blue": "#3B6FC6",
        "brown": "#8B5A31",
        "red": "#C9352D",
        "Fe2O3": "#A63129",
        "FeO(OH)": "#E6B52B",
        "ultramarine": "#2C3B9C",
        "TiO2": "#F8F8F3",
        "binder": "#B8A487",
        "hue": "#C0357A",
        "shape": "#2F6FB5",
        "texture": "#4A8C36",
        "tone": "#7A5A2E",
    }
)
# A colour's letter beside its swatch, so no one has to tell green from brown by hue alone.
PENCIL_LETTERS: Mapping[str, str] = MappingProxyType(
    {"green": "G", "blue": "B", "brown": "Br", "red": "R"}
)
PAINT_LETTERS: Mapping[str, str] = MappingProxyType(
    {"lemon": "L", "coral": "C", "navy": "N", "turquoise": "T"}
)


def _colorfield() -> dict[str, Any]:
    tiles = colorfield.default_content().tiles.values()
    return {
        "colours": {paint.value: INKS[paint.value] for paint in Paint},
        "letters": {paint.value: PAINT_LETTERS[paint.value] for paint in Paint},
        "tiles": [
            {
                "id": tile.id,
                "kind": None if tile.kind is None else tile.kind.value,
                "up_mark": tile.up_mark,
                "edges": [[edge.colour.value, edge.multiplier] for edge in tile.edges],
            }
            for tile in tiles
        ],
    }


def _paintings() -> dict[str, Any]:
    cards = paintings.default_content().cards.values()
    return {
        "icons": {icon.value: INKS[icon.value] for icon in ELEMENTS},
        "cards": [
            {"id": card.id, "slots": [[icon.value for icon in slot] for slot in card.slots]}
            for card in cards
        ],
    }


def _isle() -> dict[str, Any]:
    islands = isle.default_content().islands.values()
    return {
        "colours": [
            {"name": p.value, "letter": PENCIL_LETTERS[p.value], "srgb": INKS[p.value]}
            for p in Pencil
        ],
        "islands": [
            {"id": i.id, "name": i.name, "cells": [[c.row, c.col] for c in i.cells]}
            for i in islands
        ],
    }


def _pigments() -> dict[str, Any]:
    content = pigments.default_content()
    return {
        "chips": [
            {"name": chip.value, "looks": chip.looks, "srgb": INKS[chip.value]} for chip in Chip
        ],
        "shades": [
            {"name": name, "srgb": mix(list(shade.recipe), content.catalogue).display.hex}
            for name, shade in sorted(content.shades.items())
        ],
    }


PICTURES: Mapping[str, Callable[[], dict[str, Any]]] = MappingProxyType(
    {"colorfield": _colorfield, "paintings": _paintings, "isle": _isle, "pigments": _pigments}
)


def pictures_of(game: str) -> dict[str, Any] | None:
    """The content the picker draws ``game``'s pieces from, or None for a game Atelier lacks."""
    build = PICTURES.get(game)
    return None if build is None else {"game": game, **build()}
