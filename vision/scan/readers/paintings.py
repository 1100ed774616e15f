"""Paintings mat: the three art cards of one painting, bottom (left) to top (right)."""

from __future__ import annotations

from typing import Any

from companion.content.paintings import default_content
from companion.observation import ComponentRead as Read
from vision.scan.context import BoardContext
from vision.scan.readers.common import CERTAIN, MIN_SEEN, single_piece
from vision.scan.readers.reader import BoardReader, ReaderEntry
from vision.scan.readers.second_look import UNPLACED, SecondLook, placed_well

PLACES = ("card bottom", "card middle", "card top")


class PaintingsReader(BoardReader):
    def __init__(self) -> None:
        self.cards = default_content().cards
        self.second_look = SecondLook("art-card")

    def _card(self, ctx: BoardContext, place: str, name: str) -> tuple[str, float] | None:
        """The card on a place and how sure the read is, or None with the problem recorded."""
        region = ctx.board.layout.region(place)
        if ctx.face.coverage(region.shape) < MIN_SEEN:
            ctx.record(Read(name, None, 0.0, f"{name}: outside the photo"))
            return None
        piece, problem = single_piece(ctx.pieces_in(region.shape, ("art-card",)), name)
        if problem:
            ctx.record(Read(name, None, 0.0, problem))
            return None
        if not placed_well(ctx, region.shape):
            # Too unsure where the place lies to tell a card on it from one on the next, let
            # alone to look for one without a marker: said so, not taken for no card.
            ctx.record(Read(name, None, 0.0, f"{name}: {UNPLACED}"))
            return None
        if piece is not None:
            return str(piece.layout.content["card"]), CERTAIN
        found = self.second_look.find(ctx, region.shape)
        if found is None:
            ctx.record(Read(name, None, 0.0, f"{name}: no card"))
            return None
        _, problem = single_piece([found.piece], name)
        if problem:
            ctx.record(Read(name, None, 0.0, problem))
            return None
        return str(found.piece.layout.content["card"]), found.confidence

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        """The painting's three cards, each inline with its catalogue id, as far as read, and
        its number, by which a player's mats are merged into one position."""
        cards = []
        number = ctx.board.layout.content["painting"]
        for place in PLACES:
            name = f"painting {number} {place}"
            read = self._card(ctx, place, name)
            if read is None:
                continue
            card_id, confidence = read
            ctx.record(Read(name, card_id, confidence))
            card = self.cards[card_id]
            cards.append(
                {"slots": [[i.value for i in slot] for slot in card.slots], "card": card_id}
            )
        return {"cards": cards, "painting": number}


# Read from its pieces' markers alone, never by colour: light that blows out its print (or
# white cards lying over it) cannot change what it says.
ENTRIES = (ReaderEntry("paintings", "mat", PaintingsReader, 2.0, refused_when_overexposed=False),)
