"""Maximum bipartite matching, exact (augmenting paths), for the pair-counting scoring cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

L = TypeVar("L")
R = TypeVar("R")


def maximum_matching(
    left: Sequence[L], right: Sequence[R], allowed: Callable[[L, R], bool]
) -> list[tuple[L, R]]:
    """A largest set of disjoint (left, right) pairs with ``allowed(left, right)``.

    Kuhn's algorithm: every left item in turn looks for an augmenting path. It is exact, and a
    painting has at most ten icons a side, so its quadratic-times-edges cost stays tiny.
    """
    neighbours = [[j for j, r in enumerate(right) if allowed(item, r)] for item in left]
    owner: list[int | None] = [None] * len(right)

    def augment(i: int, seen: set[int]) -> bool:
        for j in neighbours[i]:
            if j in seen:
                continue
            seen.add(j)
            current = owner[j]
            if current is None or augment(current, seen):
                owner[j] = i
                return True
        return False

    for i in range(len(left)):
        augment(i, set())
    # Pairs in the order of their left items, so explanations read left to right.
    matched = sorted((i, j) for j, i in enumerate(owner) if i is not None)
    return [(left[i], right[j]) for i, j in matched]
