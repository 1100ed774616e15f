"""``atelier train chips``: refit the Pigment Lab chip model from rendered boards."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companion.cli.bench.progress import end_progress, progress_line
from companion.cli.output import check_range, emit_json
from companion.errors import AtelierError

HELP = """\
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


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "train", help="refit a reader's model from rendered boards"
    )
    models = parser.add_subparsers(dest="model", metavar="MODEL", required=True)
    chips = models.add_parser(
        "chips",
        help="the Pigment Lab chip model",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    chips.add_argument(
        "--boards", type=int, default=1500, help="train boards to fit on (default 1500)"
    )
    chips.add_argument(
        "--validation-boards",
        type=int,
        default=600,
        help="validation boards to calibrate on (default 600)",
    )
    chips.add_argument(
        "--difficulty",
        choices=("easy", "medium", "hard"),
        default="hard",
        help="which renders (default hard: hands, cups, glare, blur, tilt)",
    )
    chips.add_argument(
        "--out", type=Path, help="where to write the model (default: the scanner's own)"
    )
    chips.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_range(args.boards, 20, 40000, "--boards")
    check_range(args.validation_boards, 20, 20000, "--validation-boards")
    from vision.fitted.chip_training import train_chip_model
    from vision.fitted.model_file import save
    from vision.render.envelope import Difficulty
    from vision.scan.readers.pigments_chips import CLASSES, MODEL_FILE

    out: Path = args.out or MODEL_FILE
    if out.exists() and out.is_dir():
        raise AtelierError(f"--out: {out} is a folder")
    progress = progress_line(40)
    try:
        training = train_chip_model(
            args.boards, args.validation_boards, Difficulty(args.difficulty), progress
        )
    except ValueError as exc:
        raise AtelierError(str(exc)) from exc
    finally:
        end_progress()
    try:
        save(training.fitted, out)
    except OSError as exc:
        raise AtelierError(f"--out: cannot write {out} ({exc.strerror})") from exc
    print(f"atelier: chip model written to {out}", file=sys.stderr)
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
