"""The Wilson score interval of a rate: every figure the bench reports carries one."""

from __future__ import annotations

import math


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The interval (low, high) for ``successes`` in ``n`` trials, 95 % at z = 1.96. Unlike the
    normal approximation it stays inside 0..1 and is not empty at 0 or n, where the bench's
    rates usually lie."""
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes in {n} trials")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    denominator = 1 + z2 / n
    # Exactly, the interval holds p and lies in 0..1; rounding may leave 0 or 1 just outside.
    low = max(0.0, min(p, (centre - spread) / denominator))
    high = min(1.0, max(p, (centre + spread) / denominator))
    return (low, high)
