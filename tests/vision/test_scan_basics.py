"""Scanning: a flat, sharp table read exactly; unreadable cases give problems, never a score."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observation import GameOptions, score_observation
from tests.cli import assert_user_error, atelier_main
from vision.draw import draw_layout
from vision.images import Image
from vision.layout.catalogue import layouts
from vision.layout.geometry import bounds
from vision.layout.model import Layout
from vision.scan.scanner import Scanner

PPM = 2.0  # about what a webcam sees at 70 cm
TABLE = (90, 110, 130)


def canvas_scene(turns: list[int | None]) -> tuple[Image, list[str | None], Layout]:
    """Canvas board 1 flat on a 1080p table, a tile turned ``turns[i]`` times on space i+1."""
    found = layouts("colorfield")
    board = found[0]
    tiles = [lay for lay in found if lay.kind == "tile"]
    face = draw_layout(board, PPM).copy()
    placed: list[str | None] = []
    for number, turn in enumerate(turns, 1):
        if turn is None:
            placed.append(None)
            continue
        tile = tiles[7 * number + 3]
        region = bounds(board.region(f"space {number}").shape)
        drawn = np.rot90(draw_layout(tile, PPM), k=-turn).copy()
        y, x = round(region.y * PPM), round(region.x * PPM)
        face[y : y + drawn.shape[0], x : x + drawn.shape[1]] = drawn
        placed.append(tile.key.rsplit("/", 1)[1])
    frame = np.full((1080, 1920, 3), TABLE, np.uint8)
    frame[300 : 300 + face.shape[0], 700 : 700 + face.shape[1]] = face
    return frame, placed, board


def test_a_flat_canvas_is_read_exactly_and_scored() -> None:
    turns = [0, 1, 2, 3, None, 1]
    frame, placed, board = canvas_scene(turns)
    observation = Scanner().scan(frame)
    (seen,) = observation.boards
    assert seen.game == "colorfield" and seen.player == 1 and seen.problems == ()
    spaces = seen.position["spaces"]
    assert [s and s["tile"] for s in spaces] == placed
    assert [s and s["rotation"] for s in spaces] == [0, 1, 2, 3, None, 1]
    assert seen.position["canvas"]["id"] == board.content["board"]
    scored = score_observation(seen, GameOptions())
    assert scored.score is not None and scored.problems == ()
    assert seen.confidence > 0.9


def test_a_covered_space_is_a_problem_and_the_board_gets_no_score() -> None:
    frame, _, board = canvas_scene([0, 0, 0, 0, 0, 0])
    # A hand (a skin-coloured blob) over space 5's tile, marker included.
    region = bounds(board.region("space 5").shape)
    x, y = 700 + round(region.centre[0] * PPM), 300 + round(region.centre[1] * PPM)
    cv2.circle(frame, (x, y), 40, (120, 160, 215), -1)
    (seen,) = Scanner().scan(frame).boards
    assert any(p.startswith("space 5:") for p in seen.problems)
    assert score_observation(seen, GameOptions()).score is None


@pytest.mark.parametrize("shape", [(1, 1, 3), (10, 10, 3), (480, 640, 3)])
def test_images_without_boards_give_no_boards(shape: tuple[int, int, int]) -> None:
    assert Scanner().scan(np.full(shape, 200, np.uint8)).boards == ()


def test_a_board_half_out_of_the_frame_reports_the_missing_places() -> None:
    frame, _, _ = canvas_scene([0, 0, 0, 0, 0, 0])
    cut = np.ascontiguousarray(frame[:, :800])  # the board's right part is cut off
    boards = Scanner().scan(cut).boards
    for board in boards:
        assert board.problems
        assert score_observation(board, GameOptions()).score is None


def test_cli_scan(tmp_path: Path) -> None:
    frame, placed, _ = canvas_scene([0, 1, 2, 3, 0, 1])
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), frame)
    run = atelier_main("scan", path)
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    (board,) = data["boards"]
    assert {"game", "player", "position", "score", "confidence", "problems"} <= set(board)
    assert [s["tile"] for s in board["position"]["spaces"]] == placed
    assert (
        board["score"]["total"] == board["score"]["edge_points"] + board["score"]["patch"]["points"]
    )
    assert isinstance(data["timing_ms"], float)
    assert "colorfield seat 1:" in run.stderr


def test_cli_scan_bad_inputs(tmp_path: Path) -> None:
    notes = tmp_path / "notes.png"
    notes.write_text("not an image")
    assert_user_error(atelier_main("scan", notes), "notes.png: not an image")
    assert_user_error(atelier_main("scan", tmp_path / "none.jpg"), "none.jpg: no such file")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((1, 1, 3), 0, np.uint8))
    run = atelier_main("scan", blank)
    assert run.status == 0 and json.loads(run.stdout)["boards"] == []
    assert_user_error(
        atelier_main("scan", blank, "--scoring-cards", "variety,nope,emphasis,style"),
        "--scoring-cards: unknown scoring card 'nope'",
    )
    assert_user_error(
        atelier_main("scan", blank, "--conditions", "green=river,blue=shore,brown=caves,red=town"),
        "--conditions: 'river' is a blue condition, not green",
    )
    assert_user_error(
        atelier_main("scan", blank, "--conditions", "green=lawn,blue=shore,brown=caves,red=town"),
        "--conditions: unknown condition 'lawn' for green (known: grass, forest, swamp)",
    )
    profile = tmp_path / "p.json"
    profile.write_text("{}")
    assert_user_error(
        atelier_main("scan", blank, "--calibration", profile), "p.json: format: missing"
    )


def test_a_reader_given_to_the_scanner_reads_its_kind_and_only_its_kind() -> None:
    canvas = Scanner().readers[("colorfield", "canvas")]
    scanner = Scanner(readers={("colorfield", "canvas"): canvas})
    assert scanner.readers[("colorfield", "canvas")] is canvas
    assert scanner.readers[("isle", "sheet")] is not None
    with pytest.raises(ValueError, match="no board kind"):
        Scanner(readers={("chess", "board"): canvas})
