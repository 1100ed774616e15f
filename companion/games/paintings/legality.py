"""Paintings legality between two scans of one player's paintings (games.md section 2).

A turn takes one Art Card (the paintings do not change) or completes one painting (one new
painting appears). A completed painting is sleeved: it never changes and is never taken back.
``check`` compares a player's position with the same player's previous one and reports only what
no legal turn allows, naming the card places (``painting 2 card top``) that show it.

Rules:

- ``painting-changed``: a painting in both scans holds another card, or its cards in another
  order. Proved card by card: two catalogue cards are the same card when their ids are; when
  either card is read inline (slots, no id) only different printed slots prove a change.
- ``painting-removed``: fewer paintings than before.
- ``one-painting-per-turn``: more than one new painting.
- ``card-twice``: a catalogue card lies in two places on this board, or on this board and another
  player's. The catalogue lists each id once and the deck holds each catalogue card once
  (``PaintingsContent.deck``), so only ids can prove it: inline cards are never compared.

Painting N is the N-th painting of the position. The position lists a player's mats in order
without gaps (the scanner reports a later mat in view without an earlier one as a problem), so
"painting 3 without painting 2" cannot be expressed and is not checked here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.content.paintings import PaintingsContent, default_content
from companion.errors import AtelierError
from companion.fields import Field
from companion.games.paintings.model import ArtCard, Painting
from companion.games.paintings.position import PaintingsPosition, parse_position
from companion.games.paintings.words import PLACES, card_words, place_words
from companion.games.violations import Violation
from companion.words import listed


def check(
    before: dict[str, Any] | None, after: dict[str, Any], others: Sequence[dict[str, Any]] = ()
) -> tuple[Violation, ...]:
    """Every rule the change from ``before`` to ``after`` proves broken.

    ``others``: the other players' current positions. ``before`` None (no earlier scan) checks
    ``after`` alone, and so does a ``before`` that does not parse; an ``after`` (or another
    player's position) that does not parse proves nothing.
    """
    content = default_content()
    now = _parse(after, content)
    if now is None:
        return ()
    found: list[Violation] = []
    was = None if before is None else _parse(before, content)
    if was is not None:
        found += _changed(was.paintings, now.paintings)
        found += _removed(was.paintings, now.paintings)
        found += _too_many(was.paintings, now.paintings)
    elsewhere = [p for p in (_parse(o, content) for o in others) if p is not None]
    found += _twice(now, elsewhere)
    return tuple(found)


def _parse(position: dict[str, Any], content: PaintingsContent) -> PaintingsPosition | None:
    if not isinstance(position, dict) or position.get("game") != "paintings":
        return None
    try:
        return parse_position(Field(position), content)
    except (AtelierError, ValueError):
        return None


def card_name(painting: int, place: int) -> str:
    """The scanner's name for a card place: painting numbers count from 1, places bottom first."""
    return f"painting {painting} card {PLACES[place]}"


def _same(first: ArtCard, second: ArtCard) -> bool:
    """Whether two reads can be the same physical card."""
    if first.id is not None and second.id is not None:
        return first.id == second.id
    # An inline read carries no id: the same printed slots may be the same card.
    return first.slots == second.slots


def _changed(was: Sequence[Painting], now: Sequence[Painting]) -> list[Violation]:
    found = []
    # Only the paintings in both scans: a missing or extra one is another rule's.
    for number, (old, new) in enumerate(zip(was, now, strict=False), 1):
        places = [k for k in range(3) if not _same(old.cards[k], new.cards[k])]
        if not places:
            continue
        # Every card still there, in other places: the sleeve was reordered.
        reordered = all(any(_same(o, n) for n in new.cards) for o in old.cards) and all(
            any(_same(o, n) for o in old.cards) for n in new.cards
        )
        what = (
            "its cards are in another order"
            if reordered
            else "; ".join(
                f"the {PLACES[k]} card was {card_words(old.cards[k])}, "
                f"now {card_words(new.cards[k])}"
                for k in places
            )
        )
        found.append(
            Violation(
                "painting-changed",
                tuple(card_name(number, k) for k in places),
                f"a completed painting never changes, but painting {number} did: {what}",
            )
        )
    return found


def _removed(was: Sequence[Painting], now: Sequence[Painting]) -> list[Violation]:
    gone = range(len(now) + 1, len(was) + 1)
    if not gone:
        return []
    numbers = ", ".join(str(n) for n in gone)
    return [
        Violation(
            "painting-removed",
            tuple(card_name(n, k) for n in gone for k in range(3)),
            f"paintings are never taken back, but painting{'s' if len(gone) > 1 else ''} "
            f"{numbers} {'are' if len(gone) > 1 else 'is'} gone",
        )
    ]


def _too_many(was: Sequence[Painting], now: Sequence[Painting]) -> list[Violation]:
    new = range(len(was) + 1, len(now) + 1)
    if len(new) <= 1:
        return []
    return [
        Violation(
            "one-painting-per-turn",
            tuple(card_name(n, k) for n in new for k in range(3)),
            f"a turn completes at most one painting, but {len(new)} new paintings appeared "
            f"(paintings {', '.join(str(n) for n in new)})",
        )
    ]


def _twice(now: PaintingsPosition, others: Sequence[PaintingsPosition]) -> list[Violation]:
    places: dict[str, list[tuple[int, int]]] = {}
    cards: dict[str, ArtCard] = {}
    for number, painting in enumerate(now.paintings, 1):
        for k, card in enumerate(painting.cards):
            if card.id is not None:
                places.setdefault(card.id, []).append((number, k))
                cards[card.id] = card
    # The parser already refuses a hand card that is also in a painting of the same position.
    elsewhere = {
        card.id
        for other in others
        for card in (*(c for p in other.paintings for c in p.cards), *(other.hand or ()))
        if card.id is not None
    }
    reasons = []
    components: list[str] = []
    for card_id, found in places.items():
        names = [card_name(*place) for place in found]
        where = listed([place_words(*place) for place in found])
        if len(found) > 1:
            reasons.append(f"{card_words(cards[card_id])} is {where}")
            components += names
        if card_id in elsewhere:
            reasons.append(
                f"{card_words(cards[card_id])}, {where}, is also on another player's board"
            )
            components += [n for n in names if n not in components]
    if not reasons:
        return []
    return [
        Violation(
            "card-twice",
            tuple(components),
            "the deck holds each card once, but " + "; ".join(reasons),
        )
    ]
