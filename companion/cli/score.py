"""``atelier score FILE``: score a position file of any game."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.positions import evaluate_document, read_position_source

HELP = """\
Score a position file (see the position format in the docs) and print the score as JSON.

example:
  atelier score --explain companion/content/examples/colorfield-rulebook.json
"""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "score",
        help="score a position file",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="position JSON file, or - for stdin")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="also print the breakdown for people on standard error",
    )
    parser.add_argument(
        "--deck",
        metavar="FILE",
        type=Path,
        help="use your own content file (tiles, cards) for the position's game",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    document, source = read_position_source(args.file, sys.stdin)
    report = evaluate_document(document, source, args.deck)
    json.dump(report.data, sys.stdout, indent=2)
    sys.stdout.write("\n")
    if args.explain:
        sys.stdout.flush()
        print(report.text, file=sys.stderr)
    return 0
