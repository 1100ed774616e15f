"""How the hub bench counts a change: shown once its state or any later state of its table
arrives (a state holds every change before it), so a change folded into a later message is
counted late, not dropped from the latencies."""

from __future__ import annotations

from web.broker.bench_hub import _results


def test_a_change_folded_into_a_later_state_counts_when_that_state_arrives() -> None:
    published = {("a", 1): 10.0, ("a", 2): 11.0, ("a", 3): 12.0, ("b", 1): 10.5}
    # (published at, the hub's stamp, the viewer's arrival): a/2 never arrived on its own.
    seen = {("a", 1): (10.0, 10.001, 10.05), ("a", 3): (12.0, 12.002, 12.1)}
    results = _results(2, 1.0, 0.1, published, seen, [], (0, 0, 0), (0, 0, 0))
    assert (results["seen"], results["superseded"], results["missing"]) == (2, 1, 1)
    # a/1 50 ms, a/2 shown with a/3 1.1 s after it was published, a/3 100 ms; b/1 never.
    assert results["latency_ms"]["viewer"] == {"median": 100.0, "p95": 1100.0, "max": 1100.0}
