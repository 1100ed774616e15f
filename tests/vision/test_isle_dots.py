"""The ink dot printed in the middle of every Isle cell: drawn where the cells are, measured where
it shows and nowhere else, and what a cell read bare must show of it."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from companion.observation import ComponentRead as Read
from vision.benchmark import judge, perturbed, render_board
from vision.draw import draw_layout
from vision.draw.surface import Surface
from vision.fiducials import ATELIER_DICTIONARY, MarkerDetector, predefined_dictionary
from vision.layout.boards import CELL_DOT_MM
from vision.layout.catalogue import layouts
from vision.layout.geometry import Hexagon
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.perturb import FAMILIES
from vision.render.envelope import Difficulty
from vision.render.renderer import Renderer
from vision.scan.readers.isle_dots import (
    DOT_SHOWS,
    bare_where_seen,
    dot_depths,
    saturated_share,
    without_dots,
)
from vision.scan.readers.isle_sheet import SHEET_PPM, SheetMaps, sheet_maps
from vision.scan.scanner import Scanner


@cache
def sheet() -> tuple[Layout, SheetMaps]:
    layout = layouts("isle")[0]
    return layout, sheet_maps(layout)


def printed(exposure: float = 1.0) -> np.ndarray:
    """The sheet as printed, at the reader's 1 mm per pixel, lit ``exposure`` times as brightly
    as its paper's white and clipped where that passes the sensor's limit."""
    layout, _ = sheet()
    image = draw_layout(layout, SHEET_PPM).astype(np.float32) * exposure
    return np.asarray(np.minimum(image, 255.0), np.float32)


def test_every_cell_and_no_key_hexagon_has_an_ink_dot_in_its_middle() -> None:
    layout, _ = sheet()
    ppm = 6.0
    image = draw_layout(layout, ppm).astype(int)
    ink = np.array(INKS["ink"][::-1])
    for region in layout.regions:
        assert isinstance(region.shape, Hexagon)
        cx, cy = region.shape.cx, region.shape.cy
        centre = image[round(cy * ppm), round(cx * ppm)]
        beside = image[round(cy * ppm), round((cx + CELL_DOT_MM + 1.0) * ppm)]
        if region.role == "cell":
            assert np.abs(centre - ink).max() <= 2, region.name
            assert beside.min() > 200, region.name
        else:
            assert centre.min() > 200, region.name


def test_the_reader_takes_the_dots_out_before_it_reads_the_cells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every measure but the dot's own reads the sheet as printed without them, clipped where
    the paper around is."""
    _, maps = sheet()
    over = printed(2.0)
    limit = (over >= 255.0).astype(np.float32)
    cleaned, clipped = without_dots(over, limit, maps.dots)
    monkeypatch.setattr(Surface, "circle", lambda *_: None)  # the sheet draws no other circle
    undotted = printed(2.0)
    assert np.abs(cleaned - undotted)[maps.dots].max() <= 1.0
    assert (clipped[maps.dots] == (undotted >= 255.0)[maps.dots]).all()
    assert (cleaned[~maps.dots] == over[~maps.dots]).all()


def test_every_dot_shows_in_plain_view_and_where_the_paper_clips() -> None:
    _, maps = sheet()
    for exposure in (1.0, 2.0, 2.8):  # as printed, one stop and one and a half over
        depth = dot_depths(printed(exposure), maps)
        assert depth.min() >= 2 * DOT_SHOWS, exposure


def test_no_dot_shows_on_bare_paper_across_a_shadow_edge_or_under_a_white_cup() -> None:
    _, maps = sheet()
    h, w = maps.shape
    # Paper with no dots, lit across a shadow's soft edge running through the sheet.
    ramp = np.clip((np.arange(w, dtype=np.float32) - w / 2) / 12.0, -1.0, 1.0)
    paper = np.broadcast_to((160.0 + 60.0 * ramp)[None, :, None], (h, w, 3)).copy()
    assert dot_depths(paper, maps).max() < DOT_SHOWS
    # The sheet over-exposed a stop, a white cup clipped to the sensor's limit over some cells.
    image = printed(2.0)
    cx, cy = maps.centres[10] * SHEET_PPM
    cv2.circle(image, (round(cx), round(cy)), 30, (255.0, 255.0, 255.0), -1)
    under = np.hypot(*(maps.centres - maps.centres[10]).T) < 30.0 - CELL_DOT_MM - 3.0
    depth = dot_depths(image, maps)
    assert under.sum() >= 3
    assert depth[under].max() < DOT_SHOWS
    assert depth[~under].min() >= 4 * DOT_SHOWS


def bare(name: str) -> Read:
    return Read(name, None, 0.9)


def test_a_cell_read_bare_must_show_its_dot_where_it_is_clipped_or_the_sheet_shows_them() -> None:
    names = [f"cell (0,{k})" for k in range(8)]
    pencil = Read("cell (0,7)", "red", 0.95)
    reads = [bare(n) for n in names[:7]] + [pencil]
    shown, hidden = 0.6, 0.02
    # A sheet showing its dots: cell 1 hides its dot in the shade, cell 2 clipped and hidden,
    # cell 3 clipped with its dot showing, the red cell hides it under its strokes.
    depth = np.array([shown, hidden, hidden, shown, shown, shown, shown, hidden], np.float32)
    clipped = np.array([0, 0, 0.9, 0.9, 0, 0, 0, 0], np.float32)
    checked = bare_where_seen(reads, depth, clipped)
    assert [r.problem for r in checked] == [
        None,
        "cell (0,1): covered, its printed dot hidden",
        "cell (0,2): hidden by glare",
        None,
        None,
        None,
        None,
        None,
    ]
    assert checked[7] == pencil and checked[0] == reads[0]
    # A sheet printed without dots (or too blurred to show them): only clipped cells need one.
    depth = np.full(8, hidden, np.float32)
    checked = bare_where_seen(reads, depth, clipped)
    assert [r.problem for r in checked] == [
        None,
        None,
        "cell (0,2): hidden by glare",
        "cell (0,3): hidden by glare",
        None,
        None,
        None,
        None,
    ]


def test_the_clipped_share_counts_pixels_clipped_in_every_channel() -> None:
    over = np.array(
        [[1, 1, 1], [1, 1, 0], [1, 1, 1], [0, 0, 0], [1, 1, 1]], bool
    )  # cells 0, 0, 1, 1, 2
    owner = np.array([0, 0, 1, 1, 2])
    assert saturated_share(over, owner, 4).tolist() == [0.5, 0.5, 1.0, 0.0]


@pytest.mark.slow  # one hard render and its scan
def test_a_white_cup_clipped_over_a_blue_cell_is_never_read_bare() -> None:
    """Train seed 20020 one stop over: the white cup and the paper clip alike over cell (2,9),
    which is blue under the cup; the sheet was read and scored with it bare."""
    renderer, scanner = Renderer(), Scanner()
    rendered = render_board(renderer, "isle", Difficulty.HARD, 20020)
    board, image = perturbed(renderer, rendered, FAMILIES["ev:+1"])
    trial = judge(scanner, board, image, MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY)))
    assert trial.outcome != "confident-wrong"
    # Refused: hidden by glare where its dot does not show, or taken for covered by the model.
    assert any(problem.startswith("cell (2,9): ") for problem in trial.problems)
