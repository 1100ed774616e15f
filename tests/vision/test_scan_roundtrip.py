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
from tests.cli import atelier_main
from vision.benchmark import GAMES, TRUTH, hidden_components, lighting_trial, run_trial
from vision.images import read_image
from vision.layout.catalogue import layouts
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
def test_the_components_a_hand_hides_are_named_as_the_scanner_names_them(
    tools: tuple[Renderer, Scanner], game: str
) -> None:
    renderer, _ = tools
    position = random_position(game, random.Random(7))
    rendering = renderer.render(plan_table(position, "x"), RenderOptions(7, Difficulty.HARD))
    hidden = hidden_components(rendering.truth, game)
    assert hidden
    # Beyond what the truth lists: Pigment Lab's pans and Spill Tray slots, read as places.
    palettes = [layout for layout in layouts(game) if layout.kind == "palette"]
    places = {region.name for layout in palettes for region in layout.regions}
    assert hidden <= set(TRUTH[game](position)) | places


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
    run = atelier_main("bench", "vision", "--boards", "1", "--difficulty", "easy")
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert [r["game"] for r in data["rows"]] == list(GAMES)
    for row in data["rows"]:
        assert row["boards"] == 1 and row["confident_wrong"] == 0
        assert row["scan_ms_median"] > 0 and row["scan_to_detect"] > 0
    assert "exact" in run.stderr


def test_bench_vision_measures_only_the_games_asked_for() -> None:
    run = atelier_main(
        "bench", "vision", "--boards", "1", "--difficulty", "easy", "--game", "pigments"
    )
    assert run.status == 0, run.stderr
    assert [r["game"] for r in json.loads(run.stdout)["rows"]] == ["pigments"]
    bad = atelier_main("bench", "vision", "--game", "chess")
    assert bad.status == 2
    assert bad.stderr.strip().splitlines() == [
        "atelier: --game: unknown game 'chess' (one of colorfield, paintings, isle, pigments)"
    ]
    assert bad.stdout == ""


@pytest.mark.slow
def test_bench_vision_lighting_measures_only_the_games_asked_for(
    tools: tuple[Renderer, Scanner],
) -> None:
    run = atelier_main(
        "bench", "vision", "--lighting", "--boards", "1", "--seed", "50", "--game", "pigments"
    )
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["games"] == ["pigments"]
    # 5 colour temperatures x 3 exposures x 2 (card or not), each the chips of one palette.
    chips = lighting_trial(*tools, "pigments", 50, 4500.0, 0.0, False).total
    assert len(data["rows"]) == 30
    assert {row["components"] for row in data["rows"]} == {chips}
    bad = atelier_main("bench", "vision", "--lighting", "--game", "colorfield")
    assert bad.status == 2
    assert bad.stderr.strip().splitlines() == [
        "atelier: --game: no lighting bench for 'colorfield' (one of isle, pigments)"
    ]
    assert bad.stdout == ""


@pytest.mark.parametrize("game", ["isle", "pigments"])
def test_a_blown_out_photo_is_refused_not_misread(
    tools: tuple[Renderer, Scanner], game: str
) -> None:
    trial = lighting_trial(*tools, game, seed=50, kelvin=4500.0, ev=1.5, calibrated=False)
    assert not trial.confident_wrong_board
    assert trial.wrong == 0  # every component of an overexposed board is marked unread


@pytest.mark.parametrize("game", ["isle", "pigments"])
def test_a_warm_dim_light_is_read_right_with_the_reference_card(
    tools: tuple[Renderer, Scanner], game: str
) -> None:
    trial = lighting_trial(*tools, game, seed=51, kelvin=2700.0, ev=-1.5, calibrated=True)
    assert (trial.right, trial.wrong) == (trial.total, 0)


def test_a_profile_from_another_camera_is_refused(tmp_path: Path) -> None:
    profile = tmp_path / "other.json"
    camera = {
        "image_size": [640, 480],
        "camera_matrix": [[500.0, 0.0, 320.0], [0.0, 500.0, 240.0], [0.0, 0.0, 1.0]],
        "dist_coeffs": [0.0, 0.0, 0.0, 0.0, 0.0],
        "rms": 0.2,
        "views_used": 10,
        "pattern": "chessboard 9x6 inner corners, 25 mm squares",
    }
    profile.write_text(
        json.dumps({"format": 1, "kind": "atelier-calibration", "name": "x", "camera": camera})
    )
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((1080, 1920, 3), 128, np.uint8))
    run = atelier_main("scan", photo, "--calibration", profile)
    assert run.status == 2 and run.stdout == ""
    assert "the profile is for 640x480 photos, this one is 1920x1080" in run.stderr
