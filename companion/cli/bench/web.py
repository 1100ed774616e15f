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
Serve a table on loopback (127.0.0.1), open live viewers on it (in a process of their own) and
scan photos through the API: for every scan and viewer, the time from the event being written
to its arrival. With the viewers still watching: the start page fetched while --half-open
connections hold an unfinished request, and a --big-body sent to the scan address. Then scans
keep coming for --minutes while the server's memory is sampled. --server waitress runs the same
bench on waitress (installed with the dev extra) for comparison. JSON on standard output:
server, threads, viewers, viewers_opened, rss_mb_watching (the server's memory with the viewers
watching), scans, delivered, missing, latency_ms (median, p95, max), scan_request_ms (median,
max), page_ms, half_open, page_ms_half_open, big_body_mb, big_body (status, seconds, sent_mb,
disk_written_mb, data_folder_grew_bytes), soak_minutes, memory (seconds, rss_mb).

examples:
  atelier bench web --minutes 0
  atelier bench web --viewers 1000 --scans 20 --half-open 500 --big-body 200 --minutes 0
  atelier bench web --server waitress --threads 216 --viewers 200 --minutes 0
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
    parser.add_argument(
        "--server",
        choices=("front", "waitress"),
        default="front",
        help="the server measured (default front, the one atelier serve runs)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        help="the server's threads (default 16; with waitress, one per viewer and 16 more)",
    )
    parser.add_argument(
        "--half-open",
        type=int,
        default=0,
        metavar="N",
        help="connections holding an unfinished request while a page is fetched (default 0)",
    )
    parser.add_argument(
        "--big-body",
        type=int,
        default=0,
        metavar="MB",
        help="a body of this many megabytes sent to the scan address (default 0: none)",
    )
    parser.add_argument("--scans", type=int, default=20, help="scans timed (default 20)")
    parser.add_argument(
        "--minutes",
        type=float,
        default=10.0,
        help="minutes of scans while memory is sampled (default 10)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_range(args.viewers, 1, 5000, "--viewers")
    check_range(args.half_open, 0, 5000, "--half-open")
    check_range(args.big_body, 0, 2000, "--big-body")
    if args.threads is not None:
        check_range(args.threads, 4, 2000, "--threads")
    threads = args.threads or (args.viewers + 16 if args.server == "waitress" else 16)
    check_range(args.scans, 1, 10000, "--scans")
    check_range(args.minutes, 0, 600, "--minutes")
    # Imported here so that the other benchmarks never load Flask, the server or OpenCV.
    from vision.photos import PhotoReader
    from web.bench import run_web_bench

    results = run_web_bench(
        _photo(),
        PhotoReader(),
        args.viewers,
        args.scans,
        args.minutes,
        2.0,
        progress_line(40),
        server=args.server,
        threads=threads,
        half_open_count=args.half_open,
        big_mb=args.big_body,
    )
    end_progress()
    latency = results["latency_ms"]
    print(
        f"{results['viewers']} viewers, {results['scans']} scans: event to viewer "
        f"median {latency['median']} ms, p95 {latency['p95']} ms, max {latency['max']} ms "
        f"({results['missing']} missing); a scan answered in "
        f"{results['scan_request_ms']['median']} ms (max {results['scan_request_ms']['max']})",
        file=sys.stderr,
    )
    if args.half_open:
        print(
            f"the start page with {args.half_open} half-open connections: "
            f"{results['page_ms_half_open']} ms (alone {results['page_ms']} ms)",
            file=sys.stderr,
        )
    if args.big_body:
        body = results["big_body"]
        print(
            f"a {args.big_body} MB body: {body['status']} after {body['seconds']} s, "
            f"{body['sent_mb']} MB sent, {body['disk_written_mb']} MB written to disk",
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
