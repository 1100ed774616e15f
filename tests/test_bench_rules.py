"""``atelier bench rules``: a table on stderr, JSON on stdout, rates against a baseline."""

from __future__ import annotations

import json

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from companion.bench.rules import random_canvases
from companion.games.colorfield.scoring import score_canvas
from tests.cli import assert_user_error, atelier_main


def test_bench_rules_reports_rates_against_the_baseline() -> None:
    run = atelier_main("bench", "rules", "--seconds", "0.02")
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    names = [row["name"] for row in data["rows"]]
    assert names[:3] == [
        "baseline: read every edge",
        "colorfield: score canvas",
        "colorfield: parse+score+json",
    ]
    assert "paintings: advise a 5-card hand" in names
    assert data["rows"][0]["cost_in_baselines"] == 1.0
    assert all(row["per_second"] > 0 for row in data["rows"])
    # Scoring a canvas does strictly more than reading its edges once.
    assert data["rows"][1]["cost_in_baselines"] > 1.0
    assert "colorfield: score canvas" in run.stderr
    # In a pipe, no progress bar: the table alone (tests/test_progress.py has the terminal's).
    assert run.stderr.startswith("benchmark") and "\r" not in run.stderr


def test_bench_rejects_a_silly_duration() -> None:
    assert_user_error(
        atelier_main("bench", "rules", "--seconds", "0"), "--seconds: 0.0 is out of range"
    )


def test_bench_sample_is_reproducible_and_full() -> None:
    first, second = random_canvases(7, 20), random_canvases(7, 20)
    assert first == second
    assert all(len(c.filled()) == 6 for c in first)


@pytest.mark.benchmark(group="colorfield")
def test_score_canvas_benchmark(benchmark: BenchmarkFixture) -> None:
    canvases = random_canvases(1, 50)
    totals = benchmark(lambda: [score_canvas(c).total for c in canvases])
    assert len(totals) == 50
