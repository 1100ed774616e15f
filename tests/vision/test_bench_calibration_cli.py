"""``atelier bench vision`` measures whether stated confidences are probabilities: the bins and
curve in the JSON, the two plots per game with --plots, and a one-line refusal of a bad folder."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from tests.cli import assert_user_error, atelier_main


def test_calibration_is_reported_and_plotted_for_the_game_scanned(tmp_path: Path) -> None:
    plots = tmp_path / "plots"
    run = atelier_main(
        "bench", "vision", "--boards", "1", "--difficulty", "easy", "--game", "colorfield",
        "--plots", plots,
    )  # fmt: skip
    assert run.status == 0, run.stderr
    results = json.loads(run.stdout)
    report = results["calibration"]["colorfield"]
    assert report["components"] > 0
    assert sum(b["count"] for b in report["bins"]) == report["components"]
    for b in report["bins"]:
        assert 0.0 <= b["low"] <= b["confidence"] <= b["high"] <= 1.0
        assert 0.0 <= b["accuracy"] <= 1.0
    assert 0.0 <= report["ece"] <= 1.0
    curve = results["risk_coverage"]["colorfield"]
    assert 1 <= len(curve) <= 50 and curve[-1]["coverage"] == 1.0
    assert "ECE" in run.stderr.split("confidence")[-1]
    for name in ("reliability-colorfield.png", "risk-coverage-colorfield.png"):
        image = cv2.imread(str(plots / name))
        assert image is not None and image.shape == (480, 640, 3), name
    assert sorted(p.name for p in plots.iterdir()) == [
        "reliability-colorfield.png",
        "risk-coverage-colorfield.png",
    ]  # no temporary file left behind


def test_a_file_where_the_plots_folder_should_be_is_refused(tmp_path: Path) -> None:
    taken = tmp_path / "plots"
    taken.write_text("not a folder\n")
    assert_user_error(atelier_main("bench", "vision", "--boards", "1", "--plots", taken), "--plots")


def test_the_help_shows_the_calibration_keys_and_a_plots_example() -> None:
    run = atelier_main("bench", "vision", "--help")
    assert '"calibration"' in run.stdout and '"risk_coverage"' in run.stdout
    assert "--plots" in run.stdout.split("examples:")[1]
