"""Round trips: a position rendered as a photo, scanned back, must give the same position; and
whatever the photo, a board is never read confidently wrong."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.samples import random_position
from tests.cli import atelier
from vision.benchmark import GAMES, TRUTH, run_trial
from vision.images import read_image
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.scanner import Scanner

REAL = Path(__file__).parents[1] / "data/realdata"


@pytest.fixture(scope="module")
def tools() -> tuple[Renderer, Scanner]:
    return Renderer(), Scanner()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("difficulty", [Difficulty.EASY, Difficulty.MEDIUM])
@pytest.mark.parametrize("seed", [11, 12])
def test_easy_and_medium_renders_scan_back_exactly(
    tools: tuple[Renderer, Scanner], game: str, difficulty: Difficulty, seed: int
) -> None:
    trial = run_trial(*tools, game, difficulty, seed)
    assert trial.outcome == "exact", trial.problems
    assert trial.wrong_components == 0


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [21, 22, 23])
def test_hard_renders_are_never_read_confidently_wrong(
    tools: tuple[Renderer, Scanner], game: str, seed: int
) -> None:
    trial = run_trial(*tools, game, Difficulty.HARD, seed)
    assert trial.outcome in ("exact", "abstained", "missed")


@pytest.mark.parametrize("game", GAMES)
def test_truth_lists_every_component(game: str) -> None:
    position = random_position(game, random.Random(5))
    truth = TRUTH[game](position)
    expected = {"colorfield": 6, "isle": 79, "pigments": 4 * 1 + (2 + 2 + 5 + 3 + 1)}
    if game in expected:
        assert len(truth) == expected[game]
    else:
        assert len(truth) == 3 * len(position["paintings"])


def test_a_wrong_component_counts_as_confidently_wrong(tools: tuple[Renderer, Scanner]) -> None:
    # Scan one render but compare it with a different position: the benchmark must say so.
    renderer, scanner = tools
    shown = random_position("colorfield", random.Random(1))
    image = renderer.render(plan_table(shown, "x"), RenderOptions(1, Difficulty.EASY)).image
    (board,) = scanner.scan(image).boards
    other = TRUTH["colorfield"](random_position("colorfield", random.Random(2)))
    read = {c.component: c.value for c in board.components if not c.problem}
    assert any(other[name] != read[name] for name in other)


def test_the_real_marker_photos_hold_no_atelier_board() -> None:
    for photo in sorted(REAL.glob("*.jpg")):
        observation = Scanner().scan(read_image(photo))
        assert observation.boards == ()


def test_a_50_megapixel_photo_is_read(tmp_path: Path, tools: tuple[Renderer, Scanner]) -> None:
    renderer, scanner = tools
    position = random_position("colorfield", random.Random(3))
    image = renderer.render(plan_table(position, "x"), RenderOptions(3, Difficulty.EASY)).image
    huge = cv2.resize(image, (8660, 5774), interpolation=cv2.INTER_CUBIC)
    (board,) = scanner.scan(np.asarray(huge, np.uint8)).boards
    assert board.problems == ()
    assert [s and s["tile"] for s in board.position["spaces"]] == [
        s and s["tile"] for s in position["spaces"]
    ]


def test_bench_vision_reports_the_table() -> None:
    run = atelier("bench", "vision", "--boards", "1", "--difficulty", "easy")
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert [r["game"] for r in data["rows"]] == list(GAMES)
    for row in data["rows"]:
        assert row["boards"] == 1 and row["confident_wrong"] == 0
        assert row["scan_ms_median"] > 0 and row["scan_to_detect"] > 0
    assert "exact" in run.stderr
