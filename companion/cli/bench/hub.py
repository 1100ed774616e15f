"""``atelier bench hub``: simulated tables publishing to a broker, and the hub following them."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.bench.progress import end_progress, progress_line
from companion.cli.output import check_range, emit_json
from companion.errors import AtelierError

HELP = """\
Simulate a convention hall: --tables tables (four to a table computer) each publish --rate
changes a second (an event and the retained scoreboard, QoS 1, real scoreboards of the four
games) to the broker, while 'atelier hub' runs as a process of its own and one viewer follows
its live stream. Without --broker, a Mosquitto of its own runs on a free loopback port (Debian:
apt install mosquitto). For each change: the time from its publishing to the hub's leaderboard
having it, and to the viewer receiving it; the hub's memory is sampled every --sample seconds.
A change counts as shown from the first state of its table, it or a later one, to arrive (a state
holds every change before it): seen is how many arrived as themselves, superseded how many only
inside a later one, missing how many never. JSON on standard output: tables, rate_per_table,
minutes, published, seen, superseded, missing, latency_ms (hub, viewer: median, p95, max), memory
(seconds, rss_mb), rss_mb_first_minute, rss_mb_last_minute, rss_slope_mb_per_minute, load_average
(before, after), cpus.

examples:
  atelier bench hub --minutes 2
  atelier bench hub --tables 200 --rate 1 --minutes 10
  atelier bench hub --broker mqtt://hall.local:1883 --tables 50 --minutes 1
"""


def register(suites: Any) -> None:
    parser: argparse.ArgumentParser = suites.add_parser(
        "hub",
        help="the convention hub under many tables' updates",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--broker", metavar="URL", help="a running broker (default: a Mosquitto of its own)"
    )
    parser.add_argument("--tables", type=int, default=200, help="simulated tables (default 200)")
    parser.add_argument(
        "--rate", type=float, default=1.0, help="changes a second per table (default 1)"
    )
    parser.add_argument(
        "--minutes", type=float, default=10.0, help="how long the tables publish (default 10)"
    )
    parser.add_argument(
        "--sample", type=float, default=5.0, metavar="SECONDS", help="memory sampled every (5)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_range(args.tables, 1, 5000, "--tables")
    check_range(args.rate, 0.01, 20, "--rate")
    check_range(args.minutes, 0.01, 600, "--minutes")
    check_range(args.sample, 0.5, 600, "--sample")
    # Imported here so that the other benchmarks never load paho, Flask or the server.
    from web.broker.bench_hub import run_hub_bench
    from web.broker.local_broker import find_mosquitto
    from web.broker.protocol import parse_broker

    if args.broker is not None:
        parse_broker(args.broker)
    elif find_mosquitto() is None:
        raise AtelierError("--broker: none given, and Mosquitto is not installed to run one")
    results = run_hub_bench(
        args.broker, args.tables, args.rate, args.minutes, args.sample, progress_line(40)
    )
    end_progress()
    hub, viewer = results["latency_ms"]["hub"], results["latency_ms"]["viewer"]
    print(
        f"{results['tables']} tables x {results['rate_per_table']:g}/s for "
        f"{results['minutes']:g} min: {results['published']} changes, {results['missing']} "
        f"missing ({results['superseded']} shown inside a later state)\n"
        f"  publish -> hub leaderboard: median {hub['median']} ms, p95 {hub['p95']} ms, "
        f"max {hub['max']} ms\n"
        f"  publish -> live viewer:     median {viewer['median']} ms, p95 {viewer['p95']} ms, "
        f"max {viewer['max']} ms\n"
        f"  hub memory: {results['rss_mb_first_minute']} MB (first minute) -> "
        f"{results['rss_mb_last_minute']} MB (last minute), "
        f"slope {results['rss_slope_mb_per_minute']} MB/min\n"
        f"  load average {results['load_average']['before']} -> "
        f"{results['load_average']['after']} on {results['cpus']} CPUs",
        file=sys.stderr,
    )
    return emit_json(results)
