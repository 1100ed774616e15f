"""Positions between rounds, keep allowances, and the winners with both tie-breaks."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion.games.colorfield.standings as standings_module
from companion.games.colorfield.standings import (
    Outcome,
    decide_winners,
    dense_positions,
    keep_allowance,
)


@pytest.mark.parametrize(
    ("totals", "positions"),
    [
        ([56, 56, 47, 47], (1, 1, 2, 2)),
        ([47, 56, 47, 56], (2, 1, 2, 1)),
        ([10, 20, 30, 40], (4, 3, 2, 1)),
        ([30, 30, 30], (1, 1, 1)),
        ([50, 49], (1, 2)),
        ([9, 9, 3, 7], (1, 1, 3, 2)),
    ],
)
def test_dense_positions(totals: list[int], positions: tuple[int, ...]) -> None:
    assert dense_positions(totals) == positions


@pytest.mark.parametrize(
    ("position", "players", "allowance"),
    [
        (1, 4, 0),
        (2, 4, 1),
        (3, 4, 2),
        (4, 4, 3),
        (1, 3, 0),
        (3, 3, 2),
        (1, 2, 1),
        (2, 2, 2),
    ],
)
def test_keep_allowance(position: int, players: int, allowance: int) -> None:
    assert keep_allowance(position, players) == allowance


@settings(max_examples=60)
@given(st.lists(st.integers(0, 150), min_size=2, max_size=4))
def test_dense_positions_have_no_gaps_and_follow_the_scores(totals: list[int]) -> None:
    positions = dense_positions(totals)
    assert sorted(set(positions)) == list(range(1, len(set(totals)) + 1))
    for a, b in zip(totals, positions, strict=True):
        for c, d in zip(totals, positions, strict=True):
            assert (a > c) == (b < d)


@pytest.mark.parametrize(
    ("totals", "patches", "tokens", "outcome"),
    [
        ([61, 60], [0, 9], [0, 3], Outcome((0,), "points")),
        ([61, 61, 40], [5, 8, 10], [3, 0, 3], Outcome((1,), "patch bonus")),
        ([61, 61, 61], [8, 8, 7], [1, 2, 3], Outcome((1,), "unused inspiration tokens")),
        ([61, 61, 61], [8, 8, 7], [2, 2, 3], Outcome((0, 1), "shared")),
        ([50, 50, 50, 50], [0, 0, 0, 0], [0, 0, 0, 0], Outcome((0, 1, 2, 3), "shared")),
        ([50, 52, 52, 52], [6, 6, 0, 6], [3, 1, 3, 1], Outcome((1, 3), "shared")),
    ],
)
def test_winners_and_tie_breaks(
    totals: list[int], patches: list[int], tokens: list[int], outcome: Outcome
) -> None:
    assert decide_winners(totals, patches, tokens) == outcome


def test_the_module_examples_run() -> None:
    result = doctest.testmod(standings_module)
    assert (result.attempted, result.failed) == (1, 0)
