"""Positions between rounds, the keep allowance they give, and the winners at game end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.protocol import Standing, ranked

# Tiles a player may keep, by position 1st..4th (games.md section 1).
KEEP_BY_POSITION = (0, 1, 2, 3)
TWO_PLAYER_EXTRA = 1
# The game end's tie-breaks (games.md section 1), in the order they apply.
PATCH_BONUS = "patch bonus"
UNUSED_TOKENS = "unused inspiration tokens"


def dense_positions(totals: Sequence[int]) -> tuple[int, ...]:
    """Position of each player by score: ties share a position and no position is skipped.

    >>> dense_positions([56, 47, 56, 47])
    (1, 2, 1, 2)
    """
    ranked = sorted(set(totals), reverse=True)
    return tuple(ranked.index(total) + 1 for total in totals)


def keep_allowance(position: int, players: int) -> int:
    """How many tiles a player in ``position`` may keep for the next round."""
    extra = TWO_PLAYER_EXTRA if players == 2 else 0
    return KEEP_BY_POSITION[position - 1] + extra


@dataclass(frozen=True)
class Outcome:
    """The winner seats and what separated them from the rest.

    ``decided_by`` is ``"points"``, ``"patch bonus"`` (round 3's), ``"unused inspiration
    tokens"``, or ``"shared"`` when the last tie-break still leaves several winners.
    """

    winners: tuple[int, ...]
    decided_by: str


def decide_winners(
    totals: Sequence[int], patch_bonuses: Sequence[int], unused_tokens: Sequence[int]
) -> Outcome:
    """Most points wins; ties go to the larger round-3 patch bonus, then to more unused tokens."""
    contenders = tuple(range(len(totals)))
    for criterion, values in (
        ("points", totals),
        (PATCH_BONUS, patch_bonuses),
        (UNUSED_TOKENS, unused_tokens),
    ):
        best = max(values[seat] for seat in contenders)
        contenders = tuple(seat for seat in contenders if values[seat] == best)
        if len(contenders) == 1:
            return Outcome(contenders, criterion)
    return Outcome(contenders, "shared")


def final_standings(
    totals: Sequence[int], patch_bonuses: Sequence[int], unused_tokens: Sequence[int]
) -> tuple[Standing, ...]:
    """Every seat (0-based) ranked by the game end's rule, each tie-break named."""
    return ranked(totals, ((PATCH_BONUS, patch_bonuses), (UNUSED_TOKENS, unused_tokens)))
