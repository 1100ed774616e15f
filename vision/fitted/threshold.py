"""Choosing a fitted model's refusal threshold from its measured risk-coverage curve."""

from __future__ import annotations

from collections.abc import Iterable


def least_safe(curve: Iterable[tuple[float, int]]) -> float:
    """The least threshold at and above which nothing measured is read wrong (``curve``: each
    candidate threshold, ascending, with how many it reads wrong); the highest when even that
    one reads some wrong."""
    points = list(curve)
    threshold = points[-1][0]
    for candidate, wrong in reversed(points):
        if wrong:
            break
        threshold = candidate
    return threshold
