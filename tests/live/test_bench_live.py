"""A shortened ``atelier bench live``: the game played twice over at 1080p, nothing wrong."""

from __future__ import annotations

import json

from tests.cli import assert_user_error, atelier


def test_bench_live_accepts_every_change_and_nothing_wrong_with_memory_flat() -> None:
    run = atelier("bench", "live", "--turns", "1", "--minutes", "0.2", "--fps", "10")
    assert run.status == 0, run.stderr
    results = json.loads(run.stdout)
    # 12 s of video at 10 fps: the 6.2 s game (both canvases, then seat 1's turn) and most of
    # a second time round, which starts by showing seat 1's primed canvas again, then its turn.
    assert (results["frames"], results["video_seconds"], results["size"]) == (
        120,
        12.0,
        [1920, 1080],
    )
    assert (results["events"], results["changes"], results["missed"]) == (5, 5, 0)
    assert results["wrong"] == []
    assert results["fps_sustained"] > 0
    memory = [sample["rss_mb"] for sample in results["memory"]]
    assert memory[-1] - memory[0] < 20.0
    assert "fps sustained on one core" in run.stderr


def test_bench_live_refuses_bad_arguments_in_one_line() -> None:
    assert_user_error(atelier("bench", "live", "--turns", "0"), "--turns: 0 is out of range")
    assert_user_error(atelier("bench", "live", "--fps", "0.5"), "--fps: 0.5 is out of range")
    assert_user_error(atelier("bench", "live", "--minutes", "-1"), "--minutes: -1.0 is out of")
