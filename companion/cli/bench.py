"""``atelier bench rules``: how fast the rules engines score, as a table and as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.bench.rules import run_rules_bench
from companion.errors import AtelierError

HELP = """\
Measure the rules engines. Each row is a rate and its cost in units of a baseline measured in
the same run (reading every edge of the same canvases once), so numbers compare across machines.

example:
  atelier bench rules --seconds 2
"""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "bench",
        help="run the benchmarks",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("suite", choices=("rules",), help="which benchmark to run")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="time per measurement (default 1.0)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for the sample positions")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0.01 <= args.seconds <= 600:
        raise AtelierError(f"--seconds: {args.seconds} is out of range (0.01..600)")
    results = run_rules_bench(seconds=args.seconds, seed=args.seed)
    header = f"{'benchmark':<34} {'per second':>12} {'ms each':>9} {'cost (baselines)':>17}"
    print(header, file=sys.stderr)
    for row in results["rows"]:
        print(
            f"{row['name']:<34} {row['per_second']:>12,.0f} {row['ms_per_item']:>9.3f} "
            f"{row['cost_in_baselines']:>17.1f}",
            file=sys.stderr,
        )
    json.dump(results, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
