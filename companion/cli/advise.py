"""``atelier advise POSITION``: the best next move for the player of a position file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.positions import advise_document, read_position_source

HELP = """\
Advise the player of a position file (see the position format in the docs) and print the
advice as JSON with its reasons: Color Field, where and how to place a tile ("tile"); Paintings,
which 3 hand cards to paint and in which order ("hand"); Isle of Colors, the colour and cells to
fill for the roll ("roll", "hand").

example:
  atelier advise --explain companion/content/examples/paintings-hand.json
"""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "advise",
        help="advise the next move of a position's player",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="POSITION", help="position JSON file, or - for stdin")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="also print the reasons for people on standard error",
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
    report = advise_document(document, source, args.deck)
    json.dump(report.data, sys.stdout, indent=2)
    sys.stdout.write("\n")
    if args.explain:
        sys.stdout.flush()
        print(report.text, file=sys.stderr)
    return 0
