"""``atelier pigments mix`` and ``atelier pigments check``: the colour model and the recipe check.

JSON for programs on standard output; the reasons in words on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.content.pigments import content_for
from companion.errors import AtelierError, FieldError
from companion.fields import Field
from companion.games.pigments.checker import check_pan, mix
from companion.games.pigments.codec import parse_chip, parse_pan_size, parse_pigment
from companion.games.pigments.explain import explain_mix, explain_pan
from companion.games.pigments.model import Pan, PanSize

HELP = """\
The Pigment Lab colour model and recipe checker.

examples:
  atelier pigments mix Fe2O3 'FeO(OH)'
      which bands survive, the colour's name and display colour, and why
  atelier pigments check --shade coral --chips Fe2O3 'FeO(OH)' binder
      would this pan press under the coral card? (the pan is named by its chip count:
      2 small, 3 medium, 5 large; --pan names it for a pan that is not full)

A shade card's recipe is on its back: the answers never name it unless you add --reveal.

Chips: Fe2O3 (red), FeO(OH) (yellow), ultramarine (blue), TiO2 (white), binder.
"""

MIX_HELP = """\
Mix pigments and print the colour: the surviving bands, the TiO2 share, the display sRGB colour,
its lightness, the catalogue shade of that colour, and other recipes that give the same colour.
--reveal also names the recipe on the back of that shade's card.

example:
  atelier pigments mix ultramarine 'FeO(OH)' TiO2
"""

CHECK_HELP = """\
Check a pan against a shade card: is it full, is it sound (one binder for every two pigments,
rounded up), and does its recipe press the shade? The verdict comes with the band arithmetic
and the card's colour, never the card's recipe (it is on the back): --reveal names it.

examples:
  atelier pigments check --shade coral --chips Fe2O3 'FeO(OH)' binder
  atelier pigments check --shade coral --chips Fe2O3 Fe2O3 binder --reveal
"""


def _add_deck(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deck", metavar="FILE", type=Path, help="use your own Pigment Lab content file"
    )


def _add_reveal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reveal",
        action="store_true",
        help="name the shade card's recipe (a spoiler: it is on the back of the card)",
    )


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "pigments",
        help="the Pigment Lab colour model and recipe checker",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="pigments_command", metavar="ACTION", required=True)
    mixer: argparse.ArgumentParser = actions.add_parser(
        "mix",
        help="the colour of a mix of pigments",
        description=MIX_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mixer.add_argument("pigments", metavar="PIGMENT", nargs="*", help="pigments to mix")
    _add_deck(mixer)
    _add_reveal(mixer)
    mixer.set_defaults(run=run_mix)
    checker: argparse.ArgumentParser = actions.add_parser(
        "check",
        help="would this pan press under this shade card, and why",
        description=CHECK_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # Required in words, not by argparse, so that a missing one is a one-line error like any other.
    checker.add_argument("--shade", metavar="NAME", help="the shade card's name (required)")
    checker.add_argument(
        "--chips", metavar="CHIP", nargs="*", help="the chips in the pan (required)"
    )
    checker.add_argument("--pan", metavar="SIZE", help="small, medium or large")
    _add_deck(checker)
    _add_reveal(checker)
    checker.set_defaults(run=run_check)


def _emit(data: dict[str, Any], text: str) -> None:
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
    sys.stdout.flush()
    print(text, file=sys.stderr)


def run_mix(args: argparse.Namespace) -> int:
    names: list[str] = args.pigments
    if not names:
        raise AtelierError("PIGMENT: name at least one pigment (Fe2O3, FeO(OH), ultramarine, TiO2)")
    pigments = [parse_pigment(f) for f in Field(names, "PIGMENT").array()]
    content = content_for(args.deck)
    result = mix(pigments, content.catalogue)
    _emit(result.to_json(args.reveal), explain_mix(result, args.reveal))
    return 0


def _pan_for(chips: int, size: str | None) -> PanSize:
    if size is not None:
        return parse_pan_size(Field(size, "--pan"))
    for pan in PanSize:
        if pan.slots == chips:
            return pan
    slots = ", ".join(f"{pan} {pan.slots}" for pan in PanSize)
    raise FieldError(
        "--chips", f"{chips} chips fill no pan ({slots} slots): name the pan with --pan"
    )


def run_check(args: argparse.Namespace) -> int:
    if args.shade is None:
        raise FieldError("--shade", "missing: name the shade card, e.g. --shade coral")
    if args.chips is None or not args.chips:
        raise FieldError("--chips", "missing: list the pan's chips, e.g. --chips Fe2O3 binder")
    chips = tuple(parse_chip(f) for f in Field(args.chips, "--chips").array())
    size = _pan_for(len(chips), args.pan)
    if len(chips) > size.slots:
        raise FieldError(
            "--chips", f"a {size} pan has {size.slots} slots, but {len(chips)} chips are listed"
        )
    content = content_for(args.deck)
    shade = Field(args.shade, "--shade").lookup(content.shades, "shade")
    check = check_pan(Pan(size, chips), shade, content.catalogue, reveal=args.reveal)
    _emit({"game": "pigments", **check.to_json()}, explain_pan(check))
    return 0
