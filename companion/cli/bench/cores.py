"""A benchmark held to one core: the one least busy as it starts, given back when it ends.

A benchmark pinned to the first core it may use shares that core with whatever else was pinned
there, even with the other cores idle: another benchmark, or a test process that ran one in its
own process (and stayed pinned). Its wall-clock times then run at twice its CPU time or more
at a load average of 1. So the core is the one that was least busy over a short look at
``/proc/stat``, and the process's cores are given back when the benchmark ends.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOOK_S = 0.25  # how long the cores' business is watched before one is chosen
STAT = Path("/proc/stat")


def busy_ticks(stat: str) -> dict[int, int]:
    """Each core's ticks spent on anything but idling, from the text of ``/proc/stat``."""
    busy = {}
    for line in stat.splitlines():
        name, *fields = line.split()
        if not name.startswith("cpu") or name == "cpu":
            continue
        ticks = [int(f) for f in fields]
        idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle, and waiting on I/O
        busy[int(name[3:])] = sum(ticks[:8]) - idle
    return busy


def least_busy(allowed: set[int], look_s: float = LOOK_S) -> int:
    """The core of ``allowed`` that was least busy over ``look_s`` (the first, where the
    cores' times cannot be read)."""
    try:
        before = busy_ticks(STAT.read_text())
        time.sleep(look_s)
        after = busy_ticks(STAT.read_text())
    except (OSError, ValueError, IndexError):
        return min(allowed)
    measured = [core for core in sorted(allowed) if core in before and core in after]
    if not measured:
        return min(allowed)
    return min(measured, key=lambda core: after[core] - before[core])


@contextmanager
def one_core() -> Iterator[int]:
    """Hold this thread, and the threads it starts, to the least busy core (its number given);
    the cores it was allowed are given back after."""
    allowed = os.sched_getaffinity(0)
    core = least_busy(allowed)
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, allowed)
