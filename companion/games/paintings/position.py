"""Reading and writing a Paintings position (positions.md, "paintings — one player's paintings")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.content.paintings import PaintingsContent
from companion.fields import Field
from companion.games.paintings.codec import card_to_json, parse_goal, parse_slots
from companion.games.paintings.model import CARDS_PER_PAINTING, ArtCard, Painting, ScoringCard
from companion.games.paintings.scoring import MAX_PAINTINGS, SCORING_CARDS_IN_PLAY
from companion.games.paintings.state import HAND_LIMIT


@dataclass(frozen=True)
class PaintingsPosition:
    """One player's paintings and the scoring cards in play; ``hand`` is None when not given."""

    scoring_cards: tuple[ScoringCard, ...]
    paintings: tuple[Painting, ...]
    hand: tuple[ArtCard, ...] | None = None


def parse_card(field: Field, content: PaintingsContent) -> ArtCard:
    """``{"slots": [...]}``, ``{"card": id}``, or both (they must agree)."""
    members = field.members(optional=("slots", "card"))
    if "slots" not in members and "card" not in members:
        raise field.error("an art card needs 'slots' or 'card'")
    if "card" not in members:
        return ArtCard(parse_slots(members["slots"]))
    catalogue: ArtCard = members["card"].lookup(content.cards, "art card")
    if "slots" in members and parse_slots(members["slots"]) != catalogue.slots:
        raise members["slots"].error(f"do not match catalogue card {catalogue.id!r}")
    return catalogue


def parse_painting(field: Field, content: PaintingsContent) -> Painting:
    bottom, middle, top = (parse_card(f, content) for f in field.array(length=CARDS_PER_PAINTING))
    return Painting((bottom, middle, top))


def parse_scoring_cards(field: Field, content: PaintingsContent) -> tuple[ScoringCard, ...]:
    cards: list[ScoringCard] = []
    for entry in field.array(length=SCORING_CARDS_IN_PLAY):
        goal = parse_goal(entry)
        if any(card.goal is goal for card in cards):
            raise entry.error(f"scoring card {goal.value!r} is listed twice")
        cards.append(content.scoring_cards[goal])
    return tuple(cards)


def parse_hand(
    field: Field, paintings: tuple[Painting, ...], content: PaintingsContent
) -> tuple[ArtCard, ...]:
    """The art cards in the player's hand; a catalogue card is in one place only."""
    placed = {card.id: f"paintings[{i}]" for i, p in enumerate(paintings) for card in p.cards}
    hand: list[ArtCard] = []
    for entry in field.array(max_len=HAND_LIMIT):
        card = parse_card(entry, content)
        if card.id is not None and card.id in placed:
            raise entry.error(f"card {card.id!r} is already in {placed[card.id]}")
        if card.id is not None:
            placed[card.id] = field.path
        hand.append(card)
    return tuple(hand)


def parse_position(field: Field, content: PaintingsContent) -> PaintingsPosition:
    """A whole position document (its ``game`` key already checked by the dispatcher).

    With a ``hand`` the player is still painting: none to two paintings are done.
    """
    members = field.members(required=("game", "scoring_cards", "paintings"), optional=("hand",))
    cards = parse_scoring_cards(members["scoring_cards"], content)
    painting = "hand" in members
    done = members["paintings"].array(min_len=0 if painting else 1, max_len=MAX_PAINTINGS)
    if painting and len(done) == MAX_PAINTINGS:
        raise members["paintings"].error(
            f"all {MAX_PAINTINGS} paintings are done, so there is no 'hand' to paint from"
        )
    paintings = tuple(parse_painting(f, content) for f in done)
    hand = parse_hand(members["hand"], paintings, content) if painting else None
    return PaintingsPosition(cards, paintings, hand)


def position_to_json(position: PaintingsPosition) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "paintings",
        "scoring_cards": [card.goal.value for card in position.scoring_cards],
        "paintings": [[card_to_json(c) for c in p.cards] for p in position.paintings],
    }
    if position.hand is not None:
        out["hand"] = [card_to_json(c) for c in position.hand]
    return out
