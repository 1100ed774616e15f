"""Paintings mat: the three art cards of one painting, bottom (left) to top (right)."""

from __future__ import annotations

from typing import Any

from companion.content.paintings import default_content
from companion.observation import ComponentRead as Read
from vision.scan.context import BoardContext
from vision.scan.readers.common import CERTAIN, MIN_SEEN, single_piece

PLACES = ("card bottom", "card middle", "card top")


class PaintingsReader:
    def __init__(self) -> None:
        self.cards = default_content().cards

    def read(self, ctx: BoardContext) -> list[dict[str, Any]]:
        """The painting's three cards, each inline with its catalogue id, as far as read."""
        cards = []
        number = ctx.board.layout.content["painting"]
        for place in PLACES:
            region = ctx.board.layout.region(place)
            name = f"painting {number} {place}"
            if ctx.face.coverage(region.shape) < MIN_SEEN:
                ctx.record(Read(name, None, 0.0, f"{name}: outside the photo"))
                continue
            piece, problem = single_piece(ctx.pieces_in(region.shape, ("art-card",)), name)
            if problem:
                ctx.record(Read(name, None, 0.0, problem))
                continue
            if piece is None:
                ctx.record(Read(name, None, 0.0, f"{name}: no card"))
                continue
            card_id = str(piece.layout.content["card"])
            card = self.cards[card_id]
            ctx.record(Read(name, card_id, CERTAIN))
            cards.append(
                {"slots": [[i.value for i in slot] for slot in card.slots], "card": card_id}
            )
        return cards
