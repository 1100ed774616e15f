"""``atelier train``: refit a reader's fitted model from rendered boards (the Pigment Lab chip
model, the Isle cell model)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companion.cli.bench.progress import end_progress, progress_line
from companion.cli.output import check_range, emit_json
from companion.errors import AtelierError

CHIPS_HELP = """\
Refit the model that decides what lies in each Pigment Lab slot (empty, each chip, or covered)
from rendered boards with known truth: its parameters on the first --boards seeds of the train
split, its temperature (so that its probabilities are the share right) and refusal threshold on
the first --validation-boards seeds of the validation split (docs/scanning.md). The same seeds
give the same model. Writes the model file (by default the one the scanner ships with) whole or
not at all, and prints on standard output: "file", "threshold", "temperature",
"validation_loss", the slots of each split by label, and "curve" (per candidate threshold: slots
read, read wrong, share of the slots in plain view read, the model's summed doubt per board).

example:
  atelier train chips --boards 1500 --validation-boards 600
"""

CELLS_HELP = """\
Refit the model that decides each Isle cell (bare paper, each pencil, or covered) from rendered
sheets with known truth: its parameters on the first --boards seeds of the train split; then the
first --validation-boards seeds of the validation split are read with it, for its temperature
(so that its probabilities are the share right) and its refusal threshold, the least at which no
validation sheet is read confidently wrong (docs/scanning.md). The same seeds give the same
model. Writes the model file (by default the one the scanner ships with) whole or not at all,
and prints on standard output: "file", "threshold", "temperature", "validation_loss", the cells
of each split by label, "sheets" (train, validation) and "curve" (per candidate threshold:
validation sheets read with no problem, of them read wrong, read exactly, and the share of the
cells in plain view read).

example:
  atelier train isle-cells --boards 1000 --validation-boards 400
"""


def _model(
    models: Any, name: str, help_text: str, description: str, boards: int, validation: int
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = models.add_parser(
        name,
        help=help_text,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--boards", type=int, default=boards, help=f"train boards to fit on (default {boards})"
    )
    parser.add_argument(
        "--validation-boards",
        type=int,
        default=validation,
        help=f"validation boards to calibrate on (default {validation})",
    )
    parser.add_argument(
        "--difficulty",
        choices=("easy", "medium", "hard"),
        default="hard",
        help="which renders (default hard: hands, cups, glare, blur, tilt)",
    )
    parser.add_argument(
        "--out", type=Path, help="where to write the model (default: the scanner's own)"
    )
    return parser


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "train", help="refit a reader's model from rendered boards"
    )
    models = parser.add_subparsers(dest="model", metavar="MODEL", required=True)
    _model(models, "chips", "the Pigment Lab chip model", CHIPS_HELP, 1500, 600).set_defaults(
        run=run_chips
    )
    _model(models, "isle-cells", "the Isle cell model", CELLS_HELP, 1000, 400).set_defaults(
        run=run_cells
    )


def _out(args: argparse.Namespace, default: Path) -> Path:
    check_range(args.boards, 20, 40000, "--boards")
    check_range(args.validation_boards, 20, 20000, "--validation-boards")
    out: Path = args.out or default
    if out.exists() and out.is_dir():
        raise AtelierError(f"--out: {out} is a folder")
    return out


def _trained(train: Callable[[Callable[[str], None]], Any]) -> Any:
    progress = progress_line(40)
    try:
        return train(progress)
    except ValueError as exc:
        raise AtelierError(str(exc)) from exc
    finally:
        end_progress()


def _written(fitted: Any, out: Path, what: str) -> None:
    from vision.fitted.model_file import save

    try:
        save(fitted, out)
    except OSError as exc:
        raise AtelierError(f"--out: cannot write {out} ({exc.strerror})") from exc
    print(f"atelier: {what} written to {out}", file=sys.stderr)


def run_chips(args: argparse.Namespace) -> int:
    from vision.fitted.chip_training import train_chip_model
    from vision.render.envelope import Difficulty
    from vision.scan.readers.pigments_chips import CLASSES, MODEL_FILE

    out = _out(args, MODEL_FILE)
    training = _trained(
        lambda progress: train_chip_model(
            args.boards, args.validation_boards, Difficulty(args.difficulty), progress
        )
    )
    _written(training.fitted, out, "chip model")
    return emit_json(
        {
            "file": str(out),
            "threshold": training.fitted.refuse_below,
            "temperature": training.fitted.model.temperature,
            "validation_loss": training.validation_loss,
            "slots": {
                split: {name: samples.labels.count(name) for name in CLASSES}
                for split, samples in (
                    ("train", training.train),
                    ("validation", training.validation),
                )
            },
            "curve": [asdict(point) for point in training.curve],
        }
    )


def run_cells(args: argparse.Namespace) -> int:
    from vision.fitted.isle_training import train_cell_model
    from vision.render.envelope import Difficulty
    from vision.scan.readers.isle_cells import MODEL_FILE

    out = _out(args, MODEL_FILE)
    training = _trained(
        lambda progress: train_cell_model(
            args.boards, args.validation_boards, Difficulty(args.difficulty), progress
        )
    )
    _written(training.fitted, out, "Isle cell model")
    train_sheets, validation_sheets = training.boards
    return emit_json(
        {
            "file": str(out),
            "threshold": training.fitted.refuse_below,
            "temperature": training.fitted.model.temperature,
            "validation_loss": training.validation_loss,
            "cells": {"train": training.train_labels, "validation": training.validation_labels},
            "sheets": {"train": train_sheets, "validation": validation_sheets},
            "curve": [asdict(point) for point in training.curve],
        }
    )
