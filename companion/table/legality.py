"""Legality warnings for a scanned board, from the rules engine of its game.

A table is scanned once per turn, so a board is judged against what the same seat showed one
turn (Isle of Colors: one round) earlier: ``TurnContext`` holds that board and what else the
table knows of the turn. Each game's check reports only what no legal reading of the two boards
allows; the warnings are stored with the scan and never block it.

- Color Field: two consecutive scans of a canvas in one round are one turn apart; the first scan
  of a round follows priming or the reset between rounds and is judged as such, with at most
  one turn after it (``colorfield_rules``).
- Paintings: a player's paintings against their last scan (completed paintings never change, one
  a turn), and every catalogue card against the other players' boards (a card exists once).
- Pigment Lab: a palette board against its last scan, as one draft and the free actions, with
  the Fault diagnoses entered since.
- Isle of Colors: the sheet as it stood when the round began against the sheet now, with the
  roll once it is entered and the colour the seat used the round before. A sheet is judged only
  from the second round the table plays: the table may have joined a game under way (a live
  camera started mid-game), so even in its first round a sheet need not have started empty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.content import isle
from companion.content.colorfield import default_content
from companion.errors import AtelierError
from companion.fields import Field
from companion.games.colorfield.changes import diff
from companion.games.colorfield.legality import Transition, check
from companion.games.colorfield.legality import Violation as ColorFieldViolation
from companion.games.colorfield.position import parse_canvas
from companion.games.colorfield.state import ROUNDS
from companion.games.isle import legality as isle_legality
from companion.games.isle.model import Colour, Sheet
from companion.games.isle.position import parse_position as parse_isle
from companion.games.paintings import legality as paintings_legality
from companion.games.pigments import legality as pigments_legality
from companion.table.colorfield_rules import empty_canvas, judge_round_start, round_deck


@dataclass(frozen=True)
class TurnContext:
    """What the table knew before a scan: the seat's board to compare with (None: no earlier
    board, where a game can still check what one board shows) and the turn.

    Color Field: ``tokens_left``, the seat's unused Inspiration tokens; a round's first scan
    (``round_start``) is judged against the seat's last board of the previous round, or an
    empty canvas (``before`` None) in round 1, with the tiles the player may keep
    (``keep_allowance``). ``roll`` (Isle): the
    round's die once entered; ``previous_colour`` (Isle): the colour the seat used the round
    before, when the table saw it; ``players``: how many sit at the table; ``others``
    (Paintings): the other players' boards as read; ``diagnoses`` (Pigment Lab): the verdicts
    entered for the seat since ``before`` was scanned (true: right).
    """

    before: dict[str, Any] | None
    tokens_left: int
    round_number: int
    turn_number: int
    roll: int | None = None
    previous_colour: str | None = None
    players: int = 2
    others: tuple[dict[str, Any], ...] = ()
    diagnoses: tuple[bool, ...] = ()
    round_start: bool = False
    keep_allowance: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "before": self.before,
            "tokens_left": self.tokens_left,
            "round": self.round_number,
            "turn": self.turn_number,
            "roll": self.roll,
            "previous_colour": self.previous_colour,
            "players": self.players,
            "others": list(self.others),
            "diagnoses": list(self.diagnoses),
            "round_start": self.round_start,
            "keep_allowance": self.keep_allowance,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> TurnContext:
        # Logs written before a key existed lack it: the default is what the table knew then.
        return TurnContext(
            data["before"],
            data["tokens_left"],
            data["round"],
            data["turn"],
            data.get("roll"),
            data.get("previous_colour"),
            data.get("players", 2),
            tuple(data.get("others", ())),
            tuple(data.get("diagnoses", ())),
            bool(data.get("round_start", False)),
            int(data.get("keep_allowance", 0)),
        )


@dataclass(frozen=True)
class Verdict:
    warnings: tuple[dict[str, Any], ...]  # each {"rule", "components", "message"}
    tokens_spent: int  # Color Field: tokens the change needs, in its most charitable reading


NO_VERDICT = Verdict((), 0)


def judge(game: str, context: TurnContext | None, position: dict[str, Any]) -> Verdict:
    """The violations the change from ``context.before`` to ``position`` proves."""
    judge_game = JUDGES.get(game)
    if context is None or judge_game is None:
        return NO_VERDICT
    try:
        return judge_game(context, position)
    except AtelierError:
        return NO_VERDICT  # a position that does not parse is already reported as a problem


def colour_used(context: TurnContext | None, position: dict[str, Any]) -> str | None:
    """Isle of Colors: the one colour a judged round's change filled, or None."""
    if context is None or context.before is None:
        return None
    try:
        before, after = _sheet(context.before), _sheet(position)
    except AtelierError:
        return None
    used = isle_legality.fill_between(before, after).colour
    return None if used is None else used.value


def _colorfield(context: TurnContext, position: dict[str, Any]) -> Verdict:
    content = default_content()
    after = parse_canvas(Field(position), content)
    before = (
        empty_canvas(after)
        if context.before is None
        else parse_canvas(Field(context.before), content)
    )
    if before.board != after.board:
        return NO_VERDICT  # another canvas on this seat: nothing to compare
    round_number = min(max(context.round_number, 1), ROUNDS)
    if context.round_start:
        start = judge_round_start(
            before, after, round_number, context.keep_allowance, context.tokens_left
        )
        return Verdict(_spaces_named(start.violations), start.tokens)
    transition = Transition.turn(context.tokens_left, round_number, context.turn_number)
    change = diff(before, after)
    violations = check(before, after, transition) + round_deck(after, change.placed, round_number)
    return Verdict(_spaces_named(violations), change.tokens)


def _spaces_named(violations: Sequence[ColorFieldViolation]) -> tuple[dict[str, Any], ...]:
    """Color Field's violations name spaces by number; as every game's, by component too."""
    return tuple(
        {**v.to_json(), "components": [f"space {s}" for s in v.spaces]} for v in violations
    )


def _isle(context: TurnContext, position: dict[str, Any]) -> Verdict:
    if context.before is None:
        return NO_VERDICT
    before, after = _sheet(context.before), _sheet(position)
    if before.island != after.island:
        return NO_VERDICT  # another island on this seat: nothing to compare
    previous = None if context.previous_colour is None else Colour(context.previous_colour)
    round_ = isle_legality.Round(context.roll, previous, context.players)
    violations = isle_legality.check(before, after, round_)
    return Verdict(tuple(v.to_json() for v in violations), 0)


def _paintings(context: TurnContext, position: dict[str, Any]) -> Verdict:
    violations = paintings_legality.check(context.before, position, context.others)
    return Verdict(tuple(v.to_json() for v in violations), 0)


def _pigments(context: TurnContext, position: dict[str, Any]) -> Verdict:
    if context.before is None:
        return NO_VERDICT
    violations = pigments_legality.check(context.before, position, context.diagnoses)
    return Verdict(tuple(v.to_json() for v in violations), 0)


def _sheet(position: dict[str, Any]) -> Sheet:
    return parse_isle(Field(position), isle.default_content()).sheet


JUDGES: Mapping[str, Callable[[TurnContext, dict[str, Any]], Verdict]] = MappingProxyType(
    {"colorfield": _colorfield, "paintings": _paintings, "isle": _isle, "pigments": _pigments}
)
