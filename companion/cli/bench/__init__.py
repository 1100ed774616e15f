"""``atelier bench SUITE``: the benchmarks, one subcommand a suite, each with its own options,
help and printing."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.bench import hub, led, live, markers, rules, vision, web

HELP = """\
Measure Atelier. Each suite prints a table for people on standard error and its results as JSON
on standard output; 'atelier bench SUITE --help' tells a suite's options and output.

examples:
  atelier bench rules --seconds 2
  atelier bench vision --difficulty hard --boards 250 --seed 5000
  atelier bench live --minutes 2 --game isle --game pigments
  atelier bench hub --tables 200 --minutes 10
"""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "bench",
        help="run the benchmarks",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    suites = parser.add_subparsers(dest="suite", metavar="SUITE", required=True)
    for suite in (rules, markers, vision, web, led, live, hub):
        suite.register(suites)
