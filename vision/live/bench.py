"""``atelier bench live``: the live loop over a rendered video of a scripted game, with truth.

The video is the demo's game (hands over the boards while tiles are laid) rendered once per shot
and played at a camera's frame rate, as long as asked (looping the game). Every frame is scanned
on one core, one after another; times are taken on the video's own clock, so the measurement
does not depend on keeping up in real time. Measured: the latency from the first frame of a
settled table to its event (the video time until the accepting frame plus that frame's
processing, the event's commit included); frames per second sustained; every accepted reading
checked against the truth (a reading accepted while a hand was over its board, or different from
what lies on the board, is wrong: the failure that must never happen); changes never accepted;
the process's memory over the run.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from vision.capture.latest import Frame
from vision.images import Image
from vision.live.demo import Shot, scripted_game
from vision.live.loop import Accept, LiveReader, Views
from vision.live.stability import Accepted, Settings
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.scanner import Scanner

BENCH_SIZE = (1920, 1080)
BENCH_FPS = 30.0
MEMORY_SAMPLES = 10
Tiles = list[tuple[str, int]]


def _tiles(position: dict[str, Any]) -> Tiles:
    return [(space["tile"], space["rotation"]) for space in position["spaces"]]


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def _expected(shots: Sequence[Shot]) -> list[int]:
    """For each shot, how many boards a settled table shows changed since the previous settled
    shot; the game loops, so the first one follows the last."""
    settled = [i for i, shot in enumerate(shots) if shot.hand_over is None]
    counts = [0] * len(shots)
    for at, index in enumerate(settled):
        previous = shots[settled[at - 1]].positions
        now = shots[index].positions
        counts[index] = sum(1 for a, b in zip(previous, now, strict=True) if _tiles(a) != _tiles(b))
    return counts


def run_live_bench(
    commit: Accept,
    turns: int,
    minutes: float,
    seed: int,
    size: tuple[int, int] = BENCH_SIZE,
    fps: float = BENCH_FPS,
    settings: Settings | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    settings = settings or Settings()
    shots = scripted_game(seed, players=2, turns=turns)
    renderer = Renderer()
    images: list[Image] = []
    for number, shot in enumerate(shots, 1):
        progress(f"rendering shot {number}/{len(shots)}")
        plan = plan_table({"table": list(shot.positions)}, "bench")
        options = RenderOptions(seed, Difficulty.MEDIUM, size, hand_over=shot.hand_over)
        images.append(renderer.render(plan, options).image)
    timeline = [i for i, shot in enumerate(shots) for _ in range(round(shot.seconds * fps))]
    total = max(len(timeline), round(minutes * 60 * fps))
    expected = _expected(shots)

    commit_ms: list[float] = []

    def timed_commit(accepted: Sequence[Accepted], views: Views) -> None:
        start = time.perf_counter()
        commit(accepted, views)
        commit_ms.append((time.perf_counter() - start) * 1000)

    scanner = Scanner()
    scanner.prepare()
    reader = LiveReader(timed_commit, settings, scanner)
    frame_ms: list[float] = []
    latency_ms: list[float] = []
    wrong: list[str] = []
    events = 0
    wanted = 0
    missed = 0
    memory: list[dict[str, float]] = []
    shot_start = 0
    accepted_in_shot = 0
    owed = 0  # changes the shot on screen brings
    for number in range(total):
        shot_index = timeline[number % len(timeline)]
        if number == 0 or shot_index != timeline[(number - 1) % len(timeline)]:
            missed += max(0, owed - accepted_in_shot)
            # The very first frame shows every board for the first time.
            owed = len(shots[shot_index].positions) if number == 0 else expected[shot_index]
            shot_start, accepted_in_shot = number, 0
            wanted += owed
        shot = shots[shot_index]
        start = time.perf_counter()
        accepted = reader.process(Frame(images[shot_index], number + 1, number / fps))
        spent = (time.perf_counter() - start) * 1000
        frame_ms.append(spent)
        for found in accepted:
            events += 1
            accepted_in_shot += 1
            board = (found.observation.player or 0) - 1
            truth = shot.positions[board] if 0 <= board < len(shot.positions) else None
            if shot.hand_over is not None and shot.hand_over == board:
                wrong.append(f"frame {number}: seat {board + 1} accepted under a hand")
            elif truth is None or _tiles(found.observation.position) != _tiles(truth):
                wrong.append(f"frame {number}: seat {board + 1} read differently from the truth")
            else:
                latency_ms.append((number - shot_start) / fps * 1000 + spent)
        if number % max(1, total // MEMORY_SAMPLES) == 0 or number == total - 1:
            memory.append({"frame": number, "rss_mb": round(_rss_mb(), 1)})
            progress(f"frame {number + 1}/{total}")
    missed += max(0, owed - accepted_in_shot)
    return {
        "suite": "live",
        "size": list(size),
        "video_fps": fps,
        "frames": total,
        "video_seconds": round(total / fps, 1),
        "settings": {
            "hold_s": settings.hold_s,
            "window": settings.window,
            "min_frames": settings.min_frames,
            "max_change": settings.max_change,
        },
        "fps_sustained": round(1000 * len(frame_ms) / sum(frame_ms), 1),
        "frame_ms": {
            "median": round(statistics.median(frame_ms), 1),
            "p95": round(_percentile(frame_ms, 0.95), 1),
        },
        "latency_ms": {
            "median": round(statistics.median(latency_ms), 1) if latency_ms else None,
            "max": round(max(latency_ms), 1) if latency_ms else None,
        },
        "commit_ms_median": round(statistics.median(commit_ms), 1) if commit_ms else None,
        "events": events,
        "changes": wanted,
        "missed": missed,
        "wrong": wrong,
        "memory": memory,
    }
