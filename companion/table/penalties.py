"""Pigment Lab's penalties at the table: each round's Spill Line count and each Fault diagnosis.

A camera sees neither (the Spill Line is cleared as it is scored, a verdict is a flipped card), so
the players enter them in a tap, logged as events like scans. The points are the engine's: a
round's Spill Line is scored by ``spill_penalty``, wrong diagnoses by the final tally.

A round's Spill Line count can be entered again: the last entry for that round counts, so a
mistyped count is fixed by entering the right one (or by undo).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from companion.games.pigments.model import Tally
from companion.games.pigments.scoring import RoundSpill, score_tally, spill_chip_cost
from companion.table.events import DIAGNOSIS, SPILL

PENALTY_GAMES: Final = frozenset({"pigments"})
# The default supply holds 80 chips: a Spill Line longer than that is a slip of the finger.
MAX_SPILL_CHIPS: Final = 80
# What one wrong diagnosis costs, as the engine's final tally counts it.
WRONG_DIAGNOSIS: Final = score_tally(Tally((), (), wrong_diagnoses=1)).diagnoses


@dataclass(frozen=True)
class Penalty:
    """One entry that scores: its points (0 or negative) and why."""

    kind: str  # the event kind it was entered as: SPILL or DIAGNOSIS
    round: int
    points: int
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "round": self.round,
            "points": self.points,
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class SeatPenalties:
    """What a seat's players entered: one Spill Line count per round, every diagnosis verdict."""

    spills: tuple[tuple[int, int], ...] = ()  # (round, chips), by round
    diagnoses: tuple[tuple[int, bool], ...] = ()  # (round, right), in the order entered

    def with_spill(self, round_number: int, chips: int) -> SeatPenalties:
        """The round's count replaced: the last one entered counts."""
        kept = [(r, n) for r, n in self.spills if r != round_number]
        return replace(self, spills=tuple(sorted([*kept, (round_number, chips)])))

    def with_diagnosis(self, round_number: int, right: bool) -> SeatPenalties:
        return replace(self, diagnoses=(*self.diagnoses, (round_number, right)))

    @property
    def points(self) -> int:
        """Every penalty added up, by the engine's final tally (no pans, no bonuses)."""
        by_round = dict(self.spills)
        lines = tuple(by_round.get(r, 0) for r in range(1, max(by_round, default=0) + 1))
        wrong = sum(1 for _, right in self.diagnoses if not right)
        return score_tally(Tally((), lines, wrong)).total

    def penalties(self) -> tuple[Penalty, ...]:
        """Each entry with its points and the arithmetic behind them."""
        spills = tuple(_spill(RoundSpill(r, n)) for r, n in self.spills)
        return spills + tuple(_diagnosis(r, right) for r, right in self.diagnoses)


def spill_points(chips: int) -> int:
    return RoundSpill(0, chips).points


def diagnosis_points(right: bool) -> int:
    return 0 if right else WRONG_DIAGNOSIS


def _spill(spill: RoundSpill) -> Penalty:
    chips = f"{spill.chips} chip{'' if spill.chips == 1 else 's'}"
    costs = " ".join(f"{spill_chip_cost(k):+d}" for k in range(1, spill.chips + 1))
    arithmetic = f"{costs} = {spill.points}" if spill.chips else "0"
    why = f"Round {spill.round} Spill Line, {chips}: {arithmetic}"
    return Penalty(SPILL, spill.round, spill.points, why)


def _diagnosis(round_number: int, right: bool) -> Penalty:
    points = diagnosis_points(right)
    verdict = "right, no penalty" if right else f"wrong, {points}"
    why = f"Round {round_number} Fault diagnosis {verdict}"
    return Penalty(DIAGNOSIS, round_number, points, why)
