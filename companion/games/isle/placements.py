"""Where a fill can go: connected sets of empty cells, found exactly and fast with bit masks.

A fill of N cells fits wherever a connected empty region has at least N cells (any connected
region of N or more cells contains a connected part of exactly N: drop leaves of a spanning tree).
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.isle.model import Island, bits


def is_connected(island: Island, mask: int) -> bool:
    if not mask:
        return False
    return island.component(mask, (mask & -mask).bit_length() - 1) == mask


def largest_region(island: Island, empty: int) -> int:
    """The size of the largest connected region of the cells of ``empty``."""
    return max((group.bit_count() for group in island.components(empty)), default=0)


def can_fill(island: Island, empty: int, size: int) -> bool:
    """Is there a connected set of exactly ``size`` cells among ``empty``?"""
    return largest_region(island, empty) >= size


def connected_sets(island: Island, allowed: int, max_size: int) -> Iterator[int]:
    """Every connected set of 1..``max_size`` cells of ``allowed``, each exactly once."""
    return (mask for mask, _ in connected_fills(island, allowed, max_size))


def connected_fills(island: Island, allowed: int, max_size: int) -> Iterator[tuple[int, int]]:
    """Every connected set of 1..``max_size`` cells of ``allowed``, each exactly once, with the
    island cells next to it (what ``Island.dilate`` gives, built up as the set grows).

    Redelmeier's method: each set is grown from its lowest cell (the anchor) and a cell, once
    tried and passed over at one level, is never added again below that level.
    """
    neighbour_masks = island.neighbour_masks

    def grow(
        current: int, around: int, size: int, untried: int, seen: int, candidates: int
    ) -> Iterator[tuple[int, int]]:
        yield current, around
        if size == max_size:
            return
        while untried:
            low = untried & -untried
            untried ^= low
            near = neighbour_masks[low.bit_length() - 1]
            fresh = near & candidates & ~seen
            yield from grow(
                current | low, around | near, size + 1, untried | fresh, seen | fresh, candidates
            )

    for anchor in bits(allowed):
        anchor_bit = 1 << anchor
        # Only cells above the anchor may join, so each set is grown from one anchor only.
        candidates = allowed & ~((anchor_bit << 1) - 1)
        near = neighbour_masks[anchor]
        start = near & candidates
        yield from grow(anchor_bit, near, 1, start, start | anchor_bit, candidates)


def placements(island: Island, empty: int, size: int) -> Iterator[int]:
    """Every connected set of exactly ``size`` cells of ``empty``."""
    return (found for found in connected_sets(island, empty, size) if found.bit_count() == size)
