"""Boards smeared past any outline are still listed as unreadable, from their markers' blots."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.benchmark import render_board
from vision.images import Image
from vision.perturb import motion_blur
from vision.render.envelope import Difficulty
from vision.render.renderer import Renderer
from vision.render.table import TableTop, texture
from vision.scan.blots import blots
from vision.scan.scanner import Scanner
from vision.scan.unreadable import unreadable

SIDE_PX = 48  # a marker of 6 px cells


@pytest.fixture(scope="module")
def scanner() -> Scanner:
    return Scanner()


def sheet_on_wood(squares: int) -> Image:
    """A white sheet with dark marker-sized squares at its corners, on a wood table, smeared
    24 px."""
    tile = texture(TableTop("wood", (70, 110, 160), 30.0), np.random.default_rng(1))
    frame = np.asarray(cv2.resize(np.tile(tile, (3, 4, 1)), (1920, 1080)), np.uint8)
    frame[400:700, 800:1100] = 235
    corners = [(810, 410), (1042, 410), (810, 642), (1042, 642)]
    for x, y in corners[:squares]:
        frame[y : y + SIDE_PX, x : x + SIDE_PX] = 25
    return motion_blur(frame, 3, (24, 24))


def test_the_blots_of_smeared_squares_on_a_sheet_measure_their_side() -> None:
    found = blots(sheet_on_wood(4))
    assert len(found) == 4
    for blot in found:
        assert 0.8 * SIDE_PX <= blot.side_px <= 1.2 * SIDE_PX
        x, y = blot.centre
        assert 800 <= x <= 1100 and 400 <= y <= 700


def test_wood_alone_has_no_blots(scanner: Scanner) -> None:
    wood = sheet_on_wood(0)
    wood[:] = cv2.resize(wood[:300, :300], (1920, 1080))
    assert blots(wood) == ()
    assert scanner.scan(wood).unreadable == ()


def test_a_dark_coloured_patch_on_the_sheet_is_no_blot() -> None:
    frame = sheet_on_wood(0)
    frame[500:548, 900:948] = (25, 45, 70)  # coffee
    assert blots(frame) == ()


def test_a_thin_rhombus_outline_is_no_marker() -> None:
    # Four equal sides, as wood grain outlines one under heavy blur, enclosing little.
    sliver = np.array([(500.0, 500.0), (530.0, 520.0), (560.0, 540.0), (530.0, 520.0)])
    sliver[1] += (4.0, -4.0)
    sliver[3] -= (4.0, -4.0)
    assert unreadable([sliver], [], [], 1920, 1080) == ()


@pytest.mark.slow
def test_a_board_smeared_past_any_outline_is_listed_with_its_cells(scanner: Scanner) -> None:
    # A train-split seed: under 24 px of blur neither the marker search nor the whole-frame
    # search outlines a marker of this board; its truth says 6.4 to 7.1 px per cell.
    rendered = render_board(Renderer(), "pigments", Difficulty.HARD, 20008)
    photo = motion_blur(rendered.rendering.image, rendered.seed, (24, 24))
    observation = scanner.scan(photo, "pigments")
    assert observation.boards == ()
    (seen,) = observation.unreadable
    assert seen.candidates >= 2
    assert 4.5 <= seen.px_per_cell <= 8.5
    assert seen.cause == "too blurred"
    board = next(c for c in rendered.rendering.truth["components"] if len(c["markers"]) == 4)
    corners = np.asarray(board["corners"])
    x, y, w, h = seen.where
    assert x < corners[:, 0].max() and x + w > corners[:, 0].min()
    assert y < corners[:, 1].max() and y + h > corners[:, 1].min()


@pytest.mark.slow
def test_a_sharp_render_lists_nothing_unreadable(scanner: Scanner) -> None:
    rendered = render_board(Renderer(), "pigments", Difficulty.HARD, 20008)
    observation = scanner.scan(rendered.rendering.image, "pigments")
    assert len(observation.boards) == 1 and observation.unreadable == ()
