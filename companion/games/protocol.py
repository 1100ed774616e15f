"""One interface for every game: ``GameRules``, the values it speaks in, and the shared ranking.

Each game package has a small ``rules`` module whose class plays the game's own engine through
this interface, so a caller can set up, step and score any game without knowing which it is:

- ``new_game(setup)``: the state at the start, from the players, the seed and the options;
- ``legal_actions(state)``: every action the rules allow now, each distinct move once;
- ``apply(state, action)``: the next state; an illegal action raises ``IllegalActionError``
  whose ``rule`` names the rule it breaks;
- ``whose_turn(state)``: the seat the game waits for, or None when it waits for the table (a die
  roll, scoring a round) or is over. Where players act at once (Isle's fills, Color Field's
  keeps) it is the first of them in seat order, and the legal actions are all of theirs;
- ``round(state)`` and ``over(state)``;
- ``standings(state)``: every seat ranked by the game's end-of-game rule, tie-breaks included,
  for the position as it stands (final once the game is over);
- ``score(state, seat)``: the seat's position scored as ``atelier score`` scores it, explained.

States are immutable values and every engine is pure: any randomness comes from the seed in the
setup or arrives as an action (Isle's die roll).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from companion.errors import IllegalActionError

State = TypeVar("State")
Action = TypeVar("Action")

POINTS = "points"
SHARED = "shared"


@dataclass(frozen=True)
class Setup:
    """A new game: the number of players, the seed every shuffle and draw comes from, and the
    game's options as JSON values (``{"community_tools": ["mahl-stick"]}``); an option left out
    takes the game's default, drawn from the seed where the rules draw it at random."""

    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TieBreak:
    """One tie-break of the game's end rule and a seat's value for it (more is better)."""

    criterion: str
    value: int


@dataclass(frozen=True)
class Standing:
    """A seat's place: rank 1 wins, and seats equal on points and every tie-break share a rank.

    ``decided_by`` is the first criterion (``"points"`` or a tie-break's) on which the seat
    differs from every other seat, or ``"shared"`` when another seat is equal on all of them.
    """

    seat: int
    points: int
    rank: int
    tie_breaks: tuple[TieBreak, ...]
    decided_by: str


@dataclass(frozen=True)
class Score:
    """A seat's points, with the breakdown as JSON and in words, as ``atelier score`` gives them."""

    points: int
    data: dict[str, Any]
    text: str


@runtime_checkable
class GameRules(Protocol[State, Action]):
    """A game's rules over its immutable ``State`` and its ``Action`` values."""

    def new_game(self, setup: Setup) -> State:
        """The state at the start; a setup the game does not allow raises ``AtelierError``."""
        ...

    def legal_actions(self, state: State) -> tuple[Action, ...]: ...

    def apply(self, state: State, action: Action) -> State: ...

    def whose_turn(self, state: State) -> int | None: ...

    def round(self, state: State) -> int: ...

    def over(self, state: State) -> bool: ...

    def standings(self, state: State) -> tuple[Standing, ...]: ...

    def score(self, state: State, seat: int) -> Score: ...


def ranked(
    points: Sequence[int], tie_breaks: Sequence[tuple[str, Sequence[int]]] = ()
) -> tuple[Standing, ...]:
    """Standings from each seat's points and, in the order the rules apply them, each
    tie-break's values by seat; best first, equal places in seat order."""
    criteria = (POINTS, *(name for name, _ in tie_breaks))
    keys = [
        (points[seat], *(values[seat] for _, values in tie_breaks)) for seat in range(len(points))
    ]

    def decided_by(seat: int) -> str:
        # The criteria this seat shares with its nearest rival, as a count of leading equals.
        shared = max(
            (_common_prefix(keys[seat], other) for i, other in enumerate(keys) if i != seat),
            default=0,
        )
        return SHARED if shared == len(criteria) else criteria[shared]

    standings = [
        Standing(
            seat,
            points[seat],
            1 + sum(1 for other in keys if other > keys[seat]),
            tuple(TieBreak(name, values[seat]) for name, values in tie_breaks),
            decided_by(seat),
        )
        for seat in range(len(points))
    ]
    return tuple(sorted(standings, key=lambda s: (s.rank, s.seat)))


def _common_prefix(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    count = 0
    for x, y in zip(a, b, strict=True):
        if x != y:
            break
        count += 1
    return count


def accepted(
    apply: Callable[[State, Action], object], state: State, candidates: Iterable[Action]
) -> tuple[Action, ...]:
    """The candidates the engine's ``apply`` accepts in ``state``: the engine alone says what is
    legal, so a list of legal actions can never disagree with it."""
    found = []
    for action in candidates:
        try:
            apply(state, action)
        except IllegalActionError:
            continue
        found.append(action)
    return tuple(found)
