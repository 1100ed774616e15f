"""Connected sets of empty cells: exact enumeration, and whether a roll still fits."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.isle.model import Island, Sheet, bits
from companion.games.isle.placements import (
    can_fill,
    connected_sets,
    is_connected,
    largest_region,
    placements,
)
from tests.isle.drawing import default_island, draw

SMALL = """
    . . . .
     . . ~ .
    . . . .
    """


def brute_force(island: Island, allowed: int, size: int) -> set[int]:
    found = set()
    for chosen in combinations(list(bits(allowed)), size):
        mask = sum(1 << i for i in chosen)
        if is_connected(island, mask):
            found.add(mask)
    return found


def test_enumeration_matches_brute_force_on_a_small_island() -> None:
    island = draw(SMALL).island
    for size in range(1, 7):
        listed = list(placements(island, island.all_mask, size))
        assert len(listed) == len(set(listed))  # each set exactly once
        assert set(listed) == brute_force(island, island.all_mask, size)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, (1 << 11) - 1), st.integers(1, 5))
def test_enumeration_only_uses_allowed_cells(allowed: int, size: int) -> None:
    island = draw(SMALL).island
    listed = list(placements(island, allowed, size))
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_force(island, allowed, size)


def test_counts_on_the_empty_default_island() -> None:
    island = default_island()
    counts = [0] * 6
    for mask in connected_sets(island, island.all_mask, 6):
        counts[mask.bit_count() - 1] += 1
    # 79 cells; 206 neighbouring pairs (half the sum of the neighbour counts).
    assert counts[0] == 79
    assert counts[1] == sum(len(n) for n in island.neighbours) // 2 == 206
    assert counts == [79, 206, 659, 2308, 8544, 32673]


def test_a_roll_fits_only_in_a_region_at_least_that_large() -> None:
    sheet = draw(
        """
        . . . R .
         R R R R R
        . . R . .
        """
    )
    island = sheet.island
    # Empty regions: (0,0)-(0,2); (0,4); (2,0)-(2,1); (2,3)-(2,4): red walls them apart.
    assert largest_region(island, sheet.empty_mask) == 3
    assert can_fill(island, sheet.empty_mask, 3)
    assert not can_fill(island, sheet.empty_mask, 4)


def test_a_full_sheet_fits_nothing() -> None:
    sheet = draw("R R\n R R")
    assert largest_region(sheet.island, sheet.empty_mask) == 0
    assert not can_fill(sheet.island, sheet.empty_mask, 1)


def test_an_empty_default_sheet_is_one_region() -> None:
    sheet = Sheet.empty(default_island())
    assert largest_region(sheet.island, sheet.empty_mask) == 79


def test_is_connected() -> None:
    island = draw(". . . .").island
    assert is_connected(island, 0b0011)
    assert not is_connected(island, 0b0101)
    assert not is_connected(island, 0)
