"""Drawn components: every marker is detected where its layout puts it, every printed colour is the
ink it names, and the drawing is the same every time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.pigments.colour import colour_of
from companion.games.pigments.display import display
from companion.games.pigments.model import Chip
from vision.draw import draw_layout
from vision.fiducials import ATELIER_DICTIONARY, MarkerDetector, predefined_dictionary
from vision.images import Image
from vision.layout.boards import CELL_DOT_MM
from vision.layout.catalogue import GAMES, layouts
from vision.layout.geometry import Circle, Hexagon, Rect, Triangle, bounds
from vision.layout.inks import INKS
from vision.layout.model import Layout

DETECTOR = MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY))
PRINT_PPM = 300 / 25.4
ALL = [layout for game in GAMES for layout in layouts(game)]


def one_of_each_kind() -> list[Layout]:
    kinds: dict[tuple[str, str], Layout] = {}
    for layout in ALL:
        kinds.setdefault((layout.game, layout.kind), layout)
    return list(kinds.values())


def by_key(key: str) -> Layout:
    return next(layout for layout in ALL if layout.key == key)


def bgr(ink: str) -> list[int]:
    r, g, b = INKS[ink]
    return [b, g, r]


def centre(layout: Layout, region: str) -> tuple[float, float]:
    return bounds(layout.region(region).shape).centre


def pixel(image: Image, point: tuple[float, float], ppm: float) -> list[int]:
    x, y = point
    return [int(v) for v in image[round(y * ppm), round(x * ppm)]]


def marker_errors(layout: Layout, image: Image, ppm: float) -> dict[int, float]:
    """Marker id -> the largest distance (px) of a detected corner from where the layout says."""
    found = {m.id: m.corners for m in DETECTOR.detect(image)}
    expected = {m.id: m.rect.corners() for m in layout.markers}
    assert set(found) == set(expected)
    return {
        marker_id: max(
            max(abs(x * ppm - u), abs(y * ppm - v))
            for (x, y), (u, v) in zip(corners, found[marker_id], strict=True)
        )
        for marker_id, corners in expected.items()
    }


@pytest.mark.parametrize("ppm", [4.0, PRINT_PPM])
def test_every_marker_of_every_component_is_detected_at_its_layout_corners(ppm: float) -> None:
    for layout in ALL:
        image = draw_layout(layout, ppm)
        errors = marker_errors(layout, image, ppm)
        assert max(errors.values()) <= 1.5, (layout.key, errors)


@settings(max_examples=12, deadline=None)
@given(ppm=st.floats(min_value=3.0, max_value=12.0), index=st.integers(0, len(ALL) - 1))
def test_markers_land_on_their_corners_at_any_scale(ppm: float, index: int) -> None:
    layout = ALL[index]
    assert max(marker_errors(layout, draw_layout(layout, ppm), ppm).values()) <= 1.5


@pytest.mark.parametrize("ppm", [4.0, 6.0, PRINT_PPM, 7.3])
def test_image_size_is_the_component_size_times_the_scale(ppm: float) -> None:
    for layout in one_of_each_kind():
        image = draw_layout(layout, ppm)
        w, h = layout.size
        assert image.shape == (round(h * ppm), round(w * ppm), 3)
        assert image.dtype == np.uint8


def test_the_reference_card_at_8_px_per_mm_is_2128_by_1088() -> None:
    # Four rows of nine patches: every ink, the grey ramp included.
    card = by_key("calibration/reference/1")
    assert card.size == (266.0, 136.0)
    assert draw_layout(card, 8.0).shape == (1088, 2128, 3)


@pytest.mark.parametrize("layout", one_of_each_kind(), ids=lambda lay: lay.key)
def test_quiet_rings_are_white(layout: Layout) -> None:
    ppm = 6.0
    image = draw_layout(layout, ppm)
    for marker in layout.markers:
        ring, inner = marker.quiet, marker.rect
        # One pixel in from each edge of the ring, where no neighbour's ink can bleed in.
        for band in (
            Rect(ring.x, ring.y, ring.w, inner.y - ring.y),
            Rect(ring.x, inner.y + inner.h, ring.w, ring.y + ring.h - inner.y - inner.h),
        ):
            top, bottom = round(band.y * ppm) + 1, round((band.y + band.h) * ppm) - 1
            left, right = round(band.x * ppm) + 1, round((band.x + band.w) * ppm) - 1
            assert (image[top:bottom, left:right] == 255).all(), marker.id


def test_canvas_segments_show_their_two_colours_split_lengthwise() -> None:
    ppm = 6.0
    for layout in layouts("colorfield"):
        if layout.kind != "canvas":
            continue
        image = draw_layout(layout, ppm)
        segments = [r for r in layout.regions if r.role == "segment"]
        assert len(segments) == 10
        for region in segments:
            rect = region.shape
            assert isinstance(rect, Rect)
            first, second = region.info["colors"]
            cx, cy = rect.centre
            if rect.w > rect.h:  # top and bottom: first colour on the upper strip
                halves = ((cx, rect.y + rect.h / 4), (cx, rect.y + 3 * rect.h / 4))
            else:  # left and right: first colour on the left strip
                halves = ((rect.x + rect.w / 4, cy), (rect.x + 3 * rect.w / 4, cy))
            assert pixel(image, halves[0], ppm) == bgr(first), region.name
            assert pixel(image, halves[1], ppm) == bgr(second), region.name


def test_canvas_one_reads_turquoise_over_coral_above_space_one() -> None:
    canvas = by_key("colorfield/canvas/1")
    image = draw_layout(canvas, 5.0)
    band = canvas.region("top[0]").shape
    assert band == Rect(22.0 + 12.0, 22.0, 42.0, 12.0)
    assert pixel(image, (55.0, 25.0), 5.0) == bgr("turquoise")
    assert pixel(image, (55.0, 31.0), 5.0) == bgr("coral")
    # The space inside is bare paper.
    assert pixel(image, centre(canvas, "space 1"), 5.0) == bgr("paper")


@pytest.mark.parametrize(
    "layout", [lay for lay in layouts("colorfield") if lay.kind == "tile"][::7], ids=str
)
def test_tile_edges_show_their_colours_outside_the_white_ring(layout: Layout) -> None:
    ppm = 8.0
    image = draw_layout(layout, ppm)
    rows, cols = np.mgrid[0 : image.shape[0], 0 : image.shape[1]]
    xs, ys = cols / ppm, rows / ppm
    ring = layout.markers[0].quiet
    outside = ~((xs > ring.x) & (xs < ring.x + ring.w) & (ys > ring.y) & (ys < ring.y + ring.h))
    for region in layout.regions:
        tri = region.shape
        assert isinstance(tri, Triangle)
        inside = np.ones_like(outside)
        for (ax, ay), (bx, by) in ((tri.a, tri.b), (tri.b, tri.c), (tri.c, tri.a)):
            # Strictly inside each edge, half a millimetre clear of the diagonals.
            inside &= (bx - ax) * (ys - ay) - (by - ay) * (xs - ax) > 0.5 * np.hypot(
                bx - ax, by - ay
            )
        pixels = image[inside & outside]
        assert len(pixels) > 100
        median = [int(v) for v in np.median(pixels, axis=0)]
        assert median == bgr(region.info["color"]), region.name


def test_a_foundation_tile_carries_its_up_mark_and_a_round_tile_does_not() -> None:
    foundation, round_tile = by_key("colorfield/tile/F-01"), by_key("colorfield/tile/R1-01")
    assert foundation.content["up_mark"] and not round_tile.content["up_mark"]
    for layout, marked in ((foundation, True), (round_tile, False)):
        image = draw_layout(layout, 10.0)
        # The caret sits right of centre in the north band, where the colour is otherwise flat.
        patch = image[15:45, 270:305]
        ink = np.array(bgr(layout.region("edge N").info["color"]))
        assert (np.abs(patch.astype(int) - ink).sum(axis=2) > 60).any() == marked


def test_reference_card_patches_are_their_inks() -> None:
    card = by_key("calibration/reference/1")
    image = draw_layout(card, 6.0)
    patches = [r for r in card.regions if r.role == "patch"]
    assert len(patches) == len(INKS)
    for region in patches:
        assert pixel(image, bounds(region.shape).centre, 6.0) == bgr(region.info["ink"])


def test_pigment_wells_are_dark_slate_and_the_spill_tray_too() -> None:
    palette, market = by_key("pigments/palette/1"), by_key("pigments/market/1")
    image = draw_layout(palette, 6.0)
    for region in palette.regions:
        if region.role == "pan":
            rect = region.shape
            assert isinstance(rect, Rect)
            # Between the window and binder rings, at the well's right end.
            assert pixel(image, (rect.x + rect.w - 1.0, rect.y + 1.0), 6.0) == bgr("well")
        if region.role in ("window", "binder"):
            circle = region.shape
            assert isinstance(circle, Circle)
            assert pixel(image, (circle.cx + circle.r, circle.cy), 6.0) != bgr("well")
    tray = market.region("spill tray").shape
    assert isinstance(tray, Rect)
    assert pixel(draw_layout(market, 6.0), (tray.x + 5.0, tray.y + 5.0), 6.0) == bgr("well")


def test_isle_cells_are_outlines_with_an_ink_dot_in_the_middle() -> None:
    sheet = by_key("isle/sheet/2")
    image = draw_layout(sheet, 6.0)
    cells = [r.shape for r in sheet.regions if r.role == "cell"]
    assert all(isinstance(c, Hexagon) for c in cells)
    for cell in cells:
        assert isinstance(cell, Hexagon)
        assert pixel(image, (cell.cx, cell.cy), 6.0) == bgr("ink")
        assert pixel(image, (cell.cx + CELL_DOT_MM + 1.0, cell.cy), 6.0) == bgr("paper")
        top = cell.corners()[0]
        assert pixel(image, top, 6.0) != bgr("paper")


def test_shade_swatches_use_the_pigment_lab_display_colours() -> None:
    soot = by_key("pigments/shade/soot")
    # Every band swallowed: soot is black on screen and on the card.
    assert display(colour_of(Chip(c) for c in soot.content["recipe"])).rgb == (0, 0, 0)
    assert pixel(draw_layout(soot, 6.0), centre(soot, "swatch"), 6.0) == [0, 0, 0]
    for layout in layouts("pigments"):
        if layout.kind == "shade":
            r, g, b = display(colour_of(Chip(c) for c in layout.content["recipe"])).rgb
            assert pixel(draw_layout(layout, 6.0), centre(layout, "swatch"), 6.0) == [b, g, r]


def test_art_card_slots_hold_glyphs_in_their_element_inks() -> None:
    card = by_key("paintings/art-card/A-01")
    assert card.content["slots"] == [[], ["bonus-texture", "hue"], [], ["shape"], ["tone"]]
    image = draw_layout(card, 8.0)

    def inks_in(slot: str) -> set[str]:
        rect = card.region(slot).shape
        assert isinstance(rect, Rect)
        crop = image[round(rect.y * 8) : round((rect.y + rect.h) * 8), round(rect.x * 8) :]
        crop = crop[:, : round(rect.w * 8)].reshape(-1, 3)
        present = {tuple(int(v) for v in p) for p in np.unique(crop, axis=0)}
        return {name for name in ("hue", "shape", "texture", "tone") if tuple(bgr(name)) in present}

    assert inks_in("slot 1") == set()
    assert inks_in("slot 2") == {"texture", "hue"}
    assert inks_in("slot 4") == {"shape"}
    assert inks_in("slot 5") == {"tone"}


@pytest.mark.parametrize("layout", one_of_each_kind(), ids=lambda lay: lay.key)
def test_drawing_is_deterministic(layout: Layout) -> None:
    assert np.array_equal(draw_layout(layout, PRINT_PPM), draw_layout(layout, PRINT_PPM))


def test_a_scale_that_is_not_positive_is_refused() -> None:
    with pytest.raises(ValueError, match="px_per_mm"):
        draw_layout(ALL[0], 0.0)
