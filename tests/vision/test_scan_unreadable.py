"""Boards in view whose markers are outlined but not decoded are listed as unreadable, with why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.cli import atelier_main
from tests.vision.test_scan_basics import canvas_scene
from vision.benchmark import render_board
from vision.fiducials import Marker, MarkerDetector
from vision.images import Image, to_gray
from vision.perturb import focus_blur, motion_blur
from vision.render.envelope import Difficulty
from vision.render.renderer import Renderer
from vision.scan.scanner import Scanner

BLUR_PX = 12
HEAVY_BLUR_PX = 16


@pytest.fixture(scope="module")
def scanner() -> Scanner:
    return Scanner()


def blurred_canvas(seed: int, blur_px: int = BLUR_PX) -> Image:
    frame, _, _ = canvas_scene([0, 1, 2, 3, None, 1])
    return motion_blur(frame, seed, (blur_px, blur_px))


class CountingDetector:
    """A whole-frame detector that counts its searches."""

    def __init__(self, detector: MarkerDetector) -> None:
        self.detector = detector
        self.calls = 0

    def detect_with_rejected(self, image: Image) -> tuple[list[Marker], list[Any]]:
        self.calls += 1
        return self.detector.detect_with_rejected(image)


def test_a_board_blurred_past_decoding_is_listed_as_unreadable_with_why(scanner: Scanner) -> None:
    observation = scanner.scan(blurred_canvas(1))
    assert observation.boards == ()
    (seen,) = observation.unreadable
    assert 2 <= seen.candidates <= 4
    # The canvas is drawn at 2 px/mm: a 28 mm marker of 8 cells is 7 px per cell, and the
    # streak lengthens its outline.
    assert 6.0 <= seen.px_per_cell <= 10.0
    # Within the canvas, laid at (700, 300) px and 534 x 396 px.
    x, y, w, h = seen.where
    assert x >= 700 and x + w <= 700 + 534
    assert y >= 300 and y + h <= 300 + 396
    assert seen.problem.startswith(f"markers seen but not decodable: {seen.candidates} candidates")
    assert "too blurred" in seen.problem and "needs about 4" in seen.problem


def test_a_clean_photo_lists_nothing_unreadable(scanner: Scanner) -> None:
    frame, _, _ = canvas_scene([0, 1, 2, 3, None, 1])
    observation = scanner.scan(frame)
    assert len(observation.boards) == 1 and observation.unreadable == ()


def test_a_board_read_does_not_list_its_rejected_candidates_again(scanner: Scanner) -> None:
    image = blurred_canvas(3)
    _, outlines = scanner.search.detect_with_rejected(to_gray(image))
    assert outlines  # some of its markers are outlined but not decoded
    observation = scanner.scan(image)
    assert len(observation.boards) == 1 and observation.unreadable == ()


def test_a_lone_candidate_is_listed_only_when_nothing_was_decoded(scanner: Scanner) -> None:
    observation = scanner.scan(blurred_canvas(2))
    assert observation.markers == ()
    (seen,) = observation.unreadable
    assert seen.candidates == 1 and "1 candidate at" in seen.problem


def test_a_board_the_marker_search_does_not_outline_is_listed_from_the_whole_frame(
    scanner: Scanner,
) -> None:
    image = blurred_canvas(7, HEAVY_BLUR_PX)
    markers, outlines = scanner.search.detect_with_rejected(to_gray(image))
    assert markers == [] and outlines == []  # the marker search alone sees nothing
    observation = scanner.scan(image)
    (seen,) = observation.unreadable
    assert seen.candidates >= 1
    x, y, w, h = seen.where
    assert x >= 700 and x + w <= 700 + 534
    assert y >= 300 and y + h <= 300 + 396
    assert seen.problem.startswith("markers seen but not decodable: 1 candidate at")
    assert "too blurred" in seen.problem


@pytest.mark.parametrize("image", ["clean", "blurred"])
def test_a_frame_with_markers_decoded_is_never_searched_whole(
    image: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scanner = Scanner()
    counting = CountingDetector(scanner.outline_pass)
    monkeypatch.setattr(scanner, "outline_pass", counting)
    frame = canvas_scene([0, 1, 2, 3, None, 1])[0] if image == "clean" else blurred_canvas(3)
    assert scanner.scan(frame).markers
    assert counting.calls == 0
    scanner.scan(np.full((1080, 1920, 3), 120, np.uint8))
    assert counting.calls == 1  # an empty table is searched whole once


def test_atelier_scan_prints_the_unreadable_boards(tmp_path: Path) -> None:
    photo = tmp_path / "blurred.png"
    cv2.imwrite(str(photo), blurred_canvas(1))
    result = atelier_main("scan", str(photo))
    assert result.status == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["boards"] == []
    (seen,) = out["unreadable"]
    assert set(seen) == {"where", "candidates", "px_per_cell", "problem"}
    assert seen["problem"].startswith("markers seen but not decodable")
    assert "markers seen but not decodable" in result.stderr


def test_atelier_scan_lists_nothing_unreadable_on_an_empty_table(tmp_path: Path) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 120, np.uint8))
    result = atelier_main("scan", str(photo))
    assert result.status == 0, result.stderr
    assert json.loads(result.stdout)["unreadable"] == []


@pytest.mark.slow
def test_a_board_its_reader_places_by_its_print_does_not_list_its_own_markers(
    scanner: Scanner,
) -> None:
    # Train seed 20002 out of focus: one marker of the Pigment Lab board decodes, which places
    # the board poorly; its reader places it by its print and reads it. The markers it could not
    # decode lie on it as read, so they are no unreadable board.
    rendered = render_board(Renderer(), "pigments", Difficulty.HARD, 20002)
    seen = scanner.scan(focus_blur(rendered.rendering.image, 20002, sigma=2.5), "pigments")
    assert [o.game for o in seen.boards] == ["pigments"]
    assert seen.unreadable == ()
