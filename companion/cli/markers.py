"""``atelier markers IMAGE``: list the fiducial markers in a photo."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HELP = """\
List the fiducial markers in a photo as JSON: [{"id", "dict", "corners"}], corners in image
pixels, clockwise from each marker's own top-left corner. --dict takes any OpenCV ArUco or
AprilTag dictionary by name (DICT_6X6_250 or 6X6_250; default: Atelier's own, APRILTAG_36H11), or
a dictionary file saved by OpenCV (.yml).

example:
  atelier markers table.jpg --dict 6X6_250
"""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "markers",
        help="list the fiducial markers in a photo",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("image", metavar="IMAGE", type=Path, help="a photo (JPEG, PNG, ...)")
    parser.add_argument("--dict", dest="dictionary", metavar="NAME", default=None)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that commands without vision never load OpenCV.
    from companion.cli.image_file import read_image
    from vision.fiducials import ATELIER_DICTIONARY, MarkerDetector, resolve_dictionary

    dictionary = resolve_dictionary(args.dictionary or ATELIER_DICTIONARY)
    markers = MarkerDetector(dictionary).detect(read_image(args.image))
    json.dump([m.to_json() for m in markers], sys.stdout)
    sys.stdout.write("\n")
    print(f"{len(markers)} markers of {dictionary.name}", file=sys.stderr)
    return 0
