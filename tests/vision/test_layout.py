"""The physical design: every component fits its paper, markers are unique and big enough, and
nothing is printed where a marker needs its white ring."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from companion.content import colorfield, paintings, pigments
from vision.fiducials import ATELIER_DICTIONARY, predefined_dictionary
from vision.layout.boards import PRINTABLE
from vision.layout.catalogue import GAMES, layouts, marker_index
from vision.layout.geometry import Circle, Rect, bounds
from vision.layout.ids import (
    BOARD_IDS,
    BOARD_KINDS,
    BOARD_MARKER_MM,
    DICTIONARY_SIZE,
    PIECE_BLOCKS,
    PIECE_MARKER_MM,
)
from vision.layout.model import Layout

FOCAL_PX = 1920 / 2 / math.tan(math.radians(35))  # 1080p webcam, 70 degree lens


def all_layouts() -> list[Layout]:
    return [layout for game in GAMES for layout in layouts(game)]


def cell_px(marker_mm: float, distance_mm: float, tilt_deg: float) -> float:
    cells = predefined_dictionary(ATELIER_DICTIONARY).bits + 2
    return marker_mm / cells * FOCAL_PX / distance_mm * math.cos(math.radians(tilt_deg))


def test_every_component_of_the_default_content_is_laid_out() -> None:
    by_kind = {game: [lay.kind for lay in layouts(game)] for game in GAMES}
    assert by_kind["colorfield"].count("tile") == len(colorfield.default_content().tiles) == 120
    assert by_kind["colorfield"].count("canvas") == 4
    assert by_kind["paintings"].count("art-card") == len(paintings.default_content().cards)
    assert by_kind["paintings"].count("mat") == 15
    assert by_kind["pigments"].count("shade") == len(pigments.default_content().shades)
    assert by_kind["pigments"].count("fault") == 2 * len(pigments.default_content().faults)
    assert by_kind["isle"] == ["sheet"] * 4
    assert by_kind["calibration"] == ["reference"]


def test_board_corners_and_piece_blocks_do_not_collide() -> None:
    corners = sum(4 * kind.copies for kind in BOARD_KINDS)
    assert corners <= BOARD_IDS == min(start for start, _ in PIECE_BLOCKS.values())
    spans = sorted(PIECE_BLOCKS.values())
    for (start, size), (next_start, _) in pairwise(spans):
        assert start + size <= next_start
    last_start, last_size = spans[-1]
    assert last_start + last_size <= DICTIONARY_SIZE


def test_marker_ids_are_unique_across_games_and_in_the_dictionary() -> None:
    index = marker_index()
    ids = [m.id for lay in all_layouts() for m in lay.markers]
    assert len(ids) == len(set(ids)) == len(index)
    assert max(ids) < DICTIONARY_SIZE == predefined_dictionary(ATELIER_DICTIONARY).size
    keys = [lay.key for lay in all_layouts()]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize(
    "layout", [lay for lay in all_layouts() if lay.is_board], ids=lambda lay: lay.key
)
def test_boards_fit_the_shared_printable_area_and_keep_corners_clear(layout: Layout) -> None:
    w, h = layout.size
    assert w <= PRINTABLE[0] and h <= PRINTABLE[1]
    assert len(layout.markers) == 4
    for marker in layout.markers:
        assert layout.outline.contains(marker.quiet)
    for region in layout.regions:
        box = bounds(region.shape)
        assert layout.outline.contains(box), region.name
        for marker in layout.markers:
            assert not box.overlaps(marker.quiet), (region.name, marker.role)


@pytest.mark.parametrize(
    "layout", [lay for lay in all_layouts() if not lay.is_board], ids=lambda lay: lay.key
)
def test_pieces_keep_their_marker_inside(layout: Layout) -> None:
    (marker,) = layout.markers
    assert layout.outline.contains(marker.quiet)
    assert marker.rect.w == PIECE_MARKER_MM


def test_regions_of_one_kind_never_overlap() -> None:
    for layout in all_layouts():
        for role in {r.role for r in layout.regions}:
            # Hexagons and a tile's edge triangles tile the plane: only their boxes overlap.
            boxes = [
                bounds(r.shape)
                for r in layout.regions
                if r.role == role and isinstance(r.shape, Rect | Circle)
            ]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    assert not a.overlaps(b), (layout.key, role)


def test_marker_cells_span_at_least_4_px_in_the_supported_envelope() -> None:
    # Boards: 80 cm, tilted 45 degrees. Pieces: 70 cm at 45 degrees, or 80 cm at 35 degrees.
    assert cell_px(BOARD_MARKER_MM, 800, 45) >= 4.0
    assert cell_px(PIECE_MARKER_MM, 700, 45) >= 4.0
    assert cell_px(PIECE_MARKER_MM, 800, 35) >= 4.0
    assert cell_px(PIECE_MARKER_MM, 800, 45) < 4.0  # the envelope's edge, said in the docs


def test_default_island_fills_the_sheet_with_79_cells() -> None:
    sheet = layouts("isle")[0]
    cells = [r for r in sheet.regions if r.role == "cell"]
    assert len(cells) == 79
    assert sheet.content["cell_radius_mm"] >= 11.0


def test_palette_has_every_pan_slot_and_a_shade_place_per_pan() -> None:
    palette = layouts("pigments")[0]
    names = {r.name for r in palette.regions}
    assert {"small window 1", "small binder 1", "large window 3", "large binder 2"} <= names
    assert {"shade small", "shade medium-1", "shade medium-2", "shade large"} <= names
    windows = [r for r in palette.regions if r.role == "window"]
    binders = [r for r in palette.regions if r.role == "binder"]
    assert (len(windows), len(binders)) == (1 + 2 + 2 + 3, 1 + 1 + 1 + 2)
