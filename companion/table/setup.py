"""What a table is set up with: the game, the players in their seats, and the options a camera
cannot see (the Paintings scoring cards, the Isle conditions, the Pigment Lab shade row)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.content.pigments import content_for
from companion.fields import Field
from companion.games.isle.model import Colour, Condition
from companion.games.paintings.model import Goal
from companion.games.paintings.scoring import SCORING_CARDS_IN_PLAY
from companion.observation import GameOptions

# Seats printed for each game: a board read from a photo names its seat by its markers.
PRINTED_SEATS: Mapping[str, int] = MappingProxyType(
    {"colorfield": 4, "paintings": 5, "isle": 4, "pigments": 4}
)
NAME_MAX = 24
SHADE_ROW_MAX = 12
INSPIRATION_TOKENS = 3  # games.md section 1, per player for the whole game
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True)
class Player:
    seat: int  # the printed seat whose boards are this player's
    name: str
    colour: str  # "#rrggbb", how the views mark this player

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "colour": self.colour}


@dataclass(frozen=True)
class TableOptions:
    community_tools: bool = False  # Color Field's advanced cards are in play
    inspiration_tokens: int = INSPIRATION_TOKENS  # Color Field: per player for the game
    scoring_cards: tuple[str, ...] = ()  # Paintings: the four in play
    conditions: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    shade_row: tuple[str, ...] = ()  # Pigment Lab: the shade cards on display
    advice: bool = True  # a player may ask for a suggested move

    def game_options(self) -> GameOptions:
        # The players see a shade card's face only: its recipe is the puzzle.
        return GameOptions(
            scoring_cards=self.scoring_cards or None,
            conditions=dict(self.conditions) or None,
            face_down=True,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "community_tools": self.community_tools,
            "inspiration_tokens": self.inspiration_tokens,
            "scoring_cards": list(self.scoring_cards),
            "conditions": dict(self.conditions),
            "shade_row": list(self.shade_row),
            "advice": self.advice,
        }


@dataclass(frozen=True)
class TableSetup:
    game: str
    players: tuple[Player, ...]
    options: TableOptions

    def player(self, seat: int) -> Player | None:
        return next((p for p in self.players if p.seat == seat), None)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": [p.to_json() for p in self.players],
            "options": self.options.to_json(),
        }


def parse_setup(root: Field) -> TableSetup:
    """A table's setup: ``{"game", "players": [{"name", "colour"?, "seat"?}], "options"?}``.

    Seats default to 1, 2, 3... in the order given; Paintings needs its four scoring cards and
    Isle of Colors its four conditions, since no scan can be scored without them.
    """
    members = root.members(required=("game", "players"), optional=("options",))
    game = members["game"].string()
    if game not in PRINTED_SEATS:
        known = ", ".join(PRINTED_SEATS)
        raise members["game"].error(f"unknown game {game!r} (known: {known})")
    seats = PRINTED_SEATS[game]
    entries = members["players"].array(min_len=1, max_len=seats)
    players = tuple(_player(entry, number, seats) for number, entry in enumerate(entries, 1))
    taken: set[int] = set()
    for player, entry in zip(players, entries, strict=True):
        if player.seat in taken:
            raise entry.error(f"seat {player.seat} is taken twice")
        taken.add(player.seat)
    options = _options(members["options"] if "options" in members else Field({}, "options"), game)
    return TableSetup(game, tuple(sorted(players, key=lambda p: p.seat)), options)


def setup_from_json(data: Any) -> TableSetup:
    """A setup stored by ``to_json`` (already validated when the table was created)."""
    return parse_setup(Field(data))


def _player(entry: Field, number: int, seats: int) -> Player:
    members = entry.members(required=("name",), optional=("colour", "seat"))
    name = members["name"].string().strip()
    if len(name) > NAME_MAX:
        raise members["name"].error(f"at most {NAME_MAX} characters")
    colour = "#888888"
    if "colour" in members:
        colour = members["colour"].string()
        if not COLOUR.fullmatch(colour):
            raise members["colour"].error(f"expected a colour like #1f77b4, got {colour!r}")
    seat = members["seat"].integer(1, seats) if "seat" in members else number
    return Player(seat, name, colour.lower())


def _options(root: Field, game: str) -> TableOptions:
    members = root.members(
        optional=(
            "community_tools",
            "inspiration_tokens",
            "scoring_cards",
            "conditions",
            "shade_row",
            "advice",
        )
    )
    community = members["community_tools"].boolean() if "community_tools" in members else False
    tokens = INSPIRATION_TOKENS
    if "inspiration_tokens" in members:
        tokens = members["inspiration_tokens"].integer(0, 9)
    cards: tuple[str, ...] = ()
    if "scoring_cards" in members and members["scoring_cards"].value:
        cards = _scoring_cards(members["scoring_cards"])
    elif game == "paintings":
        raise root.error("Paintings needs its four scoring cards (options.scoring_cards)")
    conditions: dict[str, str] = {}
    if "conditions" in members and members["conditions"].value:
        conditions = _conditions(members["conditions"])
    elif game == "isle":
        raise root.error("Isle of Colors needs one condition per colour (options.conditions)")
    row: tuple[str, ...] = ()
    if "shade_row" in members:
        shades = content_for(None).shades
        entries = members["shade_row"].array(max_len=SHADE_ROW_MAX)
        for entry in entries:
            entry.lookup(shades, "shade")
        row = tuple(entry.string() for entry in entries)
    advice = members["advice"].boolean() if "advice" in members else True
    return TableOptions(community, tokens, cards, MappingProxyType(conditions), row, advice)


def _scoring_cards(root: Field) -> tuple[str, ...]:
    entries = root.array(length=SCORING_CARDS_IN_PLAY)
    cards = tuple(e.enum(Goal, "scoring card").value for e in entries)
    if len(set(cards)) != len(cards):
        raise root.error("name four different scoring cards")
    return cards


def _conditions(root: Field) -> dict[str, str]:
    members = root.members(required=tuple(c.value for c in Colour))
    chosen: dict[str, str] = {}
    for colour in Colour:
        entry = members[colour.value]
        condition = entry.enum(Condition, "condition")
        if condition.colour is not colour:
            raise entry.error(f"{condition.value!r} is a {condition.colour} condition")
        chosen[colour.value] = condition.value
    return chosen
