"""The Paintings catalogue: the art deck and the twelve scoring cards with their tracks.

The default catalogue is ``paintings.json`` beside this module; a user may load their own file
of the same format (``atelier score --deck FILE``). A user file must give its art cards; its
``scoring_cards`` section may leave cards out, and those keep their default tracks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.errors import FieldError, SourceError
from companion.fields import Field, read_json_file
from companion.games.paintings.codec import parse_goal, parse_slots
from companion.games.paintings.model import ArtCard, Goal, ScoringCard

DEFAULT_PATH = Path(__file__).with_name("paintings.json")
FORMAT = 1
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
        raise field.error(f"missing scoring card(s): {', '.join(missing)}")
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
    root = Field(document)
    members = root.members(required=("format", "game", "cards"), optional=("name", "scoring_cards"))
    if members["format"].integer() != FORMAT:
        raise members["format"].error(f"unsupported format (this version reads {FORMAT})")
    if members["game"].string() != "paintings":
        raise members["game"].error("this is not a Paintings catalogue")
    cards = _cards(members["cards"])
    defaults = fallback.scoring_cards if fallback is not None else None
    if "scoring_cards" in members:
        scoring = _scoring_cards(members["scoring_cards"], defaults)
    elif defaults is not None:
        scoring = defaults
    else:
        raise FieldError("scoring_cards", "missing")
    name = members["name"].string() if "name" in members else "custom"
    return PaintingsContent(name=name, cards=cards, scoring_cards=scoring)


@cache
def default_content() -> PaintingsContent:
    """The bundled catalogue, parsed once: it is immutable, so sharing it is safe."""
    return load_content(DEFAULT_PATH, fallback=None)


def load_content(path: Path, fallback: PaintingsContent | None = None) -> PaintingsContent:
    """Load a catalogue file; errors name the file and the field."""
    try:
        return parse_content(read_json_file(path), fallback)
    except FieldError as exc:
        raise SourceError(str(path), exc) from None


def load_user_content(path: Path) -> PaintingsContent:
    return load_content(path, fallback=default_content())
