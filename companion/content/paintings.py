"""The Paintings catalogue: the art deck and the twelve scoring cards with their tracks.

The default catalogue is ``paintings.json`` beside this module; a user may load their own file
of the same format (``atelier score --deck FILE``). A user file must give its art cards; its
``scoring_cards`` section may leave cards out, and those keep their default tracks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.content.files import ContentFile, content_name, read_header
from companion.errors import FieldError
from companion.fields import Field
from companion.games.paintings.codec import parse_goal, parse_slots
from companion.games.paintings.model import ArtCard, Goal, ScoringCard

DEFAULT_PATH = Path(__file__).with_name("paintings.json")
MAX_TRACK = 10


@dataclass(frozen=True)
class PaintingsContent:
    name: str
    cards: Mapping[str, ArtCard]
    scoring_cards: Mapping[Goal, ScoringCard]

    def deck(self) -> tuple[ArtCard, ...]:
        return tuple(self.cards.values())


def _parse_track(field: Field) -> tuple[int, ...]:
    values = [f.integer(0, None) for f in field.array(min_len=1, max_len=MAX_TRACK)]
    for index in range(1, len(values)):
        if values[index] < values[index - 1]:
            raise field.error(f"a track never goes down ({values[index - 1]} then {values[index]})")
    return tuple(values)


def _parse_scoring_card(field: Field) -> tuple[Field, ScoringCard]:
    members = field.members(required=("id", "track"), optional=("text",))
    goal = parse_goal(members["id"])
    text = members["text"].string() if "text" in members else ""
    return members["id"], ScoringCard(goal, _parse_track(members["track"]), text)


def _scoring_cards(
    field: Field, fallback: Mapping[Goal, ScoringCard] | None
) -> Mapping[Goal, ScoringCard]:
    table: dict[Goal, ScoringCard] = dict(fallback or {})
    given: set[Goal] = set()
    for id_field, card in (_parse_scoring_card(f) for f in field.array(min_len=1)):
        if card.goal in given:
            raise id_field.error(f"duplicate scoring card {card.goal.value!r}")
        given.add(card.goal)
        table[card.goal] = card
    missing = [g.value for g in Goal if g not in table]
    if missing:
        raise field.error(
            f"missing scoring card{'s' if len(missing) > 1 else ''}: {', '.join(missing)}"
        )
    # Catalogue order, whatever order the file lists them in.
    return MappingProxyType({goal: table[goal] for goal in Goal})


def _cards(field: Field) -> Mapping[str, ArtCard]:
    table: dict[str, ArtCard] = {}
    for entry in field.array(min_len=1):
        members = entry.members(required=("id", "slots"))
        card_id = members["id"].string()
        if card_id in table:
            raise members["id"].error(f"duplicate art card id {card_id!r}")
        table[card_id] = ArtCard(parse_slots(members["slots"]), id=card_id)
    return MappingProxyType(table)


def parse_content(document: Any, fallback: PaintingsContent | None = None) -> PaintingsContent:
    """Validate a catalogue document; scoring cards it omits come from ``fallback``."""
    members = read_header(
        document,
        "paintings",
        "a Paintings catalogue",
        required=("cards",),
        optional=("scoring_cards",),
    )
    cards = _cards(members["cards"])
    defaults = fallback.scoring_cards if fallback is not None else None
    if "scoring_cards" in members:
        scoring = _scoring_cards(members["scoring_cards"], defaults)
    elif defaults is not None:
        scoring = defaults
    else:
        raise FieldError("scoring_cards", "missing")
    return PaintingsContent(name=content_name(members), cards=cards, scoring_cards=scoring)


FILE = ContentFile(DEFAULT_PATH, parse_content)


def default_content() -> PaintingsContent:
    return FILE.default


def content_for(deck: Path | None) -> PaintingsContent:
    """The user's catalogue over the defaults when one is given, else the defaults."""
    return FILE.for_deck(deck)
