"""Color Field legality between two accepted scans of one canvas (games.md section 1).

Each check is a pure function that returns the violations it can prove, one per broken rule,
naming the spaces involved. The scans are compared through the most charitable reading of what
happened (``changes.diff``), so nothing is reported that some reading of the scans allows.

Rules: ``priming-change``, ``priming-order``, ``priming-foundation``, ``up-mark`` (priming);
``one-tile-per-turn``, ``placement-outside-turn``, ``tile-removed`` and ``unpaid-rotation``,
``unpaid-swap`` or ``unpaid-inspiration`` (a shortfall over both kinds) for turns and Inspiration
between turns; ``keep-allowance``, ``kept-tile-changed`` (reset); ``turn-count``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.games.colorfield.changes import CanvasChange, diff
from companion.games.colorfield.model import Canvas, TileKind
from companion.games.colorfield.state import TURNS_PER_ROUND
from companion.games.colorfield.words import placed_tile_words, up_mark_words
from companion.words import plural

TransitionKind = Literal["priming", "turn", "reset", "inspiration"]
KINDS: tuple[TransitionKind, ...] = ("priming", "turn", "reset", "inspiration")


@dataclass(frozen=True)
class Violation:
    """A rule the change between two scans breaks: ``rule`` is a stable machine name."""

    rule: str
    spaces: tuple[int, ...]
    message: str

    def __post_init__(self) -> None:
        if list(self.spaces) != sorted(set(self.spaces)):
            raise ValueError(f"violation spaces must be sorted and distinct: {self.spaces}")

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "spaces": list(self.spaces), "message": self.message}


@dataclass(frozen=True)
class Transition:
    """What the table was doing between the two scans, and what that phase allows.

    ``tokens_left``: the player's unused Inspiration tokens before the change (turn and
    inspiration). ``keep_allowance``: tiles the player may keep (reset). ``round_number`` and
    ``turn_number`` (this turn's number in the round), when both are given, also check the turn
    count.
    """

    kind: TransitionKind
    tokens_left: int = 0
    keep_allowance: int = 0
    round_number: int | None = None
    turn_number: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown transition {self.kind!r} (known: {', '.join(KINDS)})")
        if self.tokens_left < 0:
            raise ValueError(f"tokens_left cannot be negative ({self.tokens_left})")
        if self.keep_allowance < 0:
            raise ValueError(f"keep_allowance cannot be negative ({self.keep_allowance})")
        if self.round_number is not None:
            _check_round(self.round_number)
        if self.turn_number is not None and self.turn_number < 1:
            raise ValueError(f"turn_number counts from 1, not {self.turn_number}")

    @staticmethod
    def priming() -> Transition:
        return Transition("priming")

    @staticmethod
    def turn(
        tokens_left: int, round_number: int | None = None, turn_number: int | None = None
    ) -> Transition:
        return Transition("turn", tokens_left, round_number=round_number, turn_number=turn_number)

    @staticmethod
    def inspiration(tokens_left: int) -> Transition:
        return Transition("inspiration", tokens_left)

    @staticmethod
    def reset(keep_allowance: int) -> Transition:
        return Transition("reset", keep_allowance=keep_allowance)


def check(before: Canvas, after: Canvas, transition: Transition) -> tuple[Violation, ...]:
    """Every violation the change from ``before`` to ``after`` proves in this phase."""
    change = diff(before, after)
    if transition.kind == "priming":
        return check_priming(before, after, change)
    if transition.kind == "reset":
        return check_reset(after, change, transition.keep_allowance)
    if transition.kind == "inspiration":
        return check_inspiration(change, transition.tokens_left)
    found = check_turn(change, transition.tokens_left)
    if transition.round_number is not None and transition.turn_number is not None:
        found += check_turn_count(transition.round_number, transition.turn_number)
    return found


def check_priming(before: Canvas, after: Canvas, change: CanvasChange) -> tuple[Violation, ...]:
    """Priming only fills the lowest empty spaces, with Foundation tiles, up-mark to the top.

    Inline tiles carry no kind and their printed top is only where the camera started listing
    edges, so neither their deck nor their up-mark can be proved wrong: they are not judged.
    """
    found: list[Violation] = []
    touched = sorted(set(change.replaced + change.emptied + change.rotated + change.moved))
    if touched:
        found.append(
            Violation(
                "priming-change",
                tuple(touched),
                f"priming only fills empty spaces, but {_spaces(touched)} changed",
            )
        )
    expected = before.empty()[: len(change.filled)]
    if change.filled != expected:
        skipped = [s for s in expected if s not in change.filled]
        beyond = [s for s in change.filled if s not in expected]
        found.append(
            Violation(
                "priming-order",
                tuple(sorted(skipped + beyond)),
                f"priming fills empty spaces in order 1..6, but {_spaces(skipped)} "
                f"{_was(skipped)} left empty while {_spaces(beyond)} {_was(beyond)} primed",
            )
        )
    primed = [(s, p) for s in change.filled if (p := after.at(s)) is not None]
    wrong_deck = [
        (s, p)
        for s, p in primed
        if p.tile.kind is not None and p.tile.kind is not TileKind.FOUNDATION
    ]
    if wrong_deck:
        found.append(
            Violation(
                "priming-foundation",
                tuple(s for s, _ in wrong_deck),
                "priming uses Foundation tiles only, but "
                + ", ".join(f"space {s} holds {placed_tile_words(p)}" for s, p in wrong_deck),
            )
        )
    unmarked = [(s, p) for s, p in primed if p.tile.up_mark and p.rotation != 0]
    if unmarked:
        found.append(
            Violation(
                "up-mark",
                tuple(s for s, _ in unmarked),
                "Foundation tiles are primed with the up-mark to the top, but "
                + ", ".join(
                    f"space {s} holds {placed_tile_words(p, deck=False)} with its up-mark "
                    f"{up_mark_words(p.rotation)}"
                    for s, p in unmarked
                ),
            )
        )
    return tuple(found)


def check_turn(change: CanvasChange, tokens_left: int) -> tuple[Violation, ...]:
    """A turn places at most one new tile (its rotation free); adjustments cost tokens."""
    found: list[Violation] = []
    if len(change.placed) > 1:
        found.append(
            Violation(
                "one-tile-per-turn",
                change.placed,
                f"a turn places one tile, but new tiles appeared in {_spaces(change.placed)}",
            )
        )
    return (*found, *_removed(change), *_unpaid(change, tokens_left))


def check_inspiration(change: CanvasChange, tokens_left: int) -> tuple[Violation, ...]:
    """Outside a turn a player may only rotate and swap, paying one token for each."""
    found: list[Violation] = []
    if change.placed:
        found.append(
            Violation(
                "placement-outside-turn",
                change.placed,
                f"new tiles are placed only during a turn, but {_spaces(change.placed)} "
                f"received one",
            )
        )
    return (*found, *_removed(change), *_unpaid(change, tokens_left))


def check_reset(after: Canvas, change: CanvasChange, keep_allowance: int) -> tuple[Violation, ...]:
    """Between rounds a player keeps at most the allowance, each tile exactly as it was."""
    found: list[Violation] = []
    kept = after.filled()
    if len(kept) > keep_allowance:
        found.append(
            Violation(
                "keep-allowance",
                kept,
                f"{len(kept)} tiles kept ({_spaces(kept)}), but the allowance is {keep_allowance}",
            )
        )
    reasons: list[str] = []
    if change.placed:
        reasons.append(f"{_spaces(change.placed)} now {_hold(change.placed)} a tile not kept")
    if change.rotated:
        reasons.append(f"{_spaces(change.rotated)} {_was(change.rotated)} rotated")
    reasons += [
        f"the tile from space {m.source} moved to space {m.target}"
        + (" and was rotated" if m.turned else "")
        for m in change.moves
    ]
    if reasons:
        found.append(
            Violation(
                "kept-tile-changed",
                tuple(sorted(set(change.placed + change.rotated + change.moved))),
                "kept tiles stay exactly as they were, but " + "; ".join(reasons),
            )
        )
    return tuple(found)


def check_turn_count(round_number: int, turns: int) -> tuple[Violation, ...]:
    """A player takes 5, 4 and 4 turns in rounds 1, 2 and 3."""
    _check_round(round_number)
    allowed = TURNS_PER_ROUND[round_number - 1]
    if turns <= allowed:
        return ()
    return (
        Violation(
            "turn-count",
            (),
            f"round {round_number} allows {allowed} turns per player, but {turns} were taken",
        ),
    )


def _removed(change: CanvasChange) -> tuple[Violation, ...]:
    if not change.emptied:
        return ()
    return (
        Violation(
            "tile-removed",
            change.emptied,
            "a tile leaves the canvas only when a new tile takes its space, but "
            f"{_spaces(change.emptied)} {_was(change.emptied)} emptied",
        ),
    )


def _unpaid(change: CanvasChange, tokens_left: int) -> tuple[Violation, ...]:
    """Tokens needed beyond those left: which rotate or swap went unpaid is unknowable, so the
    violation names every adjusted space and, when both kinds happened, a rule for the mix."""
    if change.tokens <= tokens_left:
        return ()
    parts = []
    if change.rotations:
        parts.append(f"{plural(change.rotations, 'rotate')} ({_spaces(change.turned)})")
    if change.swaps:
        parts.append(f"{plural(change.swaps, 'swap')} ({_spaces(change.moved)})")
    if change.rotations and change.swaps:
        rule = "unpaid-inspiration"
    else:
        rule = "unpaid-rotation" if change.rotations else "unpaid-swap"
    needs = "needs" if len(parts) == 1 and change.tokens == 1 else "need"
    left = "none is" if tokens_left == 0 else f"only {tokens_left} {_is(tokens_left)}"
    return (
        Violation(
            rule,
            tuple(sorted(set(change.turned + change.moved))),
            f"{' and '.join(parts)} {needs} {plural(change.tokens, 'Inspiration token')}, "
            f"but {left} left",
        ),
    )


def _check_round(round_number: int) -> None:
    if not 1 <= round_number <= len(TURNS_PER_ROUND):
        raise ValueError(f"round_number must be 1..{len(TURNS_PER_ROUND)}, not {round_number}")


def _spaces(spaces: Sequence[int]) -> str:
    if len(spaces) == 1:
        return f"space {spaces[0]}"
    return "spaces " + ", ".join(str(s) for s in spaces)


def _is(n: int) -> str:
    return "is" if n == 1 else "are"


def _was(spaces: Sequence[int]) -> str:
    return "was" if len(spaces) == 1 else "were"


def _hold(spaces: Sequence[int]) -> str:
    return "holds" if len(spaces) == 1 else "hold"
