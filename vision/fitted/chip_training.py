"""Fitting the chip model: parameters on train renders, its temperature and refusal threshold on
validation renders (docs/scanning.md, Evaluation), reproducibly from the seeds alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.fitted.chip_data import COVERED_LABEL, WIDER_EV, WIDER_NOISE, Samples, collect
from vision.fitted.model_file import FittedModel
from vision.fitted.softmax import calibrated, fit, log_loss
from vision.fitted.threshold import least_safe
from vision.fitted.typical import CUTOFF, fit_typicality
from vision.render.envelope import Difficulty
from vision.scan.readers.chip_features import COMPARED, FEATURES
from vision.scan.readers.pigments_chips import CLASSES, COVERED
from vision.splits import SPLITS

PENALTY = 1e-4  # per sample, on the squared weights of the standardised features
# Products of two features (degree 2) fitted no better on validation (seeds 60000-60599).
DEGREE = 1
# The refusal threshold is the least of these above which no validation slot is read wrong: the
# measured risk-coverage curve's lowest point at risk 0 (what that bounds: docs/scanning.md).
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.999)


@dataclass(frozen=True)
class ThresholdPoint:
    threshold: float
    read: int  # validation slots the model would read (likeliest not covered, sure enough)
    wrong: int  # of them, not what lies there
    visible_read: float  # share of the slots in plain view that are read
    doubt_per_board: float  # summed (1 - probability) of the slots read, per board


@dataclass(frozen=True)
class Training:
    fitted: FittedModel
    train: Samples
    validation: Samples
    curve: tuple[ThresholdPoint, ...]
    validation_loss: float


def threshold_curve(fitted: FittedModel, validation: Samples) -> tuple[ThresholdPoint, ...]:
    """What each of THRESHOLDS would do on the validation slots."""
    chances = fitted.model.probabilities(validation.features)
    likeliest = [CLASSES[int(k)] for k in chances.argmax(axis=1)]
    sure = chances.max(axis=1)
    reads = np.array(
        [
            name != COVERED and fitted.accepts(sample, name)
            for name, sample in zip(likeliest, validation.features, strict=True)
        ]
    )
    wrong = np.array(
        [name != truth for name, truth in zip(likeliest, validation.truths, strict=True)]
    )
    visible = np.array([label != COVERED for label in validation.labels])
    points = []
    for t in THRESHOLDS:
        read = reads & (sure >= t)
        points.append(
            ThresholdPoint(
                t,
                int(read.sum()),
                int((read & wrong).sum()),
                float((read & visible).sum() / max(int(visible.sum()), 1)),
                float((1.0 - sure[read]).sum() / max(validation.boards, 1)),
            )
        )
    return tuple(points)


def refusal_threshold(curve: Sequence[ThresholdPoint]) -> float:
    """The least threshold at and above which no validation read is wrong (the highest when
    even that one reads some wrong)."""
    return least_safe((point.threshold, point.wrong) for point in curve)


def train_chip_model(
    train_boards: int,
    validation_boards: int,
    difficulty: Difficulty,
    progress: Callable[[str], None] | None = None,
) -> Training:
    """Collect slots from the first ``train_boards`` train seeds and ``validation_boards``
    validation seeds, fit, calibrate and choose the threshold."""

    def step(split: str, total: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(f"{split}: board {done} of {total}")

    train = collect(SPLITS["train"].seeds(train_boards), difficulty, step("train", train_boards))
    validation = collect(
        SPLITS["validation"].seeds(validation_boards),
        difficulty,
        step("validation", validation_boards),
    )
    train, validation = train.labelled(), validation.labelled()
    for name, samples in (("train", train), ("validation", validation)):
        missing = sorted(set(CLASSES) - set(samples.labels))
        if missing:
            raise ValueError(f"{name} boards show no slot that is {', '.join(missing)}")
    if progress is not None:
        progress("fitting")
    model = fit(train.features, train.labels, CLASSES, FEATURES, PENALTY, DEGREE)
    model = calibrated(model, validation.features, validation.labels)
    typicality = fit_typicality(model.standardised(train.features), train.labels, CLASSES, COMPARED)
    curve = threshold_curve(FittedModel(model, 0.0, {}, typicality), validation)
    threshold = refusal_threshold(curve)
    provenance = {
        "command": (
            f"atelier train chips --boards {train_boards} "
            f"--validation-boards {validation_boards} --difficulty {difficulty.value}"
        ),
        "train": _provenance(train, SPLITS["train"].first),
        "validation": _provenance(validation, SPLITS["validation"].first),
        "wider": {"boards": "odd seeds", "exposure_ev": WIDER_EV, "noise_sigma": WIDER_NOISE},
        "penalty": PENALTY,
        "typical_share": CUTOFF,
    }
    fitted = FittedModel(model, threshold, provenance, typicality)
    loss = log_loss(model, validation.features, validation.labels)
    return Training(fitted, train, validation, curve, loss)


def _provenance(samples: Samples, first: int) -> dict[str, object]:
    counts = {name: samples.labels.count(name) for name in CLASSES}
    return {
        "seeds": [first, first + samples.boards - 1],
        "boards": samples.boards,
        "slots": len(samples),
        "labels": counts,
        "covered_label": COVERED_LABEL,
    }
