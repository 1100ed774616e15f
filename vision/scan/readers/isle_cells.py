"""Isle cells decided by the fitted cell model (``vision/fitted/isle_cells.json``, refitted by
``atelier train isle-cells``): bare paper, a pencil, or something over the cell, with the
probability the model gives it, calibrated on validation renders (docs/scanning.md).

The model decides from what is measured of each cell (``isle_features``); the reader only reads
what it names at least as surely as the model file's threshold, chosen from the validation
boards' risk-coverage curve.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from companion.observation import ComponentRead as Read
from vision.fitted.model_file import FittedModel, load
from vision.scan.readers.isle_features import FEATURES, PENCILS, Matrix

BARE = "bare"
COVERED = "covered"
CLASSES = (BARE, *PENCILS, COVERED)
MODEL_FILE = Path(__file__).resolve().parents[2] / "fitted" / "isle_cells.json"


def shipped() -> FittedModel:
    """The model the scanner ships with."""
    return load(MODEL_FILE, CLASSES, FEATURES)


def _value(name: str) -> str | None:
    return None if name == BARE else name


def _named(name: str) -> str:
    return "bare paper" if name == BARE else name


def likeliest(names: Sequence[str], chances: Matrix) -> list[Read]:
    """Each cell as the model names it, however unsure (``chances``: one row per cell, one
    column per class): what the sheet's other measures take for its reading before the
    threshold applies. A cell the model takes for covered is never read."""
    reads = []
    for name, row in zip(names, chances, strict=True):
        label = CLASSES[int(np.argmax(row))]
        if label == COVERED:
            why = f"{name}: covered (neither bare paper nor a pencil)"
            reads.append(Read(name, None, 0.0, why))
        else:
            reads.append(Read(name, _value(label), float(row.max())))
    return reads


def sure_enough(read: Read, row: Matrix, refuse_below: float) -> Read:
    """``read`` (its cell's likeliest class), or, where the model is less sure of it than
    ``refuse_below``, a refusal that names the two likeliest (``row``: the cell's chances)."""
    if read.problem or read.confidence >= refuse_below:
        return read
    order = np.argsort(-row, kind="stable")
    best, second = (CLASSES[int(k)] for k in order[:2])
    # Rounded down: a chance shown as the threshold would seem to have reached it.
    shown = math.floor(round(float(row[order[0]]) * 100, 6)) / 100
    why = f"{read.component}: unsure ({_named(best)} {shown:.2f}, or {_named(second)})"
    candidates = tuple(_value(name) for name in (best, second) if name != COVERED)
    return Read(read.component, None, 0.0, why, candidates)


def decided(
    names: Sequence[str], features: Matrix, fitted: FittedModel
) -> tuple[list[Read], Matrix]:
    """The likeliest reading of every cell, and the model's chances (cells x CLASSES)."""
    chances = fitted.model.probabilities(features)
    return likeliest(names, chances), chances
