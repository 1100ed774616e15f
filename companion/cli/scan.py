"""``atelier scan IMAGE``: read every board in a photo, and score those read with confidence."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.errors import AtelierError, SourceError
from companion.games.isle.model import Colour, Condition
from companion.games.paintings.model import Goal
from companion.observation import GameOptions, score_observation

HELP = """\
Read every Atelier board in a photo and print, per board, the position read, its score (only when
every component was read with confidence), the confidence and the problems, as JSON:
{"boards": [{"game", "player", "position", "score", "confidence", "problems"}], "timing_ms"}.
A board that cannot be read confidently is listed with its problems and no score. Boards whose
markers are seen but cannot be decoded (too blurred, too small) are listed under "unreadable":
[{"where": [x, y, w, h], "candidates", "px_per_cell", "problem"}].

The camera cannot see which Paintings scoring cards or Isle of Colors conditions are in play: name
them with --scoring-cards and --conditions to get those games scored.

examples:
  atelier scan table.jpg
  atelier scan table.jpg --game isle --conditions green=grass,blue=river,brown=caves,red=town
  atelier scan table.jpg --calibration atelier-calibration.json
"""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "scan",
        help="read the boards in a photo and score them",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("image", type=Path, metavar="IMAGE")
    parser.add_argument("--game", choices=("colorfield", "paintings", "isle", "pigments"))
    parser.add_argument("--calibration", type=Path, metavar="PROFILE")
    parser.add_argument("--scoring-cards", metavar="A,B,C,D", help="Paintings: the four in play")
    parser.add_argument(
        "--conditions", metavar="COLOUR=NAME,...", help="Isle of Colors: one condition per colour"
    )
    parser.set_defaults(run=run)


def parse_scoring_cards(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    known = {g.value for g in Goal}
    for name in names:
        if name not in known:
            listed = ", ".join(sorted(known))
            raise AtelierError(f"--scoring-cards: unknown scoring card {name!r} (known: {listed})")
    if len(names) != 4 or len(set(names)) != 4:
        raise AtelierError("--scoring-cards: name four different scoring cards")
    return names


def parse_conditions(text: str) -> dict[str, str]:
    chosen: dict[str, str] = {}
    for item in text.split(","):
        colour, _, name = item.partition("=")
        colour, name = colour.strip(), name.strip()
        if colour not in {c.value for c in Colour}:
            known = ", ".join(c.value for c in Colour)
            raise AtelierError(f"--conditions: unknown colour {colour!r} (known: {known})")
        try:
            condition = Condition(name)
        except ValueError:
            known = ", ".join(c.value for c in Condition if c.colour.value == colour)
            raise AtelierError(
                f"--conditions: unknown condition {name!r} for {colour} (known: {known})"
            ) from None
        if condition.colour.value != colour:
            raise AtelierError(
                f"--conditions: {name!r} is a {condition.colour} condition, not {colour}"
            )
        chosen[colour] = name
    if set(chosen) != {c.value for c in Colour}:
        raise AtelierError("--conditions: name one condition for each of green, blue, brown, red")
    return chosen


def run(args: argparse.Namespace) -> int:
    options = GameOptions(
        scoring_cards=parse_scoring_cards(args.scoring_cards) if args.scoring_cards else None,
        conditions=parse_conditions(args.conditions) if args.conditions else None,
    )
    # Imported here so that commands without vision never load OpenCV.
    from calibration.colour import ColourCorrection
    from calibration.errors import CalibrationError
    from calibration.profile import load_profile
    from companion.cli.image_file import read_image
    from vision.scan.scanner import Scanner

    camera, colour = None, None
    if args.calibration is not None:
        try:
            profile = load_profile(args.calibration)
            if profile.color is not None:
                colour = ColourCorrection.from_json(profile.color)
        except CalibrationError as exc:
            raise SourceError(str(args.calibration), exc) from None
        if profile.camera is not None:
            camera = profile.camera.model
    image = read_image(args.image)
    observation = Scanner(camera, colour).scan(image, args.game)
    boards = [score_observation(b, options) for b in observation.boards]
    out = {
        "boards": [b.to_json() for b in boards],
        "timing_ms": round(observation.total_ms, 2),
        "stages_ms": {k: round(v, 2) for k, v in observation.stages_ms.items()},
        "markers_seen": len(observation.markers),
        "colour": observation.colour_source,
        "unreadable": [u.to_json() for u in observation.unreadable],
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    for board in boards:
        who = f"seat {board.observation.player}" if board.observation.player else "board"
        if board.score is not None:
            print(f"{board.observation.game} {who}: {board.score['total']} points", file=sys.stderr)
        else:
            print(f"{board.observation.game} {who}: unreadable", file=sys.stderr)
            for problem in board.problems:
                print(f"  {problem}", file=sys.stderr)
    for seen in observation.unreadable:
        print(f"unreadable board near {seen.where[:2]} px: {seen.problem}", file=sys.stderr)
    if not boards and not observation.unreadable:
        print(f"no Atelier board found ({len(observation.markers)} markers seen)", file=sys.stderr)
    return 0
