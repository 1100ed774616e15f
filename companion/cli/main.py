"""Entry point: builds the parser, runs one command, and turns errors into exit statuses.

Exit status: 0 success, 2 a user's mistake (one line on standard error), 1 an internal failure.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import NoReturn

from companion import __version__
from companion.errors import AtelierError

EXAMPLES = """\
examples:
  atelier score position.json            score a position file, JSON on stdout
  atelier score --explain position.json  also print the breakdown for people (stderr)
  cat position.json | atelier score -    read the position from standard input
  atelier advise --explain position.json the best next move, with the reasons
  atelier markers photo.jpg              list the fiducial markers in a photo
  atelier render pos.json -o table.jpg   a photo of a position, with its truth
  atelier print colorfield -o sheets/    print-and-play sheets, PNG and PDF
  atelier bench rules                    measure the rules engines
  atelier screenshots -o docs/screens    the documentation's screenshots, taken in Chromium
"""

# Each command's module, imported only for the command that runs (all of them for the command
# list): together they load numpy, the live table and every benchmark, which took most of a
# short command's time.
COMMANDS = {
    "score": "companion.cli.score",
    "advise": "companion.cli.advise",
    "bench": "companion.cli.bench",
    "pigments": "companion.cli.pigments",
    "markers": "companion.cli.markers",
    "render": "companion.cli.render",
    "print": "companion.cli.print_cmd",
    "calibrate": "companion.cli.calibrate",
    "scan": "companion.cli.scan",
    "led": "companion.cli.led",
    "serve": "companion.cli.serve",
    "hub": "companion.cli.hub",
    "train": "companion.cli.train",
    "screenshots": "companion.cli.screenshots",
}


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (not the usage block), still exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser for every command, or for the command named ``only``."""
    parser = _Parser(
        prog="atelier",
        description="Atelier: a table companion for colour and painting board games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"atelier {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module in COMMANDS.items():
        if only in (None, name):
            importlib.import_module(module).register(commands)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` starts with when it is a known one, else None: then the whole parser
    reads ``argv``, to list the commands (``-h`` first) or name the mistake."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command_named(argv))
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
        sys.stdout.flush()
    except AtelierError as exc:
        print(f"atelier: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("atelier: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``atelier score f | head``): not an error worth a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:
        if os.environ.get("ATELIER_DEBUG"):
            traceback.print_exc()
        print(
            f"atelier: internal error: {type(exc).__name__}: {exc} "
            "(set ATELIER_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        return 1
    return status
