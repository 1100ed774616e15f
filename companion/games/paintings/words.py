"""Paintings pieces in words for people: an art card by its icons (cards have no printed title,
and a player finds one by what it shows), never by its catalogue id."""

from __future__ import annotations

from collections import Counter

from companion.games.paintings.model import ArtCard, Icon
from companion.words import listed

PLACES = ("bottom", "middle", "top")


def icon_words(icon: Icon) -> str:
    """``hue``, or ``texture bonus`` for a bonus icon."""
    return f"{icon.element.value} bonus" if icon.is_bonus else icon.value


def card_words(card: ArtCard) -> str:
    """``the card with 2 shapes, hue and texture bonus``: its icons in slot order, counted."""
    counts = Counter(icon for slot in card.slots for icon in slot)
    if not counts:
        return "a card with no icon"
    words = [
        icon_words(icon) if n == 1 else f"{n} {icon_words(icon)}{'es' if icon.is_bonus else 's'}"
        for icon, n in counts.items()
    ]
    return f"the card with {listed(words)}"


def place_words(painting: int, place: int) -> str:
    """``the top card of painting 2``: a card place, bottom first, as a player finds it."""
    return f"the {PLACES[place]} card of painting {painting}"
