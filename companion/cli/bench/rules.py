"""``atelier bench rules``: how fast the rules engines score, as a table and as JSON."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.bench.rules import SUITES, run_rules_bench
from companion.cli.bench.progress import end_progress, progress_bar
from companion.cli.output import check_range, emit_json

HELP = """\
Measure the rules engines. Each row is a rate and its cost in units of a baseline measured in
the same run (reading every edge of the same canvases once), so numbers compare across machines.
JSON on standard output: "rows" (name, per_second, ms_per_item, cost_in_baselines).

examples:
  atelier bench rules
  atelier bench rules --seconds 2 --seed 7
"""


def register(suites: Any) -> None:
    parser: argparse.ArgumentParser = suites.add_parser(
        "rules",
        help="the rules engines: scoring and advice, as rates",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="time per measurement (default 1.0)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for the sample positions")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_range(args.seconds, 0.01, 600, "--seconds")
    show = progress_bar(1 + len(SUITES), 48)
    results = run_rules_bench(seconds=args.seconds, seed=args.seed, progress=show)
    end_progress()
    header = f"{'benchmark':<34} {'per second':>12} {'ms each':>9} {'cost (baselines)':>17}"
    print(header, file=sys.stderr)
    for row in results["rows"]:
        print(
            f"{row['name']:<34} {row['per_second']:>12,.0f} {row['ms_per_item']:>9.3f} "
            f"{row['cost_in_baselines']:>17.1f}",
            file=sys.stderr,
        )
    return emit_json(results)
