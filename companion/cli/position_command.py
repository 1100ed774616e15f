"""What ``atelier score`` and ``atelier advise`` share: a position file (or standard input) in,
a report as JSON on standard output, its text for people on standard error with ``--explain``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.registry import Report
from companion.positions import read_position_source

Evaluate = Callable[[Any, str, Path | None], Report]


@dataclass(frozen=True)
class PositionCommand:
    name: str
    help: str  # one line, in the command list
    description: str  # the command's --help
    explains: str  # what --explain prints
    evaluate: Evaluate  # the position document, where it came from, the --deck file
    metavar: str = "POSITION"

    def register(self, commands: Any) -> None:
        parser: argparse.ArgumentParser = commands.add_parser(
            self.name,
            help=self.help,
            description=self.description,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.add_argument("file", metavar=self.metavar, help="position JSON file, or - for stdin")
        parser.add_argument(
            "--explain",
            action="store_true",
            help=f"also print {self.explains} for people on standard error",
        )
        parser.add_argument(
            "--deck",
            metavar="FILE",
            type=Path,
            help="use your own content file (tiles, cards) for the position's game",
        )
        parser.set_defaults(run=self.run)

    def run(self, args: argparse.Namespace) -> int:
        document, source = read_position_source(args.file, sys.stdin)
        report = self.evaluate(document, source, args.deck)
        json.dump(report.data, sys.stdout, indent=2)
        sys.stdout.write("\n")
        if args.explain:
            sys.stdout.flush()
            print(report.text, file=sys.stderr)
        return 0
