"""The Isle cell model's measurements and decisions: what is measured of a cell, how the model's
probabilities become a read or a refusal, and how its threshold is chosen on whole sheets."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from companion.errors import SourceError
from companion.observation import ComponentRead as Read
from vision.fitted.isle_training import (
    THRESHOLDS,
    Sheet,
    collect,
    labelled,
    refusal_threshold,
    sheet_change,
    threshold_curve,
)
from vision.fitted.model_file import FittedModel, load
from vision.fitted.softmax import Softmax
from vision.render.envelope import Difficulty
from vision.render.renderer import RenderOptions
from vision.scan.readers import isle_cells
from vision.scan.readers.isle_cells import CLASSES, MODEL_FILE, decided, likeliest, sure_enough
from vision.scan.readers.isle_features import (
    FEATURES,
    PENCILS,
    PER_PENCIL,
    SheetContext,
    cell_features,
)
from vision.scan.scanner import Scanner


@dataclass(frozen=True)
class Fit:
    """A cell fit (K x C per field) as ``isle.fit_cells`` gives it."""

    ink: np.ndarray
    inked: np.ndarray
    light: np.ndarray
    misfit: np.ndarray
    evenness: np.ndarray
    mean_misfit: np.ndarray
    mean_noise: np.ndarray
    hue_misfit: np.ndarray


def fit_of(misfit: list[list[float]], hue: list[list[float]] | None = None) -> Fit:
    """A fit whose misfits are given (one row per pencil), all else alike."""
    m = np.asarray(misfit, np.float32)
    ones = np.ones_like(m)
    return Fit(
        0.5 * ones,
        0.8 * ones,
        ones,
        m,
        ones,
        m,
        0.01 * ones,
        m if hue is None else np.asarray(hue, np.float32),
    )


def context(cells: int, clear: bool = True) -> SheetContext:
    ones = np.ones(cells, np.float32)
    return SheetContext(
        0.7 * ones,
        1.12 * ones,
        ones,
        ones,
        0.3 * ones,
        0 * ones,
        0 * ones,
        np.zeros(cells, bool),
        np.full(cells, clear),
        0 * ones,
        ones,
        False,
        False,
        np.ones(4, bool),
        np.zeros(4, np.float32),
    )


def column(features: np.ndarray, pencil: str, measure: str) -> np.ndarray:
    return features[:, FEATURES.index(f"{pencil}_{measure}")]


# Five cells: three green (fitted best by green), one red, one red fitted less well.
MISFITS = [
    [1e-3, 1e-3, 2e-3, 0.05, 0.04],  # green
    [0.05, 0.06, 0.05, 0.05, 0.05],  # blue
    [0.04, 0.03, 0.04, 0.01, 0.02],  # brown
    [0.05, 0.05, 0.05, 1e-3, 4e-3],  # red
]


def test_one_row_of_every_feature_per_cell() -> None:
    fit = fit_of(MISFITS)
    features = cell_features(fit, fit, context(5))
    assert features.shape == (5, len(FEATURES))
    assert FEATURES[: len(PER_PENCIL)] == tuple(f"{PENCILS[0]}_{m}" for m in PER_PENCIL)
    assert np.isfinite(features).all()


def test_a_pencils_margin_is_its_fit_against_the_best_other_pencils() -> None:
    features = cell_features(fit_of(MISFITS), fit_of(MISFITS), context(5))
    green = column(features, "green", "margin")
    # Cell 0: green 1e-3 against brown 0.04; cell 3: green 0.05 against red 1e-3.
    assert green[0] == pytest.approx(np.log10(1.2e-3) - np.log10(0.0402), abs=1e-6)
    assert green[3] > 0 > green[0]
    red = column(features, "red", "margin")
    assert red[3] < 0 < red[0]


def test_a_pencils_fit_is_measured_against_the_sheets_cells_it_fits_best() -> None:
    features = cell_features(fit_of(MISFITS), fit_of(MISFITS), context(5))
    typical = column(features, "green", "typical")
    # Three cells are fitted best by green; their median misfit is 1e-3.
    assert typical[2] == pytest.approx(np.log10(2.2e-3) - np.log10(1.2e-3), abs=1e-6)
    assert typical[0] == pytest.approx(0.0, abs=1e-9)
    # Red fits only two cells best: too few to know its typical fit.
    assert (column(features, "red", "typical") == 0).all()


def test_the_lower_white_fit_is_measured_beside_the_first() -> None:
    lower = fit_of([[0.05] * 5, [0.06] * 5, [1e-3] * 5, [0.05] * 5])
    features = cell_features(fit_of(MISFITS), lower, context(5))
    assert column(features, "brown", "lower")[0] == pytest.approx(np.log10(1.2e-3), abs=1e-6)
    assert (column(features, "brown", "lower_margin") < 0).all()
    assert column(features, "brown", "misfit")[0] == pytest.approx(np.log10(0.0402), abs=1e-6)


def rows(*chances: dict[str, float]) -> np.ndarray:
    return np.array([[c.get(name, 0.0) for name in CLASSES] for c in chances])


def test_each_cell_is_read_as_its_likeliest_class_with_that_chance() -> None:
    reads = likeliest(
        ["cell (0,1)", "cell (0,2)", "cell (0,3)"],
        rows({"red": 0.9, "brown": 0.1}, {"bare": 0.97, "green": 0.03}, {"covered": 0.8}),
    )
    assert (reads[0].value, reads[0].problem) == ("red", None)
    assert reads[0].confidence == pytest.approx(0.9)
    assert (reads[1].value, reads[1].problem) == (None, None)
    assert reads[1].confidence == pytest.approx(0.97)
    assert reads[2].value is None and reads[2].confidence == 0.0
    assert reads[2].problem == "cell (0,3): covered (neither bare paper nor a pencil)"


def test_below_the_threshold_the_two_likeliest_are_named() -> None:
    row = rows({"red": 0.6, "brown": 0.3, "bare": 0.1})[0]
    read = sure_enough(Read("cell (2,4)", "red", 0.6), row, 0.7)
    assert read == Read(
        "cell (2,4)", None, 0.0, "cell (2,4): unsure (red 0.60, or brown)", ("red", "brown")
    )
    bare = rows({"bare": 0.55, "covered": 0.45})[0]
    read = sure_enough(Read("cell (2,4)", None, 0.55), bare, 0.7)
    assert read.problem == "cell (2,4): unsure (bare paper 0.55, or covered)"
    assert read.candidates == (None,)
    # Just short of the threshold, never shown as reaching it.
    close = rows({"red": 0.6999, "brown": 0.3001})[0]
    read = sure_enough(Read("cell (2,4)", "red", 0.6999), close, 0.7)
    assert read.problem == "cell (2,4): unsure (red 0.69, or brown)"


def test_a_read_sure_enough_or_already_refused_is_left_alone() -> None:
    row = rows({"red": 0.75, "brown": 0.25})[0]
    sure = Read("cell (2,4)", "red", 0.75)
    assert sure_enough(sure, row, 0.7) is sure
    refused = Read("cell (2,4)", None, 0.0, "cell (2,4): covered")
    assert sure_enough(refused, row, 0.7) is refused


def constant_model(chances: dict[str, float], refuse_below: float = 0.7) -> FittedModel:
    d = len(FEATURES)
    bias = np.log(np.array([chances.get(name, 1e-9) for name in CLASSES]))
    softmax = Softmax(CLASSES, FEATURES, np.zeros(d), np.ones(d), np.zeros((len(CLASSES), d)), bias)
    return FittedModel(softmax, refuse_below, {})


def test_the_model_decides_every_cell_from_its_features() -> None:
    reads, chances = decided(
        ["cell (0,1)", "cell (0,2)"], np.zeros((2, len(FEATURES))), constant_model({"blue": 0.9})
    )
    assert [r.value for r in reads] == ["blue", "blue"]
    assert chances.shape == (2, len(CLASSES))
    assert np.allclose(chances.sum(axis=1), 1.0)


def sheet(truths: list[str], reads: list[Read], covered: list[float] | None = None) -> Sheet:
    n = len(truths)
    return Sheet(
        0,
        np.zeros((n, len(FEATURES))),
        tuple(truths),
        np.asarray(covered or [0.0] * n),
        tuple(reads),
        False,
    )


def test_the_threshold_is_the_least_at_which_no_validation_sheet_is_read_wrong() -> None:
    right = sheet(["red", "bare"], [Read("a", "red", 0.9), Read("b", None, 0.9)])
    # The model names brown with chance 0.62 where red lies: read wrong below 0.62.
    fitted = constant_model({"brown": 0.62, "red": 0.38})
    wrong = sheet(["red", "bare"], [Read("a", "brown", 0.62), Read("b", None, 0.62)])
    curve = threshold_curve(fitted, [right, wrong])
    assert [p.threshold for p in curve] == list(THRESHOLDS)
    below = [p for p in curve if p.threshold <= 0.62]
    above = [p for p in curve if p.threshold > 0.62]
    assert all(p.boards_wrong == 1 and p.boards_read == 2 for p in below)
    assert all(p.boards_wrong == 0 and p.boards_read == 0 for p in above)
    assert refusal_threshold(curve) == above[0].threshold


def test_a_sheet_with_a_hidden_cell_refused_is_exact_but_not_read() -> None:
    fitted = constant_model({"red": 0.99})
    hidden = sheet(
        ["red", "bare"],
        [Read("a", "red", 0.99), Read("b", None, 0.0, "b: covered")],
        covered=[0.0, 0.6],
    )
    point = threshold_curve(fitted, [hidden])[0]
    assert (point.boards_read, point.boards_wrong, point.boards_exact) == (0, 0, 1)
    assert point.cells_read == 1.0


def test_cells_partly_hidden_are_left_out_of_fitting() -> None:
    s = sheet(
        ["red", "bare", "blue"],
        [Read("a", "red", 1.0)] * 3,
        covered=[0.0, 0.3, 0.5],
    )
    x, labels = labelled([s])
    assert labels == ["red", "covered"]
    assert x.shape == (2, len(FEATURES))


def test_the_shipped_model_loads_and_says_how_it_was_made() -> None:
    shipped = load(MODEL_FILE, CLASSES, FEATURES)
    assert shipped.provenance["command"].startswith("atelier train isle-cells")
    assert shipped.refuse_below in THRESHOLDS
    assert shipped.provenance["train"]["seeds"][0] == 20000
    assert shipped.provenance["validation"]["seeds"][0] == 60000


def test_cells_are_gathered_without_the_shipped_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Refitting must not depend on the file it replaces: broken, the scanner's default reader
    # cannot be built, but gathering cells never builds it.
    broken = tmp_path / "isle_cells.json"
    broken.write_text("{", encoding="utf-8")
    monkeypatch.setattr(isle_cells, "MODEL_FILE", broken)
    with pytest.raises(SourceError):
        Scanner()
    sheets = collect([20000], Difficulty.HARD, constant_model({"bare": 1.0}, 0.0))
    assert len(sheets) == 1
    assert sheets[0].features.shape == (len(sheets[0].truths), len(FEATURES))
    # Every cell is read with the model's likeliest class, whatever the threshold.
    assert all(r.value is None for r in sheets[0].reads)


def test_sheets_are_fitted_across_exposures_noise_and_players_own_pencils() -> None:
    changed = {seed: sheet_change(seed)(RenderOptions(seed)) for seed in range(20000, 20004)}
    assert [changed[s].pencils for s in range(20000, 20004)] == [
        "printed",
        "printed",
        "varied",
        "varied",
    ]
    assert changed[20000] == RenderOptions(20000)
    assert changed[20001].exposure_ev is not None and changed[20001].noise_sigma is not None
    assert changed[20002].exposure_ev is None
    assert changed[20003].exposure_ev is not None
