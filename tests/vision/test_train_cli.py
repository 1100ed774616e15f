"""``atelier train chips`` and ``atelier train isle-cells``: a model refitted from renders,
written whole, its bad options refused in one line."""

import json

import numpy as np
import pytest

from tests.cli import assert_user_error, atelier_main
from vision.fitted.model_file import load
from vision.scan.readers import isle_cells, isle_features
from vision.scan.readers.chip_features import FEATURES
from vision.scan.readers.pigments_chips import CLASSES


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--boards", "5"], ["--boards: 5 is out of range"]),
        (["--validation-boards", "0"], ["--validation-boards: 0 is out of range"]),
        (["--difficulty", "nightmare"], ["--difficulty", "nightmare"]),
    ],
)
@pytest.mark.parametrize("model", ["chips", "isle-cells"])
def test_bad_options_are_one_line(model, args, fragments):
    assert_user_error(atelier_main("train", model, *args), *fragments)


@pytest.mark.parametrize("model", ["chips", "isle-cells"])
def test_a_folder_is_no_model_file(model, tmp_path):
    assert_user_error(atelier_main("train", model, "--out", tmp_path), "--out", "is a folder")


@pytest.mark.slow
def test_a_model_fitted_on_a_few_boards_is_written_and_reads_back(tmp_path):
    out = tmp_path / "chips.json"
    run = atelier_main(
        "train", "chips", "--boards", "24", "--validation-boards", "20", "--out", out
    )
    assert run.status == 0, run.stderr
    report = json.loads(run.stdout)
    fitted = load(out, CLASSES, FEATURES)
    assert report["file"] == str(out)
    assert report["threshold"] == fitted.refuse_below
    assert report["temperature"] == fitted.model.temperature
    assert fitted.provenance["train"]["seeds"] == [20000, 20023]
    assert fitted.provenance["validation"]["seeds"] == [60000, 60019]
    assert fitted.provenance["wider"]["boards"] == "odd seeds"
    assert sum(report["slots"]["train"].values()) == fitted.provenance["train"]["slots"]
    # Its probabilities are probabilities, and its threshold one the curve measured.
    chances = fitted.model.probabilities(np.zeros((3, len(FEATURES))))
    assert np.allclose(chances.sum(axis=1), 1.0)
    assert fitted.refuse_below in [point["threshold"] for point in report["curve"]]
    assert [p.name for p in tmp_path.iterdir()] == ["chips.json"]


@pytest.mark.slow
def test_an_isle_cell_model_fitted_on_a_few_sheets_is_written_and_reads_back(tmp_path):
    out = tmp_path / "cells.json"
    run = atelier_main(
        "train", "isle-cells", "--boards", "20", "--validation-boards", "20", "--out", out
    )
    assert run.status == 0, run.stderr
    report = json.loads(run.stdout)
    fitted = load(out, isle_cells.CLASSES, isle_features.FEATURES)
    assert report["file"] == str(out)
    assert report["threshold"] == fitted.refuse_below
    assert report["temperature"] == fitted.model.temperature
    assert report["sheets"] == {"train": 20, "validation": 20}
    assert fitted.provenance["train"]["seeds"] == [20000, 20019]
    assert fitted.provenance["validation"]["seeds"] == [60000, 60019]
    assert report["cells"]["train"] == fitted.provenance["train"]["labels"]
    assert fitted.refuse_below in [point["threshold"] for point in report["curve"]]
    chosen = next(p for p in report["curve"] if p["threshold"] == fitted.refuse_below)
    assert chosen["boards_wrong"] == 0
    assert [p.name for p in tmp_path.iterdir()] == ["cells.json"]
