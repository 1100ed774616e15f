"""Color Field pieces in words for people: a tile by the colours it shows, never by its id."""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.colorfield.model import PlacedTile, Side, TileKind


def tile_colours(colours: Iterable[str]) -> str:
    """``navy/coral/lemon``: a tile's colours as placed, top edge first and clockwise, each once
    (what a player sees on the canvas)."""
    return "/".join(dict.fromkeys(colours))


def deck_words(kind: TileKind) -> str:
    if kind is TileKind.FOUNDATION:
        return "the Foundation deck"
    return f"the Round {kind.value.removeprefix('round')} deck"


def placed_tile_words(placed: PlacedTile, *, deck: bool = True) -> str:
    """``the navy/coral tile from the Round 3 deck``; without its deck when ``deck`` is false
    or the tile is inline (it has none)."""
    colours = tile_colours(placed.edge(side).colour.value for side in Side)
    kind = placed.tile.kind
    if not deck or kind is None:
        return f"the {colours} tile"
    return f"the {colours} tile from {deck_words(kind)}"


def up_mark_words(rotation: int) -> str:
    """Where a tile turned ``rotation`` quarter turns points its up-mark: ``to the right``."""
    return f"to the {Side(rotation % 4).word}"
