"""Color Field's Community Tools at the table: the card revealed each round, who declined it, and
what it does to the scores and the Inspiration allowance.

No board shows the card, so the players enter it in a tap, and each player's decline, logged as
events like scans; the last card entered for a round counts. The effects are the engine's
(``games.colorfield.tools``): a card's round bonus (Mahl Stick) is computed at the round's end
from every seat's board of the round and banked with the round's score, its explanation logged
with the round's end; its token allowance (Local Collective) judges the round's scans. A player
who declined gets neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from companion.content.colorfield import default_content
from companion.errors import AtelierError
from companion.fields import Field
from companion.games.colorfield.position import parse_canvas
from companion.games.colorfield.scoring import CanvasScore, Patch, score_canvas
from companion.games.colorfield.tools import DEFAULT_EFFECTS, ActiveTool, ToolBonus, no_bonus
from companion.table.events import TOOL_CARD, TOOL_DECLINE
from companion.table.readings import BoardReading

TOOLS_GAMES: Final = frozenset({"colorfield"})


@dataclass(frozen=True)
class ToolPoints:
    """What a round's card gave one seat at the round's end, and why."""

    round: int
    seat: int
    card: str
    points: int
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "seat": self.seat,
            "card": self.card,
            "points": self.points,
            "explanation": self.explanation,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> ToolPoints:
        return ToolPoints(
            int(data["round"]),
            int(data["seat"]),
            str(data["card"]),
            int(data["points"]),
            str(data["explanation"]),
        )


@dataclass(frozen=True)
class TableTools:
    """The cards and declines entered, and the points banked from them."""

    cards: tuple[tuple[int, str | None], ...] = ()  # (round, card id or None), by round
    declines: tuple[tuple[int, int], ...] = ()  # (round, seat) that declined that round's card
    points: tuple[ToolPoints, ...] = ()  # banked at each round's end

    def card(self, round_number: int) -> str | None:
        return dict(self.cards).get(round_number)

    def declined(self, round_number: int, seat: int) -> bool:
        return (round_number, seat) in self.declines

    def declined_seats(self, round_number: int) -> tuple[int, ...]:
        return tuple(sorted(s for r, s in self.declines if r == round_number))

    def with_event(self, kind: str, data: dict[str, Any]) -> TableTools:
        round_number = int(data["round"])
        if kind == TOOL_CARD:
            card = data["card"]
            kept = [(r, c) for r, c in self.cards if r != round_number]
            # A decline was of the card then entered: another card is a fresh choice for all.
            declines = self.declines
            if card != self.card(round_number):
                declines = tuple(d for d in declines if d[0] != round_number)
            return replace(
                self, cards=tuple(sorted([*kept, (round_number, card)])), declines=declines
            )
        if kind == TOOL_DECLINE:
            seat = int(data["seat"])
            others = tuple(d for d in self.declines if d != (round_number, seat))
            chosen = (*others, (round_number, seat)) if data["declined"] else others
            return replace(self, declines=tuple(sorted(chosen)))
        raise ValueError(f"{kind} is not a Community Tools event")

    def with_points(self, entries: Sequence[dict[str, Any]]) -> TableTools:
        return replace(self, points=(*self.points, *(ToolPoints.from_json(e) for e in entries)))

    def points_of(self, seat: int) -> tuple[ToolPoints, ...]:
        return tuple(p for p in self.points if p.seat == seat)


def known_cards() -> tuple[str, ...]:
    return tuple(sorted(default_content().tools))


def parse_card(field: Field) -> str | None:
    """A card id of the catalogue, or null for a round without a card."""
    if field.is_null():
        return None
    card = field.string()
    if card not in default_content().tools:
        raise field.error(
            f"unknown Community Tools card {card!r} (known: {', '.join(known_cards())})"
        )
    return card


def card_name(card: str) -> str:
    """The card's printed name (its id for a card the catalogue no longer has)."""
    known = default_content().tools.get(card)
    return known.name if known is not None else card


def relies_on(tools: TableTools, round_number: int, base: int, spent: int) -> bool:
    """Whether a seat that used ``spent`` tokens in the game relies on the round's card: it
    allows more than ``base`` and the seat used more (the engine then refuses a decline)."""
    card = tools.card(round_number)
    return card is not None and spent > base and active(card).tokens_allowed(base) > base


def active(card: str) -> ActiveTool:
    """The card with its effect, resolved as the engine resolves the cards of a game."""
    content = default_content()
    if card not in content.tools:
        raise AtelierError(
            f"unknown Community Tools card {card!r} (known: {', '.join(known_cards())})"
        )
    return ActiveTool(content.tools[card], DEFAULT_EFFECTS[content.tools[card].effect])


def tokens_allowed(base: int, tools: TableTools, round_number: int, seat: int) -> int:
    """The seat's Inspiration allowance while the round lasts: the table's, unless this round's
    card changes it and the seat did not decline it."""
    card = tools.card(round_number)
    if card is None or tools.declined(round_number, seat):
        return base
    return active(card).tokens_allowed(base)


def round_points(
    tools: TableTools,
    round_number: int,
    seats: Sequence[int],
    boards: Sequence[BoardReading | None],
) -> tuple[ToolPoints, ...]:
    """Each seat's points from the round's card at its end (none for a card that scores
    nothing), from every seat's board of the round in seat order; a seat without a scored
    board of the round counts as an empty canvas."""
    card = tools.card(round_number)
    if card is None:
        return ()
    tool = active(card)
    if tool.effect.round_bonus is no_bonus:
        return ()
    scores = tuple(_canvas_score(board) for board in boards)
    found = []
    for index, seat in enumerate(seats):
        if tools.declined(round_number, seat):
            bonus = ToolBonus(0, f"{tool.card.name}: declined")
        else:
            bonus = tool.bonus(index, scores)
        found.append(ToolPoints(round_number, seat, card, bonus.points, bonus.reason))
    return tuple(found)


NO_CANVAS: Final = CanvasScore((), Patch(None, (), ()))


def _canvas_score(board: BoardReading | None) -> CanvasScore:
    if board is None or board.scored.score is None:
        return NO_CANVAS
    return score_canvas(parse_canvas(Field(board.scored.position), default_content()))
