"""``atelier calibrate camera``: camera intrinsics from photos of a chessboard or ChArUco board,
saved into a calibration profile."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from companion.choices import known_choices
from companion.cli.bench.progress import end_progress, progress_bar
from companion.errors import AtelierError, SourceError

HELP = """\
Calibrate a camera from 10-20 photos of a printed pattern held at different angles. Prints
{"rms", "camera_matrix", "dist_coeffs", "views_used", "per_view_error"} as JSON and saves the
result into a calibration profile (kept, with its colour section, if the file exists).

examples:
  atelier calibrate camera photos/*.jpg --chessboard 9x6 --square 25
  atelier calibrate camera photos/*.jpg --charuco 5x7 --square 40 --marker 20 --dict 6X6_250
"""

COLOR_HELP = """\
Fit a colour correction from a photo of the colour reference card ('atelier print calibration'),
lying flat on the table under the light you play in, and save it into the calibration profile.
Prints the patches used and the mean colour error (Delta E) before and after.

example:
  atelier calibrate color card.jpg --profile kitchen.json
"""

DEFAULT_PROFILE = Path("atelier-calibration.json")


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "calibrate",
        help="calibrate a camera (intrinsics, colour)",
        description="Calibrate a camera: 'camera' for lens intrinsics, 'color' for colours.",
    )
    kinds = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    camera = kinds.add_parser(
        "camera",
        help="lens intrinsics from photos of a pattern",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    camera.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    pattern = camera.add_mutually_exclusive_group(required=True)
    pattern.add_argument("--chessboard", metavar="COLSxROWS", help="inner corners, e.g. 9x6")
    pattern.add_argument("--charuco", metavar="COLSxROWS", help="squares, e.g. 5x7")
    camera.add_argument("--square", type=float, required=True, metavar="MM", help="square side")
    camera.add_argument("--marker", type=float, default=0.0, metavar="MM", help="ChArUco marker")
    camera.add_argument("--dict", default="DICT_6X6_250", help="ChArUco marker dictionary")
    camera.add_argument(
        "--profile",
        type=Path,
        default=DEFAULT_PROFILE,
        metavar="FILE",
        help=f"profile to save into (default {DEFAULT_PROFILE})",
    )
    camera.add_argument("--name", help="the profile's name (default: the file's stem)")
    camera.set_defaults(run=run_camera)
    colour = kinds.add_parser(
        "color",
        help="colour correction from a photo of the printed reference card",
        description=COLOR_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    colour.add_argument("image", type=Path, metavar="IMAGE")
    colour.add_argument(
        "--profile",
        type=Path,
        default=DEFAULT_PROFILE,
        metavar="FILE",
        help=f"profile to save into (default {DEFAULT_PROFILE})",
    )
    colour.add_argument("--name", help="the profile's name (default: the file's stem)")
    colour.set_defaults(run=run_color)


def _dictionary(name: str) -> str:
    """OpenCV's name of the marker dictionary ``--dict`` names (``6X6_250`` or ``DICT_6X6_250``,
    any case)."""
    from vision.fiducials import PREDEFINED

    key = name.upper() if name.upper().startswith("DICT_") else f"DICT_{name.upper()}"
    if key not in PREDEFINED:
        names = [known.removeprefix("DICT_") for known in PREDEFINED]
        raise AtelierError(
            f"--dict: unknown marker dictionary {name!r} ({known_choices(names, name)})"
        )
    return key


def _grid(text: str, option: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)[xX](\d+)", text)
    if not match:
        raise AtelierError(f"{option}: expected COLSxROWS such as 9x6, not {text!r}")
    return int(match[1]), int(match[2])


def run_camera(args: argparse.Namespace) -> int:
    # Imported here so that commands without vision never load OpenCV.
    from calibration.camera import calibrate
    from calibration.errors import CalibrationError
    from calibration.patterns import Pattern, find_pattern
    from calibration.profile import CameraSection, Profile, save_profile
    from companion.cli.image_file import read_image

    try:
        if args.chessboard:
            cols, rows = _grid(args.chessboard, "--chessboard")
            pattern = Pattern("chessboard", cols, rows, args.square)
        else:
            cols, rows = _grid(args.charuco, "--charuco")
            dictionary = _dictionary(args.dict)
            pattern = Pattern("charuco", cols, rows, args.square, args.marker, dictionary)
        existing = _existing_profile(args.profile)
        views = []
        show = progress_bar(len(args.images), 72)
        try:
            for path in args.images:
                show(str(path))
                views.append(find_pattern(read_image(path, grayscale=True), pattern, str(path)))
        finally:
            end_progress()  # an unreadable photo's error goes on a line of its own
        result = calibrate(views)
    except CalibrationError as exc:
        raise AtelierError(str(exc)) from None
    section = CameraSection(result.model, result.rms, result.views_used, pattern.describe())
    profile = existing or Profile(args.name or args.profile.stem)
    try:
        save_profile(profile.with_camera(section), args.profile)
    except OSError as exc:
        raise SourceError(str(args.profile), exc.strerror or str(exc)) from None
    out = result.to_json() | {"profile": str(args.profile)}
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    for name, why in result.rejected:
        print(f"left out {name}: {why}", file=sys.stderr)
    fov = result.model.horizontal_fov_deg
    print(
        f"{result.views_used} views, RMS {result.rms:.3f} px, horizontal field of view "
        f"{fov:.1f} degrees; saved to {args.profile}",
        file=sys.stderr,
    )
    return 0


def _existing_profile(path: Path) -> Any:
    from calibration.errors import CalibrationError
    from calibration.profile import load_profile

    if not path.exists():
        return None
    try:
        return load_profile(path)
    except CalibrationError as exc:
        raise SourceError(str(path), f"{exc} (fix or remove it first)") from None


def run_color(args: argparse.Namespace) -> int:
    from calibration.colour import fit_correction, usable
    from calibration.errors import CalibrationError
    from calibration.profile import Profile, save_profile
    from companion.cli.image_file import read_image
    from vision.fiducials import ATELIER_DICTIONARY, MarkerDetector, predefined_dictionary
    from vision.layout.catalogue import marker_index
    from vision.scan.reference import find_reference, read_patches
    from vision.scan.registration import register

    existing = _existing_profile(args.profile)
    image = read_image(args.image)
    markers = MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY)).detect(image)
    card = find_reference(register(markers, marker_index()).boards)
    if card is None:
        raise SourceError(
            str(args.image),
            "no colour reference card found (print it with 'atelier print calibration')",
        )
    patches = read_patches(image, card)
    try:
        correction = fit_correction(patches.measured_rgb, patches.printed_rgb)
    except CalibrationError as exc:
        raise SourceError(str(args.image), f"{exc}: is the whole card in the photo?") from None
    profile = existing or Profile(args.name or args.profile.stem)
    try:
        save_profile(profile.with_color(correction.to_json()), args.profile)
    except OSError as exc:
        raise SourceError(str(args.profile), exc.strerror or str(exc)) from None
    kept = usable(patches.measured_rgb, correction.curves)
    used = [name for name, keep in zip(patches.names, kept, strict=True) if keep]
    out = correction.to_json() | {"patches_used": used, "profile": str(args.profile)}
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    print(
        f"{correction.fitted_on} patches; mean Delta E {correction.error_before:.1f} before, "
        f"{correction.error_after:.1f} after; saved to {args.profile}",
        file=sys.stderr,
    )
    return 0
