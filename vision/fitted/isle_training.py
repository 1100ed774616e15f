"""Fitting the Isle cell model: its parameters on train renders, its temperature on validation
renders, and its refusal threshold from the validation boards' risk-coverage curve
(docs/scanning.md, Evaluation), reproducibly from the seeds alone.

The threshold is chosen on whole boards as the scanner reads them: every measure after the model
(cells covered, outside the photo, strokes too faint to show, a dot hidden) is taken with the
model's likeliest reading of each cell, so only the threshold itself is left to choose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.observation import ComponentRead as Read
from vision.benchmark import TRUTH, render_board
from vision.fitted.chip_data import WIDER_EV, WIDER_NOISE, Change, widened
from vision.fitted.model_file import FittedModel
from vision.fitted.softmax import Matrix, calibrated, fit, log_loss, untrained
from vision.fitted.threshold import least_safe
from vision.render.envelope import Difficulty
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.readers.isle import IsleReader
from vision.scan.readers.isle_cells import BARE, CLASSES, COVERED
from vision.scan.readers.isle_features import FEATURES
from vision.scan.scanner import Scanner
from vision.splits import SPLITS

PENALTY = 1e-4  # per sample, on the squared weights of the standardised features
# A cell an occluder hides at least this share of is labelled covered; less, but some, and
# either label would be a guess: such cells are left out of fitting.
COVERED_LABEL = 0.5
# Every other pair of sheets is coloured with players' own pencils (drawn per sheet), not the
# printed set: real players colour with whatever pencils they own.
OWN_PENCILS = "varied"


def sheet_change(seed: int) -> Change:
    """How ``seed``'s sheet is rendered for fitting: exposed and noised as the chip model's
    boards are (``widened``), and coloured with players' own pencils where ``seed // 2`` is
    odd."""
    wider = widened(seed)

    def change(options: RenderOptions) -> RenderOptions:
        changed = options if wider is None else wider(options)
        return replace(changed, pencils=OWN_PENCILS) if (seed // 2) % 2 else changed

    return change


THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98, 0.99)


@dataclass(frozen=True)
class Sheet:
    """One board's cells as measured: features, truth (a pencil or BARE), the share of each
    an occluder hides, each as the scanner read it with the model's likeliest class (no
    threshold), and whether the board raised a problem of its own."""

    seed: int
    features: Matrix
    truths: tuple[str, ...]
    covered: Matrix
    reads: tuple[Read, ...]
    board_problem: bool


@dataclass(frozen=True)
class ThresholdPoint:
    threshold: float
    boards_read: int  # validation boards read with no problem
    boards_wrong: int  # of them, with a cell read wrong: confidently wrong
    boards_exact: int  # every cell not hidden read right, no needless refusal
    cells_read: float  # share of the cells not hidden that are read


@dataclass(frozen=True)
class Training:
    fitted: FittedModel
    train_labels: dict[str, int]
    validation_labels: dict[str, int]
    curve: tuple[ThresholdPoint, ...]
    validation_loss: float
    boards: tuple[int, int]


def labelled(sheets: Sequence[Sheet]) -> tuple[Matrix, list[str]]:
    """The cells that can be labelled: a pencil, BARE, or COVERED."""
    rows, labels = [], []
    for sheet in sheets:
        for row, truth, covered in zip(sheet.features, sheet.truths, sheet.covered, strict=True):
            if covered >= COVERED_LABEL:
                rows.append(row)
                labels.append(COVERED)
            elif covered == 0:
                rows.append(row)
                labels.append(truth)
    return np.asarray(rows, np.float64).reshape(-1, len(FEATURES)), labels


def collect(
    seeds: Iterable[int],
    difficulty: Difficulty,
    fitted: FittedModel,
    progress: Callable[[int], None] | None = None,
    change: Callable[[int], Change | None] = sheet_change,
) -> list[Sheet]:
    """Render an Isle sheet per seed (its options changed by ``change(seed)``), scan it with
    ``fitted`` taken at no threshold, and keep each cell's features, truth and reading."""
    renderer = Renderer()
    seen: list[tuple[tuple[str, ...], Matrix]] = []
    unthresholded = FittedModel(fitted.model, 0.0, fitted.provenance)
    reader = IsleReader(unthresholded, observe=lambda names, rows: seen.append((names, rows)))
    scanner = Scanner(readers={("isle", "sheet"): reader}, cores=1)
    sheets = []
    for done, seed in enumerate(seeds, 1):
        rendered = render_board(renderer, "isle", difficulty, seed, change(seed))
        seen.clear()
        observation = scanner.scan(rendered.rendering.image, "isle")
        if seen and observation.boards:
            truth = TRUTH["isle"](rendered.position)
            hidden = {
                f"cell ({entry['region'].removeprefix('cell ')})": float(entry["covered"])
                for entry in rendered.rendering.truth.get("covered_regions", [])
            }
            names, rows = seen[-1]
            board = observation.boards[0]
            by_name = {c.component: c for c in board.components}
            sheets.append(
                Sheet(
                    seed,
                    rows,
                    tuple(BARE if truth.get(n) is None else str(truth[n]) for n in names),
                    np.array([hidden.get(n, 0.0) for n in names]),
                    tuple(by_name[n] for n in names),
                    any(not p.startswith("cell (") for p in board.problems),
                )
            )
        if progress is not None:
            progress(done)
    return sheets


def threshold_curve(fitted: FittedModel, sheets: Sequence[Sheet]) -> tuple[ThresholdPoint, ...]:
    """What each of THRESHOLDS would do on the validation boards."""
    points = []
    for t in THRESHOLDS:
        read = wrong = exact = 0
        shown = accepted = 0
        for sheet in sheets:
            sure = fitted.model.probabilities(sheet.features).max(axis=1)
            ok = np.array([not r.problem for r in sheet.reads]) & (sure >= t)
            right = np.array(
                [
                    (BARE if r.value is None else str(r.value)) == truth
                    for r, truth in zip(sheet.reads, sheet.truths, strict=True)
                ]
            )
            plain = sheet.covered == 0
            shown += int(plain.sum())
            accepted += int((ok & plain).sum())
            if ok.all() and not sheet.board_problem:
                read += 1
                wrong += int(not right.all())
            exact += int(
                bool((ok & right)[plain].all() and (right | ~ok).all()) and not sheet.board_problem
            )
        points.append(ThresholdPoint(t, read, wrong, exact, accepted / max(shown, 1)))
    return tuple(points)


def refusal_threshold(curve: Sequence[ThresholdPoint]) -> float:
    """The least threshold at and above which no validation board is read confidently wrong
    (the highest when even that one reads some wrong)."""
    return least_safe((point.threshold, point.boards_wrong) for point in curve)


def _counts(labels: Sequence[str]) -> dict[str, int]:
    return {name: labels.count(name) for name in CLASSES}


def train_cell_model(
    train_boards: int,
    validation_boards: int,
    difficulty: Difficulty,
    progress: Callable[[str], None] | None = None,
) -> Training:
    """Collect cells from the first ``train_boards`` train seeds, fit; collect the first
    ``validation_boards`` validation seeds read with that fit, calibrate and choose the
    threshold."""

    def step(split: str, total: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(f"{split}: sheet {done} of {total}")

    blank = FittedModel(untrained(CLASSES, FEATURES), 0.0)
    train = collect(
        SPLITS["train"].seeds(train_boards), difficulty, blank, step("train", train_boards)
    )
    x, labels = labelled(train)
    missing = sorted(set(CLASSES) - set(labels))
    if missing:
        raise ValueError(f"train sheets show no cell that is {', '.join(missing)}")
    if progress is not None:
        progress("fitting")
    model = fit(x, labels, CLASSES, FEATURES, PENALTY)
    validation = collect(
        SPLITS["validation"].seeds(validation_boards),
        difficulty,
        FittedModel(model, 0.0),
        step("validation", validation_boards),
    )
    vx, vlabels = labelled(validation)
    model = calibrated(model, vx, vlabels)
    curve = threshold_curve(FittedModel(model, 0.0), validation)
    provenance = {
        "command": (
            f"atelier train isle-cells --boards {train_boards} "
            f"--validation-boards {validation_boards} --difficulty {difficulty.value}"
        ),
        "train": {
            "seeds": [SPLITS["train"].first, SPLITS["train"].first + train_boards - 1],
            "sheets": len(train),
            "labels": _counts(labels),
        },
        "validation": {
            "seeds": [
                SPLITS["validation"].first,
                SPLITS["validation"].first + validation_boards - 1,
            ],
            "sheets": len(validation),
            "labels": _counts(vlabels),
        },
        "covered_label": COVERED_LABEL,
        "wider": {"boards": "odd seeds", "exposure_ev": WIDER_EV, "noise_sigma": WIDER_NOISE},
        "own_pencils": {"boards": "seeds whose half is odd", "pencils": OWN_PENCILS},
        "penalty": PENALTY,
    }
    fitted = FittedModel(model, refusal_threshold(curve), provenance)
    return Training(
        fitted,
        _counts(labels),
        _counts(vlabels),
        curve,
        log_loss(model, vx, vlabels),
        (len(train), len(validation)),
    )
