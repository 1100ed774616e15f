"""A shortened run of ``atelier bench web``: every viewer receives every scan's event."""

from __future__ import annotations

import json

import pytest

from tests.cli import assert_user_error, atelier


@pytest.mark.slow
def test_every_viewer_receives_every_scan() -> None:
    result = atelier("bench", "web", "--viewers", "5", "--scans", "3", "--minutes", "0.05")
    assert result.status == 0, result.stderr
    out = json.loads(result.stdout)
    assert (out["viewers"], out["scans"], out["delivered"], out["missing"]) == (5, 3, 15, 0)
    latency = out["latency_ms"]
    assert 0 <= latency["median"] <= latency["p95"] <= latency["max"] < 5000
    assert len(out["memory"]) >= 2 and out["memory"][-1]["seconds"] == 3.0


@pytest.mark.slow
def test_a_page_beside_half_open_connections_and_a_huge_body_refused_unread() -> None:
    result = atelier(
        "bench", "web", "--viewers", "3", "--scans", "1", "--half-open", "50",
        "--big-body", "100", "--minutes", "0",
    )  # fmt: skip
    assert result.status == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["missing"] == 0 and out["page_ms_half_open"] is not None
    refused = out["big_body"]
    assert refused["status"] == 413 and refused["seconds"] < 1 and refused["sent_mb"] < 100
    assert refused["data_folder_grew_bytes"] == 0


def test_bad_bench_arguments_are_one_line_errors() -> None:
    result = atelier("bench", "web", "--viewers", "0")
    assert result.status == 2
    assert result.stderr.strip() == "atelier: --viewers: 0 is out of range (1..5000)"


def test_serve_refuses_bad_arguments_in_one_line() -> None:
    assert_user_error(atelier("serve", "--port", "0"), "--port: 0 is out of range")
    assert_user_error(atelier("serve", "--threads", "1"), "--threads: 1 is out of range")
