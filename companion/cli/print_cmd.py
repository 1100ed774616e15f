"""``atelier print GAME -o DIR``: print-and-play sheets, one PNG per component and a manifest."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.cli.bench.progress import end_progress, progress_line
from companion.words import plural

HELP = """\
Write everything needed to print a game's components, with their fiducial markers, into DIR:
  DIR/<game>-a4.pdf, DIR/<game>-letter.pdf   the sheets, one page each, exact paper size
  DIR/sheets/*.png                           the same sheets as 300 dpi PNG images
  DIR/components/*.png                       one 300 dpi PNG per component
  DIR/manifest.json                          every component: id, kind, size in mm, marker ids
                                             and dictionary, content, regions, sheet placements
GAME is colorfield, paintings, isle, pigments, calibration (the colour reference card) or all.
Print at 100 % (no "fit to page"), on matte paper. DIR is written completely or not at all; an
existing non-empty DIR is replaced only with --force.

example:
  atelier print colorfield -o print/colorfield
"""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "print",
        help="write print-and-play sheets (PDF, PNG) and a manifest",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="a game, calibration, or all")
    parser.add_argument(
        "-o", "--output", metavar="DIR", type=Path, required=True, help="the folder to write"
    )
    parser.add_argument(
        "--force", action="store_true", help="replace DIR even if it has files in it"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that commands without vision never load OpenCV.
    from companion.errors import AtelierError
    from vision.layout.catalogue import GAMES
    from vision.printing.job import print_games
    from vision.printing.staging import staged_folder

    if args.game != "all" and args.game not in GAMES:
        raise AtelierError(f"unknown game {args.game!r} (known: {', '.join(GAMES)}, all)")
    games = GAMES if args.game == "all" else (args.game,)
    with staged_folder(args.output, args.force) as folder:
        try:
            summary = print_games(games, folder, progress_line(48))
        finally:
            end_progress()  # the summary, or an error, on a line of its own
    out: Path = args.output
    for name in summary.files:
        if name.endswith((".pdf", ".json")):
            print(f"wrote {out / name}", file=sys.stderr)
    pngs = [name for name in summary.files if name.endswith(".png")]
    for folder_name in ("components", "sheets"):
        count = sum(name.startswith(folder_name + "/") for name in pngs)
        files = plural(count, "PNG file")
        print(f"wrote {out / folder_name}/ ({files} at 300 dpi)", file=sys.stderr)
    json.dump({"folder": str(out), **summary.to_json()}, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0
