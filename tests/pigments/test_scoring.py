"""Spill Line penalties, the final tally, palette bonuses, and the game's winners."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from companion.games.pigments.bonuses import PaletteBonus
from companion.games.pigments.model import Tally
from companion.games.pigments.scoring import score_tally, spill_chip_cost, spill_penalty

from .builders import LARGE, MEDIUM, SMALL


def test_spill_chip_costs_in_sequence() -> None:
    assert [spill_chip_cost(k) for k in range(1, 12)] == [0, -1, -1, -2, -2, -3, -3, -3, -3, -3, -3]


@pytest.mark.parametrize(
    ("chips", "penalty"),
    [(0, 0), (1, 0), (2, -1), (3, -2), (4, -4), (5, -6), (6, -9), (7, -12), (8, -15), (10, -21)],
)
def test_spill_penalty_totals(chips: int, penalty: int) -> None:
    assert spill_penalty(chips) == penalty


def test_spill_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        spill_penalty(-1)
    with pytest.raises(ValueError):
        spill_chip_cost(0)


def test_positions_md_tally() -> None:
    score = score_tally(Tally((SMALL, MEDIUM, LARGE), (3, 0, 1, 2, 0), 1))
    assert (score.total, score.pans, score.spill, score.diagnoses) == (12, 16, -3, -1)
    assert [r.points for r in score.rounds] == [-2, 0, 0, -1, 0]
    assert score.to_json()["total"] == 12


def test_full_board_no_penalties() -> None:
    score = score_tally(Tally((SMALL, MEDIUM, MEDIUM, LARGE), (0, 1, 0, 0, 1), 0))
    assert score.total == 21
    assert score.large_pans == 1


def test_tally_limits() -> None:
    with pytest.raises(ValueError):
        Tally((LARGE, LARGE), ())
    with pytest.raises(ValueError):
        Tally((), (0, 0, 0, 0, 0, 0))


def bonus(condition: str, points: int, **params: int) -> PaletteBonus:
    return PaletteBonus(condition, condition, points, condition, MappingProxyType(params), "")


def test_bonuses_are_data_and_only_earned_ones_count() -> None:
    bonuses = (
        bonus("pressed-pans", 3, medium=2),
        bonus("spill-at-most", 2, chips=3),
        bonus("no-wrong-diagnosis", 1),
    )
    tally = Tally((MEDIUM, MEDIUM), (2, 1), 0)  # 10 pans, -1 spill, 3 spill chips
    score = score_tally(tally, bonuses)
    assert [b.id for b in score.bonuses] == ["pressed-pans", "spill-at-most", "no-wrong-diagnosis"]
    assert score.total == 10 - 1 + 6
    fewer = score_tally(Tally((MEDIUM,), (2, 2), 1), bonuses)
    assert fewer.bonuses == ()
    assert fewer.total == 5 - 2 - 1


def test_bonus_parameters_are_checked() -> None:
    with pytest.raises(ValueError):
        bonus("spill-at-most", 2)
    with pytest.raises(ValueError):
        bonus("luck", 2)
