"""Rendered photos against their truth: markers are detected where the truth says, the same seed
gives the same bytes, and what is drawn (chips, pencil, hands) is what the truth describes."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.samples import random_position
from vision.fiducials import ATELIER_DICTIONARY, MarkerDetector, predefined_dictionary
from vision.layout.inks import INKS
from vision.render.envelope import Difficulty, envelope
from vision.render.occluders import SKINS
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, Rendering, RenderOptions
from vision.render.truth import covered

GAMES = ("colorfield", "paintings", "isle", "pigments")
EXAMPLES = Path(__file__).resolve().parents[2] / "companion" / "content" / "examples"


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer()


@pytest.fixture(scope="module")
def detector() -> MarkerDetector:
    return MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY))


def example(name: str) -> Any:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def render(renderer: Renderer, document: Any, seed: int, difficulty: Difficulty) -> Rendering:
    return renderer.render(plan_table(document, "t"), RenderOptions(seed, difficulty))


def visible_markers(rendering: Rendering) -> dict[int, np.ndarray[Any, Any]]:
    return {
        marker["id"]: np.array(marker["corners"])
        for component in rendering.truth["components"]
        for marker in component["markers"]
        if marker["in_frame"] and not marker["occluded"]
    }


@pytest.mark.parametrize("game", GAMES)
def test_easy_truth_corners_lie_within_2_px_of_the_detected_corners(
    game: str, renderer: Renderer, detector: MarkerDetector
) -> None:
    rendering = render(renderer, random_position(game, random.Random(1)), 1, Difficulty.EASY)
    truth = visible_markers(rendering)
    found = {m.id: np.array(m.corners) for m in detector.detect(rendering.image)}
    assert set(found) == set(truth)
    for marker_id, corners in truth.items():
        assert np.abs(found[marker_id] - corners).max() <= 2.0, marker_id


@pytest.mark.parametrize("game", GAMES)
def test_medium_finds_every_visible_marker_of_the_truth(
    game: str, renderer: Renderer, detector: MarkerDetector
) -> None:
    rendering = render(renderer, random_position(game, random.Random(2)), 2, Difficulty.MEDIUM)
    truth = visible_markers(rendering)
    found = {m.id: np.array(m.corners) for m in detector.detect(rendering.image)}
    assert set(truth) <= set(found)
    for marker_id, corners in truth.items():
        assert np.abs(found[marker_id] - corners).max() <= 3.0, marker_id


def test_every_marker_cell_spans_4_px_or_more_at_medium(renderer: Renderer) -> None:
    rendering = render(renderer, example("pigments-palette"), 9, Difficulty.MEDIUM)
    cells = [m["cell_px"] for c in rendering.truth["components"] for m in c["markers"]]
    assert len(cells) == 4 + 2
    assert min(cells) >= 4.0


def test_the_same_seed_gives_the_same_bytes_and_another_seed_does_not() -> None:
    document = random_position("colorfield", random.Random(5))
    first = render(Renderer(), document, 5, Difficulty.HARD)
    again = render(Renderer(), document, 5, Difficulty.HARD)
    other = render(Renderer(), document, 6, Difficulty.HARD)
    assert first.jpeg == again.jpeg
    assert json.dumps(first.truth) == json.dumps(again.truth)
    assert first.jpeg != other.jpeg


def test_a_table_shows_each_position_on_its_own_boards(
    renderer: Renderer, detector: MarkerDetector
) -> None:
    documents = [
        example("isle"),
        example("pigments-palette"),
        random_position("colorfield", random.Random(3)),
    ]
    rendering = render(renderer, {"table": documents}, 3, Difficulty.EASY)
    truth = rendering.truth
    assert truth["positions"] == documents
    boards = [(c["key"], c["position"]) for c in truth["components"] if c["board"] is None]
    assert boards == [("isle/sheet/1", 0), ("pigments/palette/1", 1), (boards[2][0], 2)]
    assert boards[2][0].startswith("colorfield/canvas/")
    assert len(truth["cells"]) == 19
    assert len(truth["chips"]) == 8
    found = {m.id: np.array(m.corners) for m in detector.detect(rendering.image)}
    for marker_id, corners in visible_markers(rendering).items():
        assert np.abs(found[marker_id] - corners).max() <= 2.0, marker_id


def test_chips_show_their_own_ink_at_the_truth_centres(renderer: Renderer) -> None:
    rendering = render(renderer, example("pigments-palette"), 4, Difficulty.EASY)
    inks = {
        name: np.array(INKS[name][::-1], float)
        for name in ("Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder")
    }
    for chip in rendering.truth["chips"]:
        x, y = (round(v) for v in chip["centre"])
        seen = np.median(rendering.image[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3), axis=0)
        nearest = min(inks, key=lambda name: float(np.linalg.norm(inks[name] - seen)))
        assert nearest == chip["chip"], (chip, seen)
        assert chip["radius_px"] > 10


def test_isle_cells_are_hatched_in_their_colour_not_filled_flat(renderer: Renderer) -> None:
    rendering = render(renderer, example("isle"), 7, Difficulty.EASY)
    image = rendering.image.astype(float)
    (sheet,) = [c for c in rendering.truth["components"] if c["kind"] == "sheet"]
    corners = np.array(sheet["corners"])
    cell_px = np.linalg.norm(corners[1] - corners[0]) / 267.0 * 11.0  # about one cell radius
    spreads = []
    for cell in rendering.truth["cells"]:
        x, y = cell["centre"]
        r = int(cell_px * 0.5)
        patch = image[round(y) - r : round(y) + r, round(x) - r : round(x) + r].reshape(-1, 3)
        ink = np.array(INKS[cell["colour"]][::-1], float)  # BGR
        channel = int(np.argmin(ink))  # the channel the ink absorbs most
        assert np.median(patch[:, channel]) < 200, cell
        brightness = patch.sum(axis=1)
        spreads.append(float(np.percentile(brightness, 90) - np.percentile(brightness, 10)))
    # Strokes and gaps: every hatched cell varies far more than sensor noise would make it.
    assert min(spreads) > 40


def test_hard_puts_a_hand_over_a_board_and_flags_what_it_hides(renderer: Renderer) -> None:
    rendering = render(renderer, example("isle"), 11, Difficulty.HARD)
    parameters = rendering.truth["render"]
    hands = [o for o in parameters["occluders"] if o["kind"] == "hand"]
    assert len(hands) == 1
    assert tuple(hands[0]["colour_bgr"]) in SKINS
    markers = [m for c in rendering.truth["components"] for m in c["markers"]]
    for marker in markers:
        assert marker["occluded"] == (marker["covered"] >= 0.01)
    assert any(c["covered"] > 0 for c in rendering.truth["components"])
    regions = rendering.truth["covered_regions"]
    assert regions and all(0 < r["covered"] <= 1 for r in regions)
    # The hand hovers over one corner: it hides a few cells, never most of the island.
    cells = [r for r in regions if r["region"].startswith("cell ")]
    assert 0 < len(cells) < 30
    assert {r["board"] for r in regions} <= {c["key"] for c in rendering.truth["components"]}


def test_a_hand_over_a_canvas_corner_hides_the_space_there(renderer: Renderer) -> None:
    plan = plan_table(random_position("colorfield", random.Random(3)), "x")
    rendering = renderer.render(plan, RenderOptions(3, Difficulty.EASY, hand_over=0))
    assert [o["kind"] for o in rendering.truth["render"]["occluders"]] == ["hand"]
    hidden = {r["region"] for r in rendering.truth["covered_regions"]}
    corner_spaces = {"space 1", "space 3", "space 4", "space 6"}
    assert hidden & corner_spaces
    assert "space 2" not in hidden or "space 5" not in hidden


def test_easy_and_medium_draw_nothing_in_the_way(renderer: Renderer) -> None:
    for difficulty in (Difficulty.EASY, Difficulty.MEDIUM):
        rendering = render(renderer, example("pigments-pan"), 1, difficulty)
        assert rendering.truth["render"]["occluders"] == []
        assert rendering.truth["covered_regions"] == []
        assert not any(m["occluded"] for c in rendering.truth["components"] for m in c["markers"])


def test_covered_measures_the_hidden_share_of_a_polygon() -> None:
    silhouette = np.zeros((100, 100), np.uint8)
    silhouette[:, :50] = 255
    square = np.array([[30.0, 30.0], [70.0, 30.0], [70.0, 70.0], [30.0, 70.0]])
    assert covered(square, silhouette) == pytest.approx(0.5, abs=0.03)
    assert covered(square + 40, silhouette) == 0.0
    assert covered(square - 200, silhouette) == 0.0


def test_the_truth_records_every_render_parameter_within_its_envelope(renderer: Renderer) -> None:
    plan = plan_table(example("pigments-pan"), "t")
    rendering = renderer.render(plan, RenderOptions(8, Difficulty.MEDIUM, (960, 540)))
    assert rendering.image.shape == (540, 960, 3)
    parameters = rendering.truth["render"]
    env = envelope(Difficulty.MEDIUM)
    camera = parameters["camera"]
    assert camera["size"] == [960, 540]
    assert camera["matrix"][0][0] == pytest.approx(480 / math.tan(math.radians(35)), abs=1e-3)
    assert camera["matrix"][0][2] == 479.5
    assert len(camera["distortion"]) == 5
    assert env.k1[0] <= camera["distortion"][0] <= env.k1[1]
    assert env.tilt_deg[0] <= camera["pose"]["tilt_deg"] <= env.tilt_deg[1]
    assert env.kelvin[0] <= parameters["lighting"]["kelvin"] <= env.kelvin[1]
    low, high = env.jpeg_quality
    assert low <= parameters["sensor"]["jpeg_quality"] <= high
    assert parameters["seed"] == 8 and parameters["difficulty"] == "medium"
    assert parameters["within_envelope"] is True
    assert parameters["table"]["kind"] in ("wood", "cloth")
