"""Compact builders for Paintings tests: a card is written slot by slot, ``"- | hue | shape tone"``.

Slots are separated by ``|``; icons within a slot by spaces; ``-`` is an empty slot.
"""

from __future__ import annotations

from companion.content.paintings import default_content
from companion.games.paintings.covering import Visible, visible_icons
from companion.games.paintings.model import ArtCard, Goal, Icon, Painting, ScoringCard

BLANK = ArtCard(((), (), (), (), ()))


def card(spec: str, card_id: str | None = None) -> ArtCard:
    slots = tuple(
        tuple(Icon(word) for word in part.split() if word != "-") for part in spec.split("|")
    )
    return ArtCard(slots, card_id)


def painting(bottom: str, middle: str, top: str) -> Painting:
    return Painting((card(bottom), card(middle), card(top)))


def shows(spec: str) -> Visible:
    """The visible icons of a painting whose top card is ``spec`` over two blank cards."""
    return visible_icons(Painting((BLANK, BLANK, card(spec))))


def scoring(*goals: Goal) -> tuple[ScoringCard, ...]:
    cards = default_content().scoring_cards
    return tuple(cards[g] for g in goals)
