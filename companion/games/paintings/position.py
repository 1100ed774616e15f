"""Reading and writing a Paintings position (positions.md, "paintings — one player's paintings")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.content.paintings import PaintingsContent
from companion.fields import Field
from companion.games.paintings.codec import card_to_json, parse_goal, parse_slots
from companion.games.paintings.model import CARDS_PER_PAINTING, ArtCard, Painting, ScoringCard
from companion.games.paintings.scoring import MAX_PAINTINGS, SCORING_CARDS_IN_PLAY


@dataclass(frozen=True)
class PaintingsPosition:
    """One player's paintings and the scoring cards in play."""

    scoring_cards: tuple[ScoringCard, ...]
    paintings: tuple[Painting, ...]


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


def parse_position(field: Field, content: PaintingsContent) -> PaintingsPosition:
    """A whole position document (its ``game`` key already checked by the dispatcher)."""
    members = field.members(required=("game", "scoring_cards", "paintings"))
    cards = parse_scoring_cards(members["scoring_cards"], content)
    paintings = tuple(
        parse_painting(f, content)
        for f in members["paintings"].array(min_len=1, max_len=MAX_PAINTINGS)
    )
    return PaintingsPosition(cards, paintings)


def position_to_json(position: PaintingsPosition) -> dict[str, Any]:
    return {
        "game": "paintings",
        "scoring_cards": [card.goal.value for card in position.scoring_cards],
        "paintings": [[card_to_json(c) for c in p.cards] for p in position.paintings],
    }
