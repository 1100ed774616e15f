"""A benchmark held to one core takes the least busy one, and gives the others back after."""

from __future__ import annotations

import os

import pytest

from companion.cli.bench import cores
from companion.cli.bench.cores import busy_ticks, least_busy, one_core

STAT = """cpu  900 0 300 5000 100 0 0 0 0 0
cpu0 800 0 200 1000 50 0 0 0 0 0
cpu1 100 0 100 4000 50 0 0 0 0 0
intr 12345
"""


def test_a_cores_busy_ticks_are_all_but_its_idle_and_io_wait() -> None:
    assert busy_ticks(STAT) == {0: 1000, 1: 200}


def test_the_core_least_busy_over_the_look_is_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    later = STAT.replace("cpu0 800", "cpu0 900").replace("cpu1 100", "cpu1 110")
    texts = iter([STAT, later])

    class Stat:
        def read_text(self) -> str:
            return next(texts)

    monkeypatch.setattr(cores, "STAT", Stat())
    assert least_busy({0, 1}, look_s=0) == 1  # 10 ticks against 100
    texts = iter([STAT, later])
    assert least_busy({0}, look_s=0) == 0  # only the cores allowed


def test_one_core_holds_the_process_to_one_and_gives_the_others_back() -> None:
    allowed = os.sched_getaffinity(0)
    with one_core() as core:
        assert os.sched_getaffinity(0) == {core} and core in allowed
    assert os.sched_getaffinity(0) == allowed
