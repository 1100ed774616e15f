"""Measuring a rate: repeat a call over a sample for a fixed time and count the items done."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Rate:
    name: str
    items: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.items / self.seconds if self.seconds > 0 else 0.0


def measure(name: str, work: Callable[[T], object], sample: Sequence[T], seconds: float) -> Rate:
    """Run ``work`` over ``sample`` repeatedly for about ``seconds``; at least one full pass."""
    done = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        for item in sample:
            work(item)
        done += len(sample)
        now = clock()
        if now >= deadline:
            return Rate(name, done, now - start)
