"""``atelier score`` on Isle of Colors files, through the real console script."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli import assert_user_error, atelier_main

EXAMPLE = Path(__file__).parents[2] / "companion/content/examples/isle.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def write(tmp_path: Path, data: object, name: str = "sheet.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_scores_the_example() -> None:
    run = atelier_main("score", EXAMPLE)
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["game"] == "isle" and data["total"] == 40
    assert {k: v["points"] for k, v in data["colors"].items()} == {
        "green": 6, "blue": 10, "brown": 12, "red": 12
    }  # fmt: skip
    assert data["colors"]["red"]["condition"] == "town"
    assert run.stderr == ""


def test_explain_prints_the_breakdown_on_stderr() -> None:
    run = atelier_main("score", "--explain", EXAMPLE)
    assert run.status == 0
    assert json.loads(run.stdout)["total"] == 40
    assert "Isle of Colors, island 'default': 40 points" in run.stderr
    assert "4 brown cells in a straight line (east-west): (2, 2), (2, 3)" in run.stderr


def test_reads_standard_input() -> None:
    run = atelier_main("score", "-", stdin=EXAMPLE.read_text())
    assert run.status == 0 and json.loads(run.stdout)["total"] == 40


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        ({"cells": [[0, 0, "green"]]}, ["cells[0]", "(0, 0) is not on island 'default'"]),
        ({"cells": [[3, 3, "red"], [3, 3, "red"]]}, ["cells[1]", "listed twice"]),
        ({"cells": [[3, 3, "purple"]]}, ["cells[0][2]", "unknown colour 'purple'"]),
        ({"island": "elsewhere"}, ["island", "unknown island 'elsewhere'"]),
        ({"conditions": {"green": "town", "blue": "river", "brown": "caves", "red": "town"}},
         ["conditions.green", "'town' is a red condition"]),
        ({"extra": 1}, ["extra", "unknown key"]),
    ],
)  # fmt: skip
def test_bad_sheets_exit_2_naming_file_and_field(
    tmp_path: Path, change: dict[str, Any], fragments: list[str]
) -> None:
    path = write(tmp_path, {**example(), **change})
    assert_user_error(atelier_main("score", path), str(path), *fragments)


def test_not_json_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, '{"game": "isle", ')
    assert_user_error(atelier_main("score", path), str(path), "not valid JSON")


def test_a_user_island_file(tmp_path: Path) -> None:
    islands = {"format": 1, "game": "isle", "islands": [{"id": "strip", "rows": [[0, 5]]}]}
    deck = write(tmp_path, islands, "islands.json")
    sheet = {
        "game": "isle",
        "island": "strip",
        "conditions": {"green": "grass", "blue": "shore", "brown": "caves", "red": "hamlet"},
        "cells": [[0, c, "green"] for c in range(5)],
    }
    path = write(tmp_path, sheet)
    run = atelier_main("score", "--deck", deck, path)
    assert run.status == 0, run.stderr
    assert json.loads(run.stdout)["total"] == 6
    assert_user_error(atelier_main("score", path), str(path), "unknown island 'strip'")


def test_a_bad_user_island_file_names_it(tmp_path: Path) -> None:
    deck = write(tmp_path, {"format": 1, "game": "isle", "islands": [{"id": "x"}]}, "bad.json")
    assert_user_error(atelier_main("score", "--deck", deck, EXAMPLE), str(deck), "islands[0].rows")
