"""The renderer's geometry: poses, the arrangement on the table, the camera and its warp."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.samples import random_position
from vision.layout.geometry import Circle, bounds
from vision.render.arrange import CHIP_RADIUS, arrange
from vision.render.camera import Camera, CameraPose, choose_camera, marker_cell_px
from vision.render.envelope import Difficulty, envelope
from vision.render.placing import plan_table
from vision.render.scene import Pose, Scene
from vision.render.warp import table_map

EXAMPLES = Path(__file__).resolve().parents[2] / "companion" / "content" / "examples"
FOCAL = 960 / math.tan(math.radians(35))


def example(name: str) -> Any:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def scene_of(document: Any, difficulty: Difficulty, seed: int = 0) -> Scene:
    return arrange(plan_table(document, "t"), envelope(difficulty), np.random.default_rng(seed))


def overhead(yaw: float = 0.0, k1: float = 0.0) -> Camera:
    return Camera((1920, 1080), CameraPose(0.0, yaw, 0.0, 600.0, (100.0, 50.0)), k1, 0.0)


def test_a_pose_turns_clockwise_then_moves_and_composes() -> None:
    quarter = Pose(10.0, 20.0, 90.0)
    np.testing.assert_allclose(quarter.apply([(1.0, 0.0), (0.0, 1.0)]), [[10, 21], [9, 20]])
    inner = Pose(5.0, 0.0, 90.0)
    both = quarter.then(inner)
    assert both == Pose(10.0, 25.0, 180.0)
    np.testing.assert_allclose(both.apply([(1.0, 2.0)]), quarter.apply(inner.apply([(1.0, 2.0)])))


def test_a_camera_straight_overhead_sees_the_table_as_printed() -> None:
    camera = overhead()
    pixels = camera.project(np.array([[100.0, 50.0], [200.0, 50.0], [100.0, 150.0]]))
    centre = (959.5, 539.5)
    step = FOCAL * 100 / 600  # 228.504 px for 100 mm at 60 cm
    np.testing.assert_allclose(
        pixels, [centre, (centre[0] + step, centre[1]), (centre[0], centre[1] + step)], atol=1e-6
    )


def test_yaw_turns_the_view_a_quarter_turn_puts_table_right_at_image_top() -> None:
    (pixel,) = overhead(yaw=90.0).project(np.array([[200.0, 50.0]]))
    np.testing.assert_allclose(pixel, (959.5, 539.5 - FOCAL * 100 / 600), atol=1e-6)


def test_barrel_distortion_pulls_the_frame_edges_in() -> None:
    far = np.array([[300.0, 50.0]])
    plain = overhead().project(far)[0]
    barrel = overhead(k1=-0.2).project(far)[0]
    assert 959.5 < barrel[0] < plain[0]


@pytest.mark.parametrize("k", [(0.0, 0.0), (-0.3, 0.1), (0.1, -0.1)])
def test_the_warp_map_inverts_the_projection(k: tuple[float, float]) -> None:
    pose = CameraPose(45.0, 30.0, 8.0, 800.0, (0.0, 0.0))
    camera = Camera((640, 360), pose, *k)
    seen = table_map(camera)
    rows, cols = np.mgrid[0:360:37, 0:640:53]
    table = seen[rows.ravel(), cols.ravel()]
    back = camera.project(table.astype(np.float64))
    np.testing.assert_allclose(back, np.column_stack([cols.ravel(), rows.ravel()]), atol=0.03)


@settings(max_examples=12, deadline=None)
@given(
    game=st.sampled_from(["colorfield", "paintings", "isle", "pigments"]),
    seed=st.integers(0, 10_000),
    difficulty=st.sampled_from([Difficulty.EASY, Difficulty.MEDIUM]),
)
def test_easy_and_medium_cameras_frame_everything_with_4_px_marker_cells(
    game: str, seed: int, difficulty: Difficulty
) -> None:
    scene = scene_of(random_position(game, random.Random(seed)), difficulty, seed)
    camera, framed = choose_camera(
        scene, envelope(difficulty), (1920, 1080), np.random.default_rng(seed)
    )
    assert framed
    env = envelope(difficulty)
    assert env.tilt_deg[0] <= camera.pose.tilt_deg <= env.tilt_deg[1]
    assert env.distance_mm[0] <= camera.pose.distance_mm <= env.distance_mm[1]
    for placed in scene.components:
        for quad in placed.marker_corners():
            pixels = camera.project(quad)
            assert marker_cell_px(pixels) >= 4.0
            assert (
                (pixels >= 0).all() and (pixels[:, 0] < 1920).all() and (pixels[:, 1] < 1080).all()
            )


def painter(first_card: int) -> dict[str, Any]:
    """Three paintings of catalogue cards A-<first_card> onwards."""
    cards = [{"card": f"A-{first_card + i:02d}"} for i in range(9)]
    return {
        "game": "paintings",
        "scoring_cards": ["variety", "repetition", "emphasis", "composition"],
        "paintings": [cards[0:3], cards[3:6], cards[6:9]],
    }


def test_a_table_too_large_for_the_envelope_says_so() -> None:
    # Four painters with three paintings each: twelve mats, about 0.6 by 0.75 m.
    scene = scene_of({"table": [painter(1 + 9 * i) for i in range(4)]}, Difficulty.EASY)
    assert len(scene.boards) == 12
    _, framed = choose_camera(
        scene, envelope(Difficulty.EASY), (1920, 1080), np.random.default_rng(0)
    )
    assert not framed


def test_pieces_lie_in_their_places_within_the_jitter() -> None:
    env = envelope(Difficulty.HARD)
    document = random_position("colorfield", random.Random(3))
    scene = scene_of(document, Difficulty.HARD, 3)
    (board,) = scene.boards
    for piece in scene.pieces:
        place = bounds(board.layout.region(piece.place or "").shape)
        centre = board.pose.apply([place.centre])[0]
        w, h = piece.layout.size
        middle = piece.pose.apply([(w / 2, h / 2)])[0]
        assert np.linalg.norm(middle - centre) <= env.piece_jitter_mm * math.sqrt(2) + 1e-9
        turn = (piece.pose.angle_deg - board.pose.angle_deg - 90 * piece.quarter_turns) % 360
        assert min(turn, 360 - turn) <= env.piece_turn_deg + 1e-9


def test_chips_rest_inside_their_printed_rings() -> None:
    scene = scene_of(example("pigments-palette"), Difficulty.HARD, 5)
    (board,) = scene.boards
    assert len(scene.chips) == 8
    for chip in scene.chips:
        ring = board.layout.region(chip.slot).shape
        assert isinstance(ring, Circle)
        centre = board.pose.apply([(ring.cx, ring.cy)])[0]
        assert np.linalg.norm(np.asarray(chip.centre) - centre) + CHIP_RADIUS <= ring.r + 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_boards_never_overlap_even_at_hard(seed: int) -> None:
    documents = [example("isle"), example("pigments-palette"), example("isle"), painter(1)]
    scene = scene_of({"table": documents}, Difficulty.HARD, seed)
    boxes = []
    for board in scene.boards:
        corners = board.outline()
        boxes.append((*corners.min(axis=0), *corners.max(axis=0)))
    for i, (ax0, ay0, ax1, ay1) in enumerate(boxes):
        for bx0, by0, bx1, by1 in boxes[i + 1 :]:
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0
