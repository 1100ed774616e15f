"""The shared tiles of a Color Field table: four face-down decks, the Palette, the central discard.

Every shuffle draws its order from ``random.Random(f"{seed}:{n}")`` where ``n`` counts the
shuffles made so far, so a game is a pure function of its seed and its actions.

When a deck runs out it is re-formed from the tiles of that same deck lying in the central
discard (for the Foundation deck this is the rulebook's reshuffle; the round decks follow the
same ruling). Tiles on player cards are not in the central discard until the round ends.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from companion.games.colorfield.model import Tile, TileKind

T = TypeVar("T")

PALETTE_SIZE = 3
DECK_KINDS = tuple(TileKind)


@dataclass(frozen=True)
class Piles:
    """Decks in ``TileKind`` order (index 0 is the top), Palette slots, central discard."""

    seed: int
    shuffles: int
    decks: tuple[tuple[Tile, ...], ...]
    palette: tuple[Tile | None, ...]
    discard: tuple[Tile, ...]

    def deck(self, kind: TileKind) -> tuple[Tile, ...]:
        return self.decks[DECK_KINDS.index(kind)]

    def shuffled(self, items: Sequence[T]) -> tuple[Piles, tuple[T, ...]]:
        """``items`` in a new order, and the piles with the shuffle counted."""
        order = list(items)
        random.Random(f"{self.seed}:{self.shuffles}").shuffle(order)
        return replace(self, shuffles=self.shuffles + 1), tuple(order)

    def _with_deck(self, kind: TileKind, tiles: tuple[Tile, ...]) -> Piles:
        decks = list(self.decks)
        decks[DECK_KINDS.index(kind)] = tiles
        return replace(self, decks=tuple(decks))

    def can_draw(self, kind: TileKind) -> bool:
        """Whether a tile of ``kind`` can be drawn, re-forming the deck from discards if need be."""
        return bool(self.deck(kind)) or any(tile.kind is kind for tile in self.discard)

    def draw(self, kind: TileKind) -> tuple[Piles, Tile | None]:
        """The top tile of the ``kind`` deck (None when neither deck nor discards hold one)."""
        piles = self
        if not piles.deck(kind):
            piles = piles._reform(kind)
        deck = piles.deck(kind)
        if not deck:
            return piles, None
        return piles._with_deck(kind, deck[1:]), deck[0]

    def _reform(self, kind: TileKind) -> Piles:
        reused = [tile for tile in self.discard if tile.kind is kind]
        if not reused:
            return self
        piles, deck = self.shuffled(reused)
        rest = tuple(tile for tile in self.discard if tile.kind is not kind)
        return replace(piles, discard=rest)._with_deck(kind, deck)

    def to_discard(self, tiles: Iterable[Tile]) -> Piles:
        return replace(self, discard=(*self.discard, *tiles))

    def fill_palette(self, kind: TileKind) -> Piles:
        """Fill empty Palette slots, left to right, from the ``kind`` deck while it can give."""
        piles = self
        for slot, tile in enumerate(self.palette):
            if tile is not None:
                continue
            piles, drawn = piles.draw(kind)
            if drawn is None:
                break
            palette = list(piles.palette)
            palette[slot] = drawn
            piles = replace(piles, palette=tuple(palette))
        return piles

    def clear_palette(self) -> Piles:
        """Every Palette tile to the central discard."""
        kept = [tile for tile in self.palette if tile is not None]
        return replace(self.to_discard(kept), palette=(None,) * PALETTE_SIZE)

    def take_from_palette(self, slot: int) -> tuple[Piles, Tile | None]:
        tile = self.palette[slot]
        palette = list(self.palette)
        palette[slot] = None
        return replace(self, palette=tuple(palette)), tile


def new_piles(seed: int, tiles: Iterable[Tile]) -> Piles:
    """Each deck shuffled, in ``TileKind`` order; the Palette empty; nothing discarded."""
    piles = Piles(seed, 0, (), (None,) * PALETTE_SIZE, ())
    catalogue = tuple(tiles)
    decks: list[tuple[Tile, ...]] = []
    for kind in DECK_KINDS:
        piles, deck = piles.shuffled([tile for tile in catalogue if tile.kind is kind])
        decks.append(deck)
    return replace(piles, decks=tuple(decks))
