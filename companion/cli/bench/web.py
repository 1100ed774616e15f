"""``atelier bench web``: live viewers of one table on loopback, and the server's memory."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from companion.cli.bench.progress import end_progress, progress_line
from companion.cli.output import check_range, emit_json
from companion.samples import random_position

HELP = """\
Serve a table on loopback (127.0.0.1), open live viewers on it and scan photos through the API:
for every scan and viewer, the time from the event being written to its arrival; then scans
keep coming for --minutes while the server's memory is sampled. JSON on standard output:
viewers, scans, delivered, missing, latency_ms (median, p95, max), scan_request_ms_median,
soak_minutes, memory (seconds, rss_mb).

examples:
  atelier bench web --minutes 0
  atelier bench web --viewers 50 --scans 20 --minutes 10
"""
PHOTO_SEED = 11  # a Color Field canvas read back exactly (seat 4)


def register(suites: Any) -> None:
    parser: argparse.ArgumentParser = suites.add_parser(
        "web",
        help="live viewers of one table on loopback",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--viewers", type=int, default=50, help="live viewers (default 50)")
    parser.add_argument("--scans", type=int, default=20, help="scans timed (default 20)")
    parser.add_argument(
        "--minutes",
        type=float,
        default=10.0,
        help="minutes of scans while memory is sampled (default 10)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_range(args.viewers, 1, 500, "--viewers")
    check_range(args.scans, 1, 10000, "--scans")
    check_range(args.minutes, 0, 600, "--minutes")
    # Imported here so that the other benchmarks never load Flask, the server or OpenCV.
    from vision.photos import PhotoReader
    from web.bench import run_web_bench

    results = run_web_bench(
        _photo(), PhotoReader(), args.viewers, args.scans, args.minutes, 2.0, progress_line(40)
    )
    end_progress()
    latency = results["latency_ms"]
    print(
        f"{results['viewers']} viewers, {results['scans']} scans: event to viewer "
        f"median {latency['median']} ms, p95 {latency['p95']} ms, max {latency['max']} ms "
        f"({results['missing']} missing)",
        file=sys.stderr,
    )
    if results["memory"]:
        first, last = results["memory"][0], results["memory"][-1]
        print(
            f"memory over {args.minutes} min: {first['rss_mb']} MB -> {last['rss_mb']} MB",
            file=sys.stderr,
        )
    return emit_json(results)


def _photo() -> bytes:
    """The photo the benchmark scans: one Color Field canvas on a table, in easy light."""
    from vision.render.envelope import Difficulty
    from vision.render.placing import plan_table
    from vision.render.renderer import Renderer, RenderOptions

    position = random_position("colorfield", random.Random(PHOTO_SEED))
    plan = plan_table(position, "bench")
    return Renderer().render(plan, RenderOptions(PHOTO_SEED, Difficulty.EASY)).jpeg
