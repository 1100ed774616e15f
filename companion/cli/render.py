"""``atelier render``: a photo of a position's printed components on a table, with its truth."""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from companion.errors import AtelierError

HELP = """\
Draw the printed components of a position on a table as a camera would see them (perspective,
lens distortion, light, shadows, blur, noise, JPEG), and write beside IMAGE the truth
<stem>.truth.json: the position, the image corners of every board, piece and marker, and every
render parameter. The same seed gives the same files. POSITION is a position file (- for stdin)
or {"table": [positions...]} for several boards in one view; --random GAME draws a random
position of GAME from the catalogue instead.

examples:
  atelier render companion/content/examples/isle.json -o isle.jpg --seed 7
  atelier render --random pigments --seed 3 --difficulty hard -o palette.png
"""

SIZE = re.compile(r"^(\d+)x(\d+)$")
WIDTH, HEIGHT = (160, 7680), (120, 4320)
GAMES = ("colorfield", "paintings", "isle", "pigments")


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "render",
        help="draw a position on a table as a camera sees it, with the truth",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", metavar="POSITION", nargs="?", help="position JSON file")
    parser.add_argument(
        "-o", "--output", metavar="IMAGE", type=Path, required=True, help="a .jpg or .png to write"
    )
    parser.add_argument("--seed", metavar="N", type=int, default=0, help="default 0")
    parser.add_argument(
        "--difficulty", choices=("easy", "medium", "hard"), default="medium", help="default medium"
    )
    parser.add_argument("--size", metavar="WxH", default="1920x1080", help="default 1920x1080")
    parser.add_argument("--random", metavar="GAME", help=f"a random position of {'/'.join(GAMES)}")
    parser.set_defaults(run=run)


def parse_size(text: str) -> tuple[int, int]:
    match = SIZE.match(text)
    if match is None:
        raise AtelierError(f"--size: expected WIDTHxHEIGHT such as 1920x1080, got {text!r}")
    width, height = int(match[1]), int(match[2])
    if not (WIDTH[0] <= width <= WIDTH[1] and HEIGHT[0] <= height <= HEIGHT[1]):
        raise AtelierError(
            f"--size: {width}x{height} is out of range "
            f"({WIDTH[0]}..{WIDTH[1]} by {HEIGHT[0]}..{HEIGHT[1]})"
        )
    return width, height


def _document(args: argparse.Namespace) -> tuple[Any, str]:
    from companion.positions import read_position_source
    from companion.samples import random_position

    if (args.position is None) == (args.random is None):
        raise AtelierError("give a POSITION file or --random GAME (one of them)")
    if args.random is not None:
        if args.random not in GAMES:
            raise AtelierError(
                f"--random: unknown game {args.random!r} (known: {', '.join(GAMES)})"
            )
        return random_position(args.random, random.Random(args.seed)), f"--random {args.random}"
    return read_position_source(args.position, sys.stdin)


def run(args: argparse.Namespace) -> int:
    # Imported here so that commands without vision never load OpenCV.
    from vision.render.envelope import Difficulty
    from vision.render.files import check_output, write_rendering
    from vision.render.placing import plan_table
    from vision.render.renderer import Renderer, RenderOptions

    size = parse_size(args.size)
    if args.seed < 0:
        raise AtelierError(f"--seed: expected 0 or more, got {args.seed}")
    check_output(args.output)
    document, source = _document(args)
    plan = plan_table(document, source)
    start = time.perf_counter()
    options = RenderOptions(args.seed, Difficulty(args.difficulty), size)
    rendering = Renderer().render(plan, options)
    truth = write_rendering(rendering, args.output)
    elapsed = time.perf_counter() - start
    json.dump({"image": str(args.output), "truth": str(truth)}, sys.stdout)
    sys.stdout.write("\n")
    pieces = len(rendering.truth["components"])
    print(f"rendered {pieces} components in {elapsed * 1000:.0f} ms", file=sys.stderr)
    if not rendering.truth["render"]["within_envelope"]:
        print(
            f"note: no {args.difficulty} camera frames this whole table with every marker "
            "readable; the closest one was used",
            file=sys.stderr,
        )
    return 0
