"""Legality warnings for a scanned board, from the rules engine of its game.

Color Field is the game whose rules the companion can check between two scans of a canvas
(games.md section 1). A table is scanned once per turn, so two consecutive scans of a player's
canvas in one round are one turn apart; the first scan of a round follows priming or the reset
between rounds, which one photo cannot tell apart, so it is not judged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.content.colorfield import default_content
from companion.errors import AtelierError
from companion.fields import Field
from companion.games.colorfield.changes import diff
from companion.games.colorfield.legality import Transition, check
from companion.games.colorfield.position import parse_canvas
from companion.games.colorfield.state import ROUNDS


@dataclass(frozen=True)
class TurnContext:
    """What the table knew before a scan: the player's canvas as last accepted and their turn."""

    before: dict[str, Any]
    tokens_left: int
    round_number: int
    turn_number: int

    def to_json(self) -> dict[str, Any]:
        return {
            "before": self.before,
            "tokens_left": self.tokens_left,
            "round": self.round_number,
            "turn": self.turn_number,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> TurnContext:
        return TurnContext(data["before"], data["tokens_left"], data["round"], data["turn"])


@dataclass(frozen=True)
class Verdict:
    warnings: tuple[dict[str, Any], ...]  # each {"rule", "spaces", "message"}
    tokens_spent: int  # Inspiration tokens the change needs, in its most charitable reading


def judge(game: str, context: TurnContext | None, position: dict[str, Any]) -> Verdict:
    """The violations the change from ``context.before`` to ``position`` proves."""
    if game != "colorfield" or context is None:
        return Verdict((), 0)
    content = default_content()
    try:
        before = parse_canvas(Field(context.before), content)
        after = parse_canvas(Field(position), content)
    except AtelierError:
        return Verdict((), 0)  # a position that does not parse is already reported as a problem
    if before.board != after.board:
        return Verdict((), 0)  # another canvas on this seat: nothing to compare
    round_number = min(max(context.round_number, 1), ROUNDS)
    transition = Transition.turn(context.tokens_left, round_number, context.turn_number)
    violations = check(before, after, transition)
    return Verdict(tuple(v.to_json() for v in violations), diff(before, after).tokens)
