"""Pigment Lab scoring: Spill Line penalties, the final tally, and a palette board's pans.

Pure functions; every point carries what earned or cost it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.pigments.bonuses import PaletteBonus
from companion.games.pigments.checker import PanCheck
from companion.games.pigments.model import PanSize, Tally

# The k-th chip on a Spill Line costs SPILL_STEPS[k - 1]; every chip after them costs SPILL_AFTER.
SPILL_STEPS = (0, -1, -1, -2, -2, -3, -3)
SPILL_AFTER = -3


def spill_chip_cost(position: int) -> int:
    """What the chip at ``position`` (1 = the first) on a Spill Line costs."""
    if position < 1:
        raise ValueError("Spill Line positions count from 1")
    return SPILL_STEPS[position - 1] if position <= len(SPILL_STEPS) else SPILL_AFTER


def spill_penalty(chips: int) -> int:
    """A round's Spill Line total for ``chips`` chips (0 or negative)."""
    if chips < 0:
        raise ValueError("a Spill Line cannot hold a negative number of chips")
    return sum(spill_chip_cost(k) for k in range(1, chips + 1))


@dataclass(frozen=True)
class RoundSpill:
    round: int
    chips: int

    @property
    def points(self) -> int:
        return spill_penalty(self.chips)


@dataclass(frozen=True)
class TallyScore:
    tally: Tally
    bonuses: tuple[PaletteBonus, ...]  # the bonuses earned

    @property
    def pans(self) -> int:
        return sum(size.points for size in self.tally.pressed)

    @property
    def rounds(self) -> tuple[RoundSpill, ...]:
        return tuple(RoundSpill(i, n) for i, n in enumerate(self.tally.spill_lines, start=1))

    @property
    def spill(self) -> int:
        return sum(r.points for r in self.rounds)

    @property
    def diagnoses(self) -> int:
        return -self.tally.wrong_diagnoses

    @property
    def bonus_points(self) -> int:
        return sum(b.points for b in self.bonuses)

    @property
    def total(self) -> int:
        return self.pans + self.spill + self.diagnoses + self.bonus_points

    @property
    def large_pans(self) -> int:
        """The tie-break: more large pans pressed."""
        return self.tally.pressed.count(PanSize.LARGE)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "pigments",
            "total": self.total,
            "pans": self.pans,
            "spill": self.spill,
            "diagnoses": self.diagnoses,
            "bonuses": self.bonus_points,
            "pressed": [{"pan": size.value, "points": size.points} for size in self.tally.pressed],
            "spill_rounds": [
                {"round": r.round, "chips": r.chips, "points": r.points} for r in self.rounds
            ],
            "bonuses_earned": [{"id": b.id, "points": b.points} for b in self.bonuses],
            "large_pans": self.large_pans,
        }


def score_tally(tally: Tally, bonuses: tuple[PaletteBonus, ...] = ()) -> TallyScore:
    return TallyScore(tally, tuple(b for b in bonuses if b.earned(tally)))


@dataclass(frozen=True)
class PaletteScore:
    """A whole palette board: each pan's check, and the points of the pans that would press."""

    pans: tuple[PanCheck, ...]

    @property
    def total(self) -> int:
        return sum(check.points for check in self.pans)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "pigments",
            "pans": [check.to_json() for check in self.pans],
            "total": self.total,
        }
