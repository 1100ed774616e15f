"""Isle of Colors sheets in hard light: the reader aligns the sheet on its own grid, measures the
paper's white where the sensor clips, and reports what lies over the sheet as covered (a cup
that looks like a pencil, or like paper, included)."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from companion.observation import ComponentRead as Read
from companion.samples import Position, random_position
from vision.benchmark import TRUTH, hidden_components, run_trial
from vision.draw import draw_layout
from vision.fiducials import ATELIER_DICTIONARY, Marker, MarkerDetector, predefined_dictionary
from vision.images import Image
from vision.layout.catalogue import layouts
from vision.layout.model import Layout
from vision.render.envelope import Difficulty
from vision.render.marks import Hand, colour_cells
from vision.render.placing import plan_table
from vision.render.plan import FillPlan
from vision.render.renderer import Renderer, Rendering, RenderOptions
from vision.scan.readers.isle import (
    ABSORB,
    BOUNDED_WEIGHT,
    BRIGHTEST_CELL,
    CLIPPED,
    PAPER,
    SHADED_CELL,
    IsleReader,
    PaperMap,
    _agreeing,
    grid_alignment,
    hue_misfit,
    outlined_cells,
    paper_light,
    paper_map,
)
from vision.scan.readers.isle_dots import without_dots
from vision.scan.readers.isle_features import PENCILS
from vision.scan.readers.isle_over import (
    BEYOND_ISLAND,
    COVERED_SHARE,
    LEAST_OBJECT,
    LEAST_PART,
    LEAST_SIDE,
    SEAMS_GRID,
    SIDE_GRID,
    _across_cells,
    _beneath_hatching,
    _grid_response,
    _hides_grid,
    _hue_edges,
    _shadow_shows_grid,
    covered_cells,
    covering,
    pixels_per_cell,
    smooth_blobs,
    smooth_objects,
    smooth_surface,
)
from vision.scan.readers.isle_rims import BLUR_MM, WALL, cup_rims
from vision.scan.readers.isle_sheet import SHEET_PPM, SheetMaps, log_planes, sheet_maps
from vision.scan.rectify import rectify
from vision.scan.registration import register
from vision.scan.scanner import Scanner


def full_search(image: Image) -> list[Marker]:
    """The markers OpenCV's detector decodes searching the whole photo."""
    return MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY)).detect(image)


@pytest.fixture(scope="module")
def tools() -> tuple[Renderer, Scanner]:
    scanner = Scanner()
    scanner.prepare()
    return Renderer(), scanner


def hard_render(renderer: Renderer, seed: int) -> tuple[Position, Rendering]:
    """A random Isle position of ``seed``, rendered hard with the same seed."""
    position = random_position("isle", random.Random(seed))
    return position, renderer.render(
        plan_table(position, "x"), RenderOptions(seed, Difficulty.HARD)
    )


def sheet() -> Layout:
    return next(lay for lay in layouts("isle") if lay.kind == "sheet")


def hatched_face(seed: int, dots: bool = False) -> np.ndarray:
    """The sheet at 1 mm per pixel with a third of its cells hatched in pencil: as the reader's
    measures see it, its cells' dots taken out, or with them (``dots``) as the camera does."""
    layout = sheet()
    rng = np.random.default_rng(seed)
    cells = [r.name for r in layout.regions if r.role == "cell"]
    fills = tuple(
        FillPlan(cell, ("green", "blue", "brown", "red")[i % 4])
        for i, cell in enumerate(cells[::3])
    )
    drawn = colour_cells(draw_layout(layout, 4.0), layout, fills, 4.0, Hand("pencil", 40.0), rng)
    # Every 4th pixel of a blur centred on it: pixel (i, j) stays centred on (i, j) mm.
    face = np.asarray(cv2.blur(drawn, (5, 5))[::4, ::4], np.float32)
    if dots:
        return face
    return without_dots(face, np.zeros(face.shape, np.float32), sheet_maps(layout).dots)[0]


@pytest.mark.parametrize("dx, dy", [(0.0, 0.0), (4.0, -3.0), (-6.5, 2.5)])
def test_the_sheet_is_aligned_on_its_own_grid(dx: float, dy: float) -> None:
    # The face as markers a few millimetres off would rectify it: every cell moved by (dx, dy).
    layout = sheet()
    face = hatched_face(3, dots=True)
    shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], np.float32)
    size = (face.shape[1], face.shape[0])
    moved = cv2.warpAffine(face, shift, size, borderMode=cv2.BORDER_REPLICATE)
    # No marker to keep in place: the face alone says where the cells are.
    maps, no_markers = IsleReader().maps(layout), np.empty((0, 2))
    correction = grid_alignment(np.asarray(moved, np.float32), maps, no_markers)
    assert correction is not None
    centre = np.array([[[layout.size[0] / 2, layout.size[1] / 2]]])
    found = cv2.perspectiveTransform(centre, correction)[0, 0] - centre[0, 0]
    assert found == pytest.approx([dx, dy], abs=0.5)


def test_patches_matched_along_a_line_fix_no_map() -> None:
    # Three patches in a line say nothing of the grid across it: no map, rather than one made
    # of infinities that would spoil every later step.
    sources = np.array([[10.0, 20.0], [40.0, 35.0], [70.0, 50.0]])
    assert _agreeing((sources, sources + np.array([1.0, 0.5])), 1.0, 3) is None
    turned = np.array([[10.0, 20.0], [40.0, 35.0], [70.0, 10.0]])
    agreed = _agreeing((turned, turned + np.array([1.0, 0.5])), 1.0, 3)
    assert agreed is not None
    assert agreed[0][:2, 2] == pytest.approx([1.0, 0.5], abs=1e-6)


def test_a_blank_face_cannot_be_aligned() -> None:
    # No cell edges to match: the grid cannot say where the cells are.
    blank = np.full((198, 267, 3), 230.0, np.float32)
    assert grid_alignment(blank, IsleReader().maps(sheet()), np.empty((0, 2))) is None


def test_each_edge_of_a_cells_outline_faces_the_cell_across_it() -> None:
    maps = IsleReader().maps(sheet())
    _, left, right = maps.outline
    for k, near in enumerate(maps.neighbours):
        assert sorted(int(n) for n in maps.across[k] if n >= 0) == sorted(near)
        for edge, other in enumerate(maps.across[k]):
            # Either side of the edge's middle: this cell, and the one across it (or none).
            middle = len(left[k, edge]) // 2
            points = np.round([left[k, edge, middle], right[k, edge, middle]]).astype(int)
            sides = [int(maps.whole[y, x]) for x, y in points]
            assert sorted(sides) == sorted([k, other])


def test_the_paper_white_of_a_clipped_channel_is_measured_where_the_paper_is_darker() -> None:
    # Warm light: red reads 1.3 times green on paper, past the sensor's limit where the paper is
    # bright; a vignetted band of the margin keeps it below the limit.
    margin = np.ones((60, 200), bool)
    brightness = np.where(np.arange(200) < 150, 230.0, 170.0)[None, :].repeat(60, axis=0)
    white = np.array([0.8, 1.0, 1.3], np.float32)
    true = brightness[:, :, None] * white[None, None, :]
    image = np.minimum(true, 255.0).astype(np.float32)
    light = paper_light(image, image >= CLIPPED, margin, margin)
    assert light is not None
    assert light.white / light.white[1] == pytest.approx([0.8, 1.0, 1.3], rel=0.01)
    assert light.weight.tolist() == [1.0, 1.0, 1.0]


def test_a_dark_thing_in_the_margin_as_grey_as_paper_does_not_give_the_paper_white() -> None:
    # Warm light with red past the limit on all the paper: a red cup in the margin is as grey as
    # paper in blue and green and measured in red, but far too dark to be paper. Red's white is
    # only bounded, by the paper it clips on.
    margin = np.ones((60, 200), bool)
    image = np.empty((60, 200, 3), np.float32)
    image[:, :150] = (200.0, 210.0, 255.0)
    image[:, 150:] = (50.0, 52.0, 150.0)
    light = paper_light(image, image >= CLIPPED, margin, margin)
    assert light is not None
    assert light.white.tolist() == pytest.approx([1.0, 1.05, CLIPPED / 200.0], rel=1e-4)
    assert light.weight.tolist() == pytest.approx([1.0, 1.0, BOUNDED_WEIGHT])


def test_a_hand_in_the_margin_below_the_limit_does_not_give_the_paper_white() -> None:
    # Warm light clipping green on all but the dimmest paper and red on all of it; a hand on a
    # quarter of the margin, darker and warmer, is measured in both. Its hue is not the paper's:
    # the dimmest paper, below the limit in green, shows the paper 0.22 less warm. Green's white
    # and red's are only bounded, by the paper they clip on (not the hand's 1.58 and 2.53).
    margin = np.ones((60, 200), bool)
    image = np.empty((60, 200, 3), np.float32)
    blue = np.linspace(194.0, 210.0, 150, dtype=np.float32)
    image[:, :150] = np.stack([blue, 1.27 * blue, 1.49 * blue], axis=1)[None]
    image[:, 150:] = (95.0, 150.0, 240.0)
    image = np.minimum(image, 255.0)
    light = paper_light(image, image >= CLIPPED, margin, margin)
    assert light is not None
    assert light.white[1] / light.white[0] == pytest.approx(1.27, rel=0.01)
    assert light.white[2] / light.white[0] == pytest.approx(CLIPPED / 195.0, rel=0.01)
    assert light.weight.tolist() == pytest.approx([1.0, BOUNDED_WEIGHT, BOUNDED_WEIGHT])


def test_paper_clipped_in_every_channel_everywhere_is_not_measured() -> None:
    image = np.full((60, 200, 3), 255.0, np.float32)
    everywhere = np.ones((60, 200), bool)
    assert paper_light(image, image >= CLIPPED, everywhere, everywhere) is None


def warm_sheet(shadow: slice) -> tuple[np.ndarray, np.ndarray]:
    """A bare face in warm light that clips red on all the lit paper, with a shadow darkening
    the columns ``shadow`` to 0.6, and its margin (the first 40 columns, lit)."""
    white = np.array([0.8, 1.0, 1.3], np.float32)
    image = np.full((100, 200, 3), 230.0, np.float32) * white
    image[:, shadow] *= 0.6
    margin = np.zeros((100, 200), bool)
    margin[:, :40] = True
    return np.minimum(image, 255.0), margin


def test_a_channel_clipped_on_all_the_margin_is_measured_on_the_sheets_paper_in_shadow() -> None:
    # The margin only bounds red's white, by the paper it clips on (red at least 1.08 times
    # green); the shadow across the sheet keeps red below the limit, and shows it 1.3 times.
    image, margin = warm_sheet(slice(100, 180))
    bounded = paper_light(image, image >= CLIPPED, margin, margin)
    assert bounded is not None
    assert bounded.white[2] / bounded.white[1] == pytest.approx(CLIPPED / 230.0, rel=0.01)
    assert bounded.weight.tolist() == pytest.approx([1.0, 1.0, BOUNDED_WEIGHT])
    light = paper_light(image, image >= CLIPPED, margin, np.ones(margin.shape, bool))
    assert light is not None
    assert light.white / light.white[1] == pytest.approx([0.8, 1.0, 1.3], rel=0.01)
    # Measured, not bounded: red counts as fully as the other channels.
    assert light.weight.tolist() == [1.0, 1.0, 1.0]


def test_a_shadow_too_small_to_measure_leaves_the_bound() -> None:
    image, margin = warm_sheet(slice(100, 101))
    light = paper_light(image, image >= CLIPPED, margin, np.ones(margin.shape, bool))
    assert light is not None
    assert light.white[2] / light.white[1] == pytest.approx(CLIPPED / 230.0, rel=0.01)


def test_redder_strokes_in_the_shadow_do_not_give_the_paper_white() -> None:
    # Light red strokes beside the shadow's paper, more of them than of it: as grey as paper in
    # blue against green, 1.3 times as red. The paper is the least red of the two.
    image, margin = warm_sheet(slice(100, 180))
    image[:, 130:180, 2] *= 1.3
    light = paper_light(image, image >= CLIPPED, margin, np.ones(margin.shape, bool))
    assert light is not None
    assert light.white[2] / light.white[1] == pytest.approx(1.3, rel=0.01)


def test_a_sheet_placed_by_one_marker_is_lined_up_on_its_grid_though_far_off(
    tools: tuple[Renderer, Scanner],
) -> None:
    # One marker decoded: it places the sheet well beside it and some 20 mm off at the far
    # side, more than a cell. Matched again from where the near patches put it, the whole grid
    # lines up with the cells the render drew.
    scanner = tools[1]
    _, rendering = hard_render(tools[0], 5228)
    markers = full_search(rendering.image)
    assert [m.id for m in markers] == [82]
    (board,) = register(markers, scanner.index).boards
    maps = IsleReader().maps(board.layout)
    face = rectify(rendering.image, board, SHEET_PPM).image
    anchors = np.array([m.rect.centre for m in board.layout.markers if m.id == 82])
    correction = grid_alignment(np.asarray(face, np.float32), maps, anchors)
    assert correction is not None
    drawn = {
        f"cell ({c['cell'].removeprefix('cell ')})": c["centre"] for c in rendering.truth["cells"]
    }
    printed = np.array([maps.centres[maps.names.index(name)] for name in drawn], np.float64)
    lined_up = np.asarray(cv2.perspectiveTransform(printed[:, None], correction)[:, 0], np.float64)
    off_before = np.linalg.norm(board.to_image(printed) - list(drawn.values()), axis=1)
    off_after = np.linalg.norm(board.to_image(lined_up) - list(drawn.values()), axis=1)
    assert off_before.max() > 25.0 and off_after.max() < 1.5  # photo px, 1.4 per mm
    # The scan also names the sheet's other markers in view by their cells, and reads it exactly.
    trial = run_trial(*tools, "isle", Difficulty.HARD, 5228)
    assert (trial.outcome, trial.wrong_components) == ("exact", 0), trial.problems


@pytest.mark.parametrize("seed", [6017])
def test_the_markers_keep_the_grid_from_tilting_where_no_colour_shows(
    tools: tuple[Renderer, Scanner], seed: int
) -> None:
    # Three markers place the sheet, and its grid refines the map where pencil colours show.
    # Lined up on those patches alone, the map tilts and some cell sits over 1.5 mm off; with
    # the markers kept where they put the sheet, every coloured cell lies within 1 mm.
    scanner = tools[1]
    _, rendering = hard_render(tools[0], seed)
    (board,) = register(full_search(rendering.image), scanner.index).boards
    maps = IsleReader().maps(board.layout)
    face = np.asarray(rectify(rendering.image, board, SHEET_PPM).image, np.float32)
    drawn = {
        f"cell ({c['cell'].removeprefix('cell ')})": c["centre"] for c in rendering.truth["cells"]
    }
    printed = np.array([maps.centres[maps.names.index(name)] for name in drawn], np.float64)

    def worst_mm(anchors: np.ndarray) -> float:
        correction = grid_alignment(face, maps, anchors)
        assert correction is not None
        lined_up = np.asarray(cv2.perspectiveTransform(printed[:, None], correction)[:, 0], float)
        off = np.linalg.norm(board.to_image(lined_up) - list(drawn.values()), axis=1)
        return float(off.max()) / board.pixels_per_mm()

    markers = {m.id: m for m in board.layout.markers}
    assert len(board.marker_ids) == 3
    assert worst_mm(np.array([markers[i].rect.centre for i in board.marker_ids])) < 1.0
    assert worst_mm(np.empty((0, 2))) > 1.5


def test_a_grid_matched_a_cell_off_is_refused_unless_the_paper_edges_place_the_sheet(
    tools: tuple[Renderer, Scanner], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two markers, motion blur: the patches agree on a grid some 14 mm off, which drags the
    # markers 4 mm from where they placed the sheet. Read there, twelve cells in plain view
    # took their neighbours' colours. Placed by its paper's edges instead, and lined up on its
    # grid again from there, none of its cells is read wrong.
    trial = run_trial(*tools, "isle", Difficulty.HARD, 7677)
    assert trial.wrong_components == 0
    assert not any("cannot be lined up" in problem for problem in trial.problems)
    # Where its edges are not found (a table as bright as the paper), it is refused.
    monkeypatch.setattr("vision.scan.readers.isle.placed_by_outline", lambda image, board: board)
    trial = run_trial(*tools, "isle", Difficulty.HARD, 7677)
    assert trial.wrong_components == 0
    assert "cell (5,9): the sheet's grid cannot be lined up" in trial.problems


def test_a_sheet_whose_markers_blur_leaves_undecoded_is_found_by_their_cells(
    tools: tuple[Renderer, Scanner],
) -> None:
    # A cup and a hand hide two corners; the detector outlines the other two markers but cannot
    # decode them (blur, a steep view). Named by their cells, they place the sheet. (Blur also
    # leaves four blue cells as plain as a cup: they end where their cells do, so are hatching.)
    scanner = tools[1]
    position, rendering = hard_render(tools[0], 5231)
    assert full_search(rendering.image) == []
    observation = scanner.scan(rendering.image, "isle")
    assert [m.id for m in observation.markers] == [82, 83]
    (board,) = observation.boards
    truth = TRUTH["isle"](position)
    assert all(c.value == truth[c.component] for c in board.components if not c.problem)
    hidden = hidden_components(rendering.truth, "isle")
    assert board.problems and all(p.split(": ")[0] in hidden for p in board.problems)


def test_filled_cells_in_a_cups_shadow_are_read_with_their_pencils(
    tools: tuple[Renderer, Scanner],
) -> None:
    # No bare paper shows in the shadow: the cells are lit at about half the paper around, and
    # their printed outlines show as clearly as anywhere on the sheet.
    scanner = tools[1]
    _, rendering = hard_render(tools[0], 5023)
    (board,) = scanner.scan(rendering.image, "isle").boards
    reads = {c.component: c.value for c in board.components if not c.problem}
    shadowed = ["(4,5)", "(4,6)", "(4,7)", "(5,4)", "(5,5)", "(5,6)", "(6,4)", "(6,5)", "(6,6)"]
    assert [reads.get(f"cell {cell}") for cell in shadowed] == [
        "brown",
        "brown",
        "brown",
        "brown",
        "brown",
        "brown",
        "brown",
        "blue",
        "brown",
    ]


def test_a_hand_over_the_sheet_covers_cells_rather_than_colouring_them(
    tools: tuple[Renderer, Scanner],
) -> None:
    scanner = tools[1]
    position, rendering = hard_render(tools[0], 13)
    (board,) = scanner.scan(rendering.image, "isle").boards
    shares = {
        f"cell ({e['region'].removeprefix('cell ')})": e["covered"]
        for e in rendering.truth["covered_regions"]
    }
    reads = {c.component: c for c in board.components}
    under = [name for name, share in shares.items() if share >= 0.5]
    assert under and all("covered" in (reads[name].problem or "") for name in under)
    # Nothing it hides in part is read wrong, and every cell in plain view is read right.
    truth = TRUTH["isle"](position)
    hidden = hidden_components(rendering.truth, "isle")
    assert all(c.value == truth[c.component] for c in board.components if not c.problem)
    assert all(p.split(": ")[0] in hidden for p in board.problems)


def test_bare_cells_tinted_by_blur_beside_a_hand_are_read_bare(
    tools: tuple[Renderer, Scanner],
) -> None:
    # Seed 6487: bare cells tinted brown by blur, not a stroke in them, were refused as faint. A
    # brown cell beside the hand, fitting brown only 1.95 times better than red (too close to
    # name so near something over the sheet), is named by its hue.
    position, rendering = hard_render(tools[0], 6487)
    (board,) = tools[1].scan(rendering.image, "isle").boards
    truth = TRUTH["isle"](position)
    hidden = hidden_components(rendering.truth, "isle")
    assert all(c.value == truth[c.component] for c in board.components if not c.problem)
    assert all(p.split(": ")[0] in hidden for p in board.problems)
    assert next(c for c in board.components if c.component == "cell (2,1)").value == "brown"


def shaded_cell(pencil: str) -> tuple[np.ndarray, ...]:
    """The pixels of one cell hatched in ``pencil`` (9 x 9, strokes of pressure 0.8 and 0.3
    over paper 0.97 times as bright as the paper's white), its left four columns in a hand's
    shadow that darkens them to 0.58 with a sharp edge; with each pixel's white, owner and
    offset from the cell's middle."""
    ys, xs = (axis.ravel() for axis in np.mgrid[0:9, 0:9].astype(np.float32))
    white = np.tile(PAPER * 0.97, (81, 1)).astype(np.float32)
    pressure = np.where((xs + ys) % 3 < 2, 0.8, 0.3)[:, None]
    light = np.where(xs < 4, 0.58, 1.0)[:, None]
    pixels = light * white * (1.0 - pressure * ABSORB[PENCILS.index(pencil)])
    noise = np.random.default_rng(1).normal(0.0, 3.0, pixels.shape)
    offsets = np.stack([xs - 4.0, ys - 4.0], axis=1) / 4.0
    return (
        np.asarray(pixels + noise, np.float32),
        white,
        np.zeros(81, np.intp),
        np.asarray(offsets, np.float32),
    )


def test_a_pencils_hue_is_fitted_only_the_way_its_strokes_darken() -> None:
    # Brown and blue darken the paper's hue in nearly opposite ways: a brown cell's hue lies on
    # blue's line, but on the side no stroke of blue reaches.
    pixels, white, owner, _ = shaded_cell("brown")
    misfit = hue_misfit(pixels, pixels < 0, white, owner, 1)[:, 0]
    brown, blue = (PENCILS.index(p) for p in ("brown", "blue"))
    assert misfit[blue] > 50.0 * misfit[brown]


def test_an_outline_shows_when_half_as_clear_as_on_the_cells_read_as_a_pencil() -> None:
    named = [Read(f"cell (0,{i})", "red", 0.9) for i in range(5)]
    refused = [Read("cell (1,0)", None, 0.0, "cell (1,0): in deep shadow or covered")]
    contrast = np.array([0.04, 0.05, 0.06, 0.07, 0.08, 0.02], np.float32)
    # The named cells' median is 0.06: half of it is 0.03.
    assert outlined_cells(contrast, named + refused).tolist() == [True] * 5 + [False]
    contrast[5] = 0.031
    assert outlined_cells(contrast, named + refused).tolist() == [True] * 6
    # Too few cells read as a pencil to say how clearly the sheet's outlines show.
    assert not outlined_cells(contrast[2:], named[2:] + refused).any()


LIT = PAPER * 0.95


def band_paper_map(shadow: slice) -> PaperMap:
    """The paper map of a bare sheet lit evenly but for a shadow over the columns ``shadow``,
    with a filled band 16 mm wide at columns 150-165 (no paper shows there)."""
    maps = IsleReader().maps(sheet())
    image = np.broadcast_to(LIT, (*maps.shape, 3)).copy()
    image[:, shadow] *= 0.5
    image[:, 150:166] = (40.0, 60.0, 90.0)
    light = paper_light(image, image >= CLIPPED, maps.margin, maps.unprinted)
    assert light is not None
    paper = paper_map(image, image >= CLIPPED, np.ones(maps.shape, bool), light, maps.unprinted)
    assert paper is not None
    return paper


def test_where_no_paper_shows_a_cell_may_be_lit_as_brightly_as_the_paper_nearby() -> None:
    # A shadow over the paper left of a filled band; lit paper 16 mm right of it. The band's
    # white is filled in from the shadow's paper, but it may be lit like the lit paper.
    paper = band_paper_map(slice(60, 150))
    assert paper.white[100, 140] == pytest.approx(0.5 * LIT, rel=0.01)
    # Where paper shows, in the shadow and out of it, its own brightness holds the cell.
    assert paper.brightest[100, 140] == pytest.approx(BRIGHTEST_CELL)
    assert paper.brightest[100, 180] == pytest.approx(BRIGHTEST_CELL)
    brightest = paper.white[100, 154] * paper.brightest[100, 154]
    assert brightest == pytest.approx(BRIGHTEST_CELL * LIT, rel=0.05)


def test_where_no_paper_shows_a_cell_may_be_lit_as_darkly_as_the_paper_nearby() -> None:
    # Lit paper left of a filled band; a shadow over the paper 16 mm right of it. The band's
    # white is filled in from the lit paper, but it may lie in the shadow.
    paper = band_paper_map(slice(166, 240))
    assert paper.white[100, 140] == pytest.approx(LIT, rel=0.01)
    # Where paper shows, in the shadow and out of it, its own brightness holds the cell.
    assert paper.darkest[100, 140] == pytest.approx(SHADED_CELL)
    assert paper.darkest[100, 180] == pytest.approx(SHADED_CELL)
    darkest = paper.white[100, 162] * paper.darkest[100, 162]
    assert darkest == pytest.approx(SHADED_CELL * 0.5 * LIT, rel=0.05)


def test_paper_clipped_in_every_channel_is_at_least_as_bright_as_the_sensors_limit() -> None:
    # Bright paper on the left clipped in every channel, vignetted paper on the right measured:
    # the clipped paper's white is not filled in from the darker paper.
    maps = IsleReader().maps(sheet())
    image = np.broadcast_to(PAPER * 0.8, (*maps.shape, 3)).copy()
    image[:, :130] = 255.0
    light = paper_light(image, image >= CLIPPED, maps.margin, maps.unprinted)
    assert light is not None
    paper = paper_map(image, image >= CLIPPED, np.ones(maps.shape, bool), light, maps.unprinted)
    assert paper is not None
    assert paper.white[100, 60] == pytest.approx(CLIPPED * PAPER / PAPER.min(), rel=0.01)
    assert paper.white[100, 200] == pytest.approx(0.8 * PAPER, rel=0.01)


def noisy(face: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.asarray(np.clip(face + rng.normal(0.0, 3.0, face.shape), 0, 255), np.float32)


def disc(face: np.ndarray, centre: tuple[int, int], radius: int) -> np.ndarray:
    inside = np.zeros(face.shape[:2], np.uint8)
    cv2.circle(inside, centre, radius, 1, -1)
    return inside > 0


def bare_sheet() -> tuple[SheetMaps, np.ndarray, np.ndarray]:
    """An Isle sheet's maps, all of it seen, nothing clipped."""
    maps = IsleReader().maps(sheet())
    return maps, np.ones(maps.shape, bool), np.zeros((*maps.shape, 3), bool)


def blobs_seen(
    image: np.ndarray,
    clipped: np.ndarray,
    maps: SheetMaps,
    reads: list[Read],
    contrast: np.ndarray,
    outlined: np.ndarray,
    found: np.ndarray,
    over: np.ndarray,
) -> np.ndarray:
    """``smooth_blobs`` with all of the sheet seen."""
    smooth = smooth_surface(image, clipped, np.ones(maps.shape, bool), maps)
    return smooth_blobs(image, clipped, maps, reads, contrast, outlined, found, over, smooth)


def covered_seen(
    over: np.ndarray,
    reaching: np.ndarray,
    image: np.ndarray,
    clipped: np.ndarray,
    maps: SheetMaps,
    reads: list[Read],
    edges: np.ndarray,
    outlined: np.ndarray,
    rims: np.ndarray | None = None,
) -> np.ndarray:
    """``covered_cells`` with all of the sheet seen (``rims``: where found cups lie, by their
    rims; none if not given)."""
    smooth = smooth_surface(image, clipped, np.ones(maps.shape, bool), maps)
    cups = np.zeros(maps.shape, bool) if rims is None else rims
    return covered_cells(over, reaching, cups, image, clipped, maps, reads, edges, outlined, smooth)


def found_over(
    image: np.ndarray,
    clipped: np.ndarray,
    seen: np.ndarray,
    maps: SheetMaps,
    hands: np.ndarray | None = None,
) -> np.ndarray:
    """Where smooth surfaces are found over the sheet, its paper white ``PAPER`` (``hands``:
    where hands were found reaching in from the margin; none by default)."""
    smooth = smooth_surface(image, clipped, seen, maps)
    if hands is None:
        hands = np.zeros(maps.shape, bool)
    return smooth_objects(image, clipped, seen, PAPER, maps, smooth, hands)


def traced(
    image: np.ndarray,
    clipped: np.ndarray,
    seen: np.ndarray,
    maps: SheetMaps,
    bounded: tuple[bool, bool, bool] = (False, False, False),
) -> np.ndarray:
    """Where something is traced from the sheet's margin, its paper white ``PAPER`` (only
    ``bounded`` in some channels)."""
    smooth = smooth_surface(image, clipped, seen, maps)
    return covering(image, clipped, PAPER, np.array(bounded), seen, maps, smooth)


def assert_found_just(found: np.ndarray, thing: np.ndarray) -> None:
    """All of ``thing`` found but its very edge (rough where it meets the sheet), and nothing
    beyond it."""
    within = cv2.erode(thing.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    beyond = cv2.dilate(thing.astype(np.uint8), np.ones((9, 9), np.uint8)) == 0
    assert found[within].all()
    assert not found[beyond].any()


def test_a_smooth_thing_on_the_margin_covers_what_it_reaches_and_strokes_there_do_not() -> None:
    # A hand over the margin at the top edge, reaching into the cells below it.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    hand = disc(face, (130, 0), 30)
    assert (hand & maps.margin).sum() > 300 and (hand & (maps.whole >= 0)).sum() > 300
    with_hand = face.copy()
    with_hand[hand] = (95.0, 130.0, 190.0)
    found = traced(noisy(with_hand, 1), clear, seen, maps)
    assert (
        found[hand].mean() > 0.95
        and not found[cv2.dilate(hand.astype(np.uint8), np.ones((9, 9))) == 0].any()
    )
    # Strokes of the same colour there, paper between them, are not a thing lying over it.
    rows, columns = np.indices(face.shape[:2])
    strokes = hand & ((rows + columns) // 2 % 3 != 0)
    with_strokes = face.copy()
    with_strokes[strokes] = (95.0, 130.0, 190.0)
    assert not traced(noisy(with_strokes, 1), clear, seen, maps).any()


def test_a_hand_touching_a_cup_on_the_margin_is_traced_by_its_own_colour() -> None:
    # A blue cup and a hand against it, both over the margin at the top edge: there they are
    # one region of two colours, most of it the cup's. Each is traced into the island.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    cup = disc(face, (100, -5), 40)
    hand = disc(face, (160, 12), 22) & ~cup
    island = maps.whole >= 0
    assert (cup & maps.margin).sum() > (hand & maps.margin).sum()
    assert (hand & island).sum() > 300
    with_both = face.copy()
    with_both[cup] = (170.0, 120.0, 80.0)
    with_both[hand] = (95.0, 130.0, 190.0)
    found = traced(noisy(with_both, 1), clear, seen, maps)
    assert found[cup].mean() > 0.95 and found[hand & island].mean() > 0.95
    assert not found[cv2.dilate((cup | hand).astype(np.uint8), np.ones((9, 9))) == 0].any()


def test_a_hand_shaded_darker_on_one_side_is_traced_whole() -> None:
    # A hand over the margin at the top edge, its left third in its own shade, 0.33 darker (log
    # units) than the rest: too dark to be traced with it, but a second colour of its own.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    hand = disc(face, (130, 0), 40)
    shaded = hand & (np.indices(face.shape[:2])[1] < 115)
    island = maps.whole >= 0
    with_hand = face.copy()
    with_hand[hand] = (95.0, 130.0, 190.0)
    with_hand[shaded] = (68.0, 94.0, 137.0)
    found = traced(noisy(with_hand, 1), clear, seen, maps)
    assert found[hand & ~shaded & island].mean() > 0.95
    assert found[shaded & island].mean() > 0.9
    assert not found[cv2.dilate(hand.astype(np.uint8), np.ones((9, 9))) == 0].any()


def test_a_shadow_on_the_margin_is_not_traced_for_the_red_a_bounded_white_lacks() -> None:
    # A warm light clips the paper's red wherever it is lit: its white in red is only a bound,
    # here a tenth too low. In a shadow on the margin the red is measured, the paper's own.
    maps, seen, _ = bare_sheet()
    face = hatched_face(5)
    shadow = disc(face, (130, 0), 30)
    lit = np.broadcast_to(PAPER * (1.0, 1.0, 1.3), face.shape)
    bare = np.all(face == face[0, 0], axis=2)
    face[bare] = np.minimum(lit[bare], 255.0)
    face[shadow] = PAPER * 0.6 * (1.0, 1.0, np.exp(0.1))
    image = noisy(face, 1)
    clipped = np.zeros(face.shape, bool)
    clipped[:, :, 2] = image[:, :, 2] >= 248.0
    assert clipped[bare & ~shadow, 2].mean() > 0.9 and not clipped[shadow, 2].any()
    # Against a white known in every channel, its hue is foreign, and it is traced as a thing.
    assert traced(image, clipped, seen, maps)[shadow].mean() > 0.9
    # Against the bound, it is the paper's as closely as the bound is known.
    assert not traced(image, clipped, seen, maps, (False, False, True)).any()


def test_a_hand_traced_from_the_margin_stops_where_hatching_of_its_colour_begins() -> None:
    # A hand over the margin at the top edge; below it, strokes of its very colour, 2 mm wide
    # with paper between them, reach on 30 mm into the island, joined to it stroke by stroke.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    hand = disc(face, (130, 0), 30)
    rows, columns = np.indices(face.shape[:2])
    strip = (np.abs(columns - 130) < 12) & (rows >= 28) & (rows < 60)
    strokes = strip & ((rows + columns) % 3 != 0)
    with_hand = face.copy()
    with_hand[hand | strokes] = (95.0, 130.0, 190.0)
    found = traced(noisy(with_hand, 1), clear, seen, maps)
    assert found[hand].mean() > 0.95
    assert not found[strip & (rows >= 32)].any()
    # A solid band of its colour 5 mm wide (a cup's side seen beside its rim) is traced on.
    band = (np.abs(columns - 130) < 3) & (rows >= 28) & (rows < 60)
    with_band = face.copy()
    with_band[hand | band] = (95.0, 130.0, 190.0)
    assert traced(noisy(with_band, 1), clear, seen, maps)[band].all()


def test_a_smooth_cup_over_the_island_is_found_and_a_shadow_is_not() -> None:
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    cup = disc(face, (130, 100), 32)
    with_cup = face.copy()
    with_cup[cup] = (150.0, 90.0, 40.0)  # a blue cup, seen from above
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    assert_found_just(found, cup)
    # A soft shadow as dark as the cup: the printed outlines show through it.
    shade = cv2.GaussianBlur(cup.astype(np.float32), (0, 0), 4.0)
    shadowed = face * (1.0 - 0.5 * shade)[:, :, None]
    assert not found_over(noisy(shadowed, 2), clear, seen, maps).any()


def test_a_large_cup_shaded_faintly_along_the_printed_lines_is_still_found() -> None:
    # Over a cup's body thousands of pixels large, the slightest shading along the printed
    # lines is significant (blur ties neighbouring pixels together); only outlines that stand
    # out on every pixel as much as hatching shows them mean cells there.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    cup = disc(face, (130, 100), 40)
    inside = cv2.erode(cup.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0

    def with_lines(darker: float) -> np.ndarray:
        with_cup = face.copy()
        shade = 1.0 - darker * maps.grid / maps.grid.max()
        with_cup[cup] = np.array([150.0, 90.0, 40.0]) * shade[cup][:, None]
        return found_over(noisy(with_cup, 1), clear, seen, maps)

    assert with_lines(0.02)[inside].all()  # 2 %: significant, but faint
    assert not with_lines(0.1)[inside].any()  # 10 %: as clear as through hatching


def test_a_cups_side_and_its_coffee_are_one_thing_though_each_is_small() -> None:
    # Each half alone is smaller than a cup; parted only by the edge between their colours,
    # they are one thing over the sheet.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    cup = disc(face, (130, 100), 28)
    side = cup & (np.arange(face.shape[1]) < 130)[None, :]
    with_cup = face.copy()
    with_cup[side] = (150.0, 90.0, 40.0)
    with_cup[cup & ~side] = (40.0, 60.0, 90.0)
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    within = (cv2.erode(cup.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0) & (
        np.abs(np.arange(face.shape[1]) - 130) > 4
    )[None, :]
    beyond = cv2.dilate(cup.astype(np.uint8), np.ones((9, 9), np.uint8)) == 0
    assert found[within].all()
    assert not found[beyond].any()
    side_alone = face.copy()
    side_alone[side] = (150.0, 90.0, 40.0)
    assert not found_over(noisy(side_alone, 1), clear, seen, maps).any()


def red_cup_with_side(
    face: np.ndarray, centre: tuple[int, int], side: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``face`` with a red cup of coffee at ``centre``, its rim rough (striped), and the part
    ``side`` of its side showing; and where its coffee is."""
    coffee = disc(face, centre, 24)
    rim = disc(face, centre, 30) & ~coffee
    rows, columns = np.indices(face.shape[:2])
    stripes = (rows + columns) // 2 % 2 == 0
    with_cup = face.copy()
    with_cup[coffee] = (40.0, 60.0, 90.0)
    with_cup[rim & stripes] = (60.0, 60.0, 170.0)
    with_cup[rim & ~stripes] = (200.0, 200.0, 230.0)
    with_cup[side] = (60.0, 60.0, 170.0)
    return with_cup, coffee


def test_a_sliver_of_a_cups_side_across_its_rough_rim_is_part_of_the_cup() -> None:
    # The side shows only as a sliver smaller than a part of a cup, parted from the coffee by
    # the rim's rough edges; it lies across several cells and hides their outlines.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    cup = disc(face, (130, 100), 44)
    side = cup & ~disc(face, (130, 100), 30) & (np.arange(face.shape[1]) < 104)[None, :]
    with_cup, coffee = red_cup_with_side(face, (130, 100), side)
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    assert found[cv2.erode(side.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0].all()
    assert found[cv2.erode(coffee.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0].all()
    assert not found[cv2.dilate(cup.astype(np.uint8), np.ones((9, 9), np.uint8)) == 0].any()
    side_alone = face.copy()
    side_alone[side] = (60.0, 60.0, 170.0)
    assert not found_over(noisy(side_alone, 1), clear, seen, maps).any()


def test_a_tinted_sliver_of_a_cups_side_lying_on_the_margin_is_part_of_the_cup() -> None:
    # The cup stands at the island's edge: the sliver of its side across the rim lies over two
    # cells only, most of it beyond them, where no hatching reaches.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    centre = (130, 52)
    cup = disc(face, centre, 44)
    rows, columns = np.indices(face.shape[:2])
    side = cup & ~disc(face, centre, 30) & (rows < 26) & (np.abs(columns - centre[0]) < 16)
    assert LEAST_SIDE <= side.sum() < LEAST_PART and not _across_cells(side, maps)
    assert (side & (maps.whole < 0)).sum() >= BEYOND_ISLAND * side.sum()
    with_cup, _ = red_cup_with_side(face, centre, side)
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    assert found[cv2.erode(side.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0].all()
    assert not found[cv2.dilate(cup.astype(np.uint8), np.ones((9, 9), np.uint8)) == 0].any()
    # Of the paper's hue, it may be a shadow on the margin: no grid shows there to tell.
    with_cup[side] = PAPER * 0.8
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    assert not found[side].any()


@pytest.mark.parametrize("shade, found", [(0.85, True), (1.0, False), (0.6, False)])
def test_a_white_sliver_of_a_cups_side_over_two_cells_is_part_of_the_cup_when_shaded(
    shade: float, found: bool
) -> None:
    # The side shows only as a sliver over two cells beside the rim, too small to be a thing
    # alone. Shaded darker than the paper, it is the cup's; lit as the paper, it may be bare
    # paper between the outlines; darker than a white cup's side, a shadow.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    centre = (130, 100)
    rows, columns = np.indices(face.shape[:2])
    side = disc(face, centre, 46) & ~disc(face, centre, 30)
    side &= (np.abs(columns - 110) < 16) & (np.abs(rows - 70) < 12)
    assert LEAST_SIDE <= side.sum() < LEAST_PART and not _across_cells(side, maps)
    assert _across_cells(side, maps, 2) and (side & (maps.whole < 0)).sum() == 0
    with_cup, _ = red_cup_with_side(face, centre, side)
    with_cup[side] = PAPER * shade
    got = found_over(noisy(with_cup, 1), clear, seen, maps)
    if found:
        assert got[cv2.erode(side.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0].all()
    else:
        assert not got[side].any()


def test_a_cups_side_across_its_rim_from_coffee_on_the_margin_is_part_of_the_cup() -> None:
    # The cup stands at the sheet's corner: its coffee lies on the margin, where no grid shows
    # to tell it from a shadow, and its side over the cells beside is too small a part to be a
    # thing alone.
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    centre = (20, 190)
    side = disc(face, (45, 165), 24) & ~disc(face, centre, 30)
    with_cup, coffee = red_cup_with_side(face, centre, side)
    assert not (coffee & maps.on_line).any()
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    assert found[cv2.erode(side.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0].all()
    cup = side | disc(face, centre, 30)
    assert not found[cv2.dilate(cup.astype(np.uint8), np.ones((9, 9), np.uint8)) == 0].any()
    # Without the cup, the side alone is nothing.
    side_alone = face.copy()
    side_alone[side] = (60.0, 60.0, 170.0)
    assert not found_over(noisy(side_alone, 1), clear, seen, maps).any()


def test_what_hatching_of_a_cups_colour_joins_is_the_cup_where_no_outline_shows() -> None:
    # One smooth part: a cup over the cells on the left, red hatching blurred as smooth beside it
    # on the right, its outlines standing out.
    maps, _, _ = bare_sheet()
    noise = np.random.default_rng(3).normal(0.0, 0.002, maps.shape).astype(np.float32)
    part = np.zeros(maps.shape, bool)
    part[60:140, 60:180] = True
    hatching = np.isin(maps.whole, np.flatnonzero(maps.centres[:, 0] > 150))
    lines = noise + 0.05 * maps.line_grid * hatching
    beneath = _beneath_hatching(lines, part, maps)
    assert beneath is not None
    assert not (beneath & hatching).any()
    assert (beneath == part & ~hatching).mean() > 0.999  # but a cell at its edge
    # Outlines showing faintly all over it are hatching blurred, not a cup.
    assert _beneath_hatching(lines + 0.01 * maps.line_grid, part, maps) is None
    # Nor is a rest too small to be a thing.
    assert _beneath_hatching(lines, part & (np.indices(maps.shape)[1] > 145), maps) is None


def test_a_faint_showing_over_whole_cells_is_not_cancelled_by_the_parts_edge() -> None:
    # A round part: red hatching on its right, its outlines standing out; on the left, cells
    # lying mostly within it show theirs faintly (0.3 of the noise), and the fragments of cells
    # its edge crosses show theirs darker than not at all, so that over the whole rest the
    # outlines show not at all.
    maps, _, _ = bare_sheet()
    noise = np.random.default_rng(3).normal(0.0, 0.002, maps.shape).astype(np.float32)
    rows, columns = np.indices(maps.shape)
    part = (rows - 100) ** 2 + (columns - 110) ** 2 < 45**2
    cells, within = maps.areas, pixels_per_cell(part, maps)
    hatched = np.flatnonzero(maps.centres[:, 0] > 135)
    whole = np.setdiff1d(np.flatnonzero(within >= 0.5 * cells), hatched)
    crossed = np.setdiff1d(np.flatnonzero((within > 0) & (within < 0.5 * cells)), hatched)
    faint, shaded = (maps.on_line & part & np.isin(maps.whole, k) for k in (whole, crossed))

    def showing(over_whole: float) -> np.ndarray:
        cancelled = -over_whole * faint.sum() / shaded.sum()
        strong = maps.on_line & np.isin(maps.whole, hatched)
        return np.asarray(noise + 0.01 * strong + over_whole * faint + cancelled * shaded)

    # A cup over the left, its edge shading the lines beside it: the rest is the cup.
    cup = _beneath_hatching(showing(0.0), part, maps)
    assert cup is not None
    assert cup[part & np.isin(maps.whole, whole)].all()
    assert not (cup & np.isin(maps.whole, hatched[within[hatched] >= 0.5 * cells[hatched]])).any()
    # Hatching all over it, blurred.
    assert _beneath_hatching(showing(0.0006), part, maps) is None


@pytest.mark.parametrize(
    "strength, hides",
    [
        (0.0, True),
        (0.9 * SIDE_GRID, True),
        (1.1 * SIDE_GRID, False),
        (1.0, False),
        (-0.9 * SEAMS_GRID, True),
        (-1.1 * SEAMS_GRID, False),
    ],
)
def test_a_part_hides_the_grid_unless_it_shows_it_or_strongly_inverted(
    strength: float, hides: bool
) -> None:
    # A cup's side, shaded unevenly, meets the grid's pattern weakly either way; bare seams
    # between hatched cells show it inverted, and strongly.
    maps, _, _ = bare_sheet()
    lit = (0.05, 40.0)  # slope, t: the grid on lit bare paper
    noise = np.random.default_rng(3).normal(0.0, 0.002, maps.shape).astype(np.float32)
    lines = strength * lit[0] * maps.line_grid + noise
    part = np.zeros(maps.shape, bool)
    part[60:120, 60:160] = True
    assert _hides_grid(lines, maps.line_grid, part, maps, lit) is hides


def test_in_a_blurred_photo_a_white_cup_is_found_and_a_shadow_is_not() -> None:
    # Blurred, the printed outlines are faint everywhere; a white cup hides them altogether, a
    # shadow only darkens them with the paper.
    maps, seen, clear = bare_sheet()
    face = np.asarray(cv2.GaussianBlur(hatched_face(5), (0, 0), 2.0), np.float32)
    cup = disc(face, (130, 100), 30)
    with_cup = face.copy()
    with_cup[cup] = PAPER * 0.75  # as plain as paper, in its shade
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    assert_found_just(found, cup)
    shade = cv2.GaussianBlur(cup.astype(np.float32), (0, 0), 4.0)
    shadowed = face * (1.0 - 0.5 * shade)[:, :, None]
    assert not found_over(noisy(shadowed, 2), clear, seen, maps).any()


def hand_above(face: np.ndarray, centre: tuple[int, int], radius: int, gap: int) -> np.ndarray:
    """Where a hand was found reaching in from above, ``gap`` mm from a disc's top."""
    hand = np.zeros(face.shape[:2], bool)
    hand[: centre[1] - radius - gap, centre[0] - radius : centre[0] + radius] = True
    return hand


@pytest.mark.parametrize("strength", [0.5, 0.6, 0.65])
def test_beside_a_hand_a_deep_shadow_blur_leaves_no_grid_in_is_not_taken_for_a_thing(
    strength: float,
) -> None:
    # Blurred this much, the printed outlines hardly show through a shadow as deep as a hand
    # casts (taking up to 65 % of the light: at 70 %, 1.2 darker, it is as dark as a black
    # thing); beside the hand, it is darker than any thing as plain as paper is.
    maps, seen, clear = bare_sheet()
    face = np.asarray(cv2.GaussianBlur(hatched_face(5), (0, 0), 4.0), np.float32)
    centre, radius = (130, 100), 30
    shadow = cv2.GaussianBlur(disc(face, centre, radius).astype(np.float32), (0, 0), 4.0)
    shadowed = noisy(face * (1.0 - strength * shadow)[:, :, None], 2)
    assert found_over(shadowed, clear, seen, maps).sum() > 1000  # alone: taken for a thing
    assert not found_over(shadowed, clear, seen, maps, hand_above(face, centre, radius, 2)).any()
    # Farther from the hand than its shadow falls, it is judged as any other part.
    assert found_over(shadowed, clear, seen, maps, hand_above(face, centre, radius, 30)).any()


def towards_top(face: np.ndarray, centre: tuple[int, int], radius: int) -> np.ndarray:
    """Per pixel, 0 at a disc's bottom rising to 1 at its top (clipped beyond)."""
    rows = np.arange(face.shape[0], dtype=np.float32)[:, None]
    ramp = (centre[1] + radius - rows) / (2.0 * radius)
    return np.asarray(np.broadcast_to(np.clip(ramp, 0.0, 1.0), face.shape[:2]), np.float32)


@pytest.mark.parametrize("depth, alone", [(0.6, True), (0.5, False)])
def test_beside_a_hand_a_penumbra_darkening_towards_it_is_its_shadow(
    depth: float, alone: bool
) -> None:
    # Half of it lighter than a white cup's inside, so not deep as a whole; but its lightest
    # tenth is nearly lit paper, its darkest as deep as a shadow (or, where the shadow takes at
    # most half the light, only as deep as a white cup's inside), and lies by the hand. Alone,
    # the deeper one is taken for a thing; the shallower one was too, before the sheet printed
    # its cells' dots (taken out before it is read, they leave the hatching a little smoother).
    maps, seen, clear = bare_sheet()
    face = np.asarray(cv2.GaussianBlur(hatched_face(5), (0, 0), 4.0), np.float32)
    centre, radius = (130, 100), 30
    shadow = cv2.GaussianBlur(disc(face, centre, radius).astype(np.float32), (0, 0), 4.0)
    fading = depth * towards_top(face, centre, radius) * shadow
    shadowed = noisy(face * (1.0 - fading)[:, :, None], 2)
    assert (found_over(shadowed, clear, seen, maps).sum() > 1000) == alone
    assert not found_over(shadowed, clear, seen, maps, hand_above(face, centre, radius, 2)).any()


def test_a_grey_thing_shaded_darker_away_from_a_hand_is_found_beside_it() -> None:
    # Shaded from the paper's white to 0.4 of it, as a penumbra fades, but darkest away from
    # the hand: its shading follows the light, not the hand.
    maps, seen, clear = bare_sheet()
    face = np.asarray(cv2.GaussianBlur(hatched_face(5), (0, 0), 4.0), np.float32)
    centre, radius = (130, 100), 30
    thing = disc(face, centre, radius)
    level = 0.4 + 0.6 * towards_top(face, centre, radius)
    face[thing] = PAPER * level[thing][:, None]
    photo = noisy(face, 1)
    alone = found_over(photo, clear, seen, maps)
    assert alone[thing].mean() > 0.85
    beside = found_over(photo, clear, seen, maps, hand_above(face, centre, radius, 2))
    assert np.array_equal(beside, alone)


@pytest.mark.parametrize(
    "blur, grey",
    [
        (4.0, 0.7),  # a white cup's inside: lighter than a shadow
        (4.0, 0.25),  # darker than a shadow
        (0.0, 0.4),  # sharp: the grid it hides would show
        (1.0, 0.4),
    ],
)
def test_a_grey_thing_beside_a_hand_is_found_unless_dark_as_a_shadow_where_no_grid_shows(
    blur: float, grey: float
) -> None:
    maps, seen, clear = bare_sheet()
    face = hatched_face(5)
    if blur:
        face = np.asarray(cv2.GaussianBlur(face, (0, 0), blur), np.float32)
    centre, radius = (130, 100), 30
    thing = disc(face, centre, radius)
    face[thing] = PAPER * grey
    photo = noisy(face, 1)
    alone = found_over(photo, clear, seen, maps)
    assert alone[thing].mean() > 0.85
    beside = found_over(photo, clear, seen, maps, hand_above(face, centre, radius, 2))
    assert np.array_equal(beside, alone)


@pytest.mark.parametrize("strength, shows", [(0.0, False), (0.45, False), (0.6, True), (1.0, True)])
def test_a_shadow_over_few_outlines_shows_the_grid_however_little_significantly(
    strength: float, shows: bool
) -> None:
    # A shadow cast on the margin reaches over the edge of one cell: few outlines lie in it, so
    # the grid shows there with little significance, however clearly.
    maps, _, _ = bare_sheet()
    rows, cols = np.nonzero(maps.whole == maps.names.index("cell (3,0)"))
    part = np.zeros(maps.shape, bool)
    part[rows.min() - 10 : rows.max() + 10, : cols.min() + 8] = True
    grid, lit = maps.line_grid, 0.05  # lit: the grid's slope on lit bare paper
    # Noise clear of the outlines only, so that the grid at 0.6 of its lit strength shows at t 2.
    noise = np.random.default_rng(5).normal(0.0, 1.0, maps.shape).astype(np.float32)
    noise *= maps.off_line
    clear = part & maps.off_line
    noise *= 0.6 * lit * np.sqrt(float(grid[part] @ grid[part])) / 2.0 / float(noise[clear].std())
    lines = strength * lit * grid + noise
    response = _grid_response(lines, grid, part, maps)
    assert response is not None and response[1] == pytest.approx(2.0 * strength / 0.6, abs=0.1)
    assert _shadow_shows_grid(lines, grid, part, maps, lit) is shows


def test_a_white_cup_as_bright_as_the_paper_is_found_by_the_grid_it_hides() -> None:
    # Printed outlines sharp enough to part the bare cells' insides from one another.
    maps, seen, clear = bare_sheet()
    face = np.asarray(PAPER * (1.0 - 0.3 * maps.grid / maps.grid.max())[:, :, None], np.float32)
    assert not found_over(noisy(face, 1), clear, seen, maps).any()
    # A white cup's side lit as the paper is: neither tinted nor darker, but no outline shows
    # through it. Found but its very edge, with at most the insides of the bare cells it reaches
    # into.
    cup = disc(face, (130, 100), 30)
    with_cup = face.copy()
    with_cup[cup] = PAPER
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    assert found[cv2.erode(cup.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0].all()
    assert not found[~disc(face, (130, 100), 30 + 21)].any()
    # Paper at the sensor's limit is as smooth and hides the outlines too: not a cup.
    glare = noisy(face, 1)
    glare[cup] = 255.0
    clipped = np.zeros((*maps.shape, 3), bool)
    clipped[cup] = True
    assert not found_over(glare, clipped, seen, maps).any()


def test_a_white_cups_shaded_side_is_darker_in_the_channels_measured_on_clipped_paper() -> None:
    # A warm light: the paper's red is beyond the sensor's limit (but on the printed lines), and
    # so is a white cup's side in its own shade, 0.14 darker than the paper in blue and green.
    # Averaged with the clipped red, it is only 0.09 darker: as plain as paper.
    maps, seen, _ = bare_sheet()
    warm = PAPER * np.array([0.8, 0.95, 1.1], np.float32)
    face = np.asarray(warm * (1.0 - 0.3 * maps.grid / maps.grid.max())[:, :, None], np.float32)
    cup = disc(face, (130, 100), 30)
    with_cup = face.copy()
    with_cup[cup] = warm * np.array([0.87, 0.87, 1.0], np.float32)
    image = np.minimum(noisy(with_cup, 1), 255.0)
    clipped = image >= CLIPPED
    assert clipped[maps.margin, 2].mean() > 0.9 and clipped[cup, 2].all()
    found = found_over(image, clipped, seen, maps)
    assert found[cv2.erode(cup.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0].all()
    assert not found[~disc(face, (130, 100), 30 + 21)].any()


def test_a_white_cups_side_shaded_from_dark_to_barely_darker_is_found_whole() -> None:
    # Lit from one side, a white cup's side 40 mm across passes from 0.14 darker than the paper
    # to 0.06: cut where it is 0.1 darker, each half is smaller than a part of a thing.
    maps, seen, clear = bare_sheet()
    face = np.asarray(PAPER * (1.0 - 0.3 * maps.grid / maps.grid.max())[:, :, None], np.float32)
    cup = disc(face, (130, 100), 20)
    assert LEAST_PART * 2 > cup.sum() > LEAST_OBJECT
    columns = np.indices(face.shape[:2])[1]
    darker = 0.14 - 0.08 * np.clip((columns - 110) / 40.0, 0.0, 1.0)
    with_cup = face.copy()
    with_cup[cup] = PAPER * np.exp(-darker[cup])[:, None]
    found = found_over(noisy(with_cup, 1), clear, seen, maps)
    assert found[cv2.erode(cup.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0].all()
    assert not found[~disc(face, (130, 100), 20 + 21)].any()


def test_one_hue_ends_where_another_begins_but_not_in_shade_or_in_the_dark() -> None:
    # A yellow cup beside red hatching blurred smooth: an edge between them. A cup's side
    # shaded from one end to the other, or its coffee in noise, has none.
    face = np.zeros((60, 120, 3), np.float32)
    face[:, :60] = (90.0, 170.0, 200.0)
    face[:, 60:] = (70.0, 70.0, 190.0)
    face[:, :, :] *= np.linspace(1.0, 0.6, 120, dtype=np.float32)[None, :, None]
    face = np.asarray(cv2.GaussianBlur(face, (0, 0), 1.5), np.float32)
    edges = hue_edges(face)
    assert edges[:, 58:62].all()
    assert not edges[:, :54].any() and not edges[:, 66:].any()
    assert not hue_edges(noisy(np.full((60, 120, 3), (25.0, 45.0, 70.0), np.float32), 3)).any()


def hue_edges(image: np.ndarray) -> np.ndarray:
    blue, green, red = log_planes(image)
    return _hue_edges((blue - green, red - green), (blue + green + red) / 3.0)


def rimmed_cup(face: np.ndarray, rim: tuple[float, float, float]) -> tuple[np.ndarray, ...]:
    """``face`` with a cup's coffee 36 mm across and its rim (colour ``rim``) a wall's thickness
    wide around it; the coffee, the rim's whole disc, and what lies clear of it."""
    coffee = disc(face, (130, 100), 36)
    whole = disc(face, (130, 100), round(36 * WALL))
    with_cup = face.copy()
    with_cup[whole] = rim
    with_cup[coffee] = (25.0, 45.0, 70.0)
    beyond = ~disc(face, (130, 100), round(36 * WALL + BLUR_MM) + 1)
    return noisy(with_cup, 1), coffee, whole, beyond


@pytest.mark.parametrize(
    "rim", [(150.0, 90.0, 40.0), (90.0, 170.0, 200.0), tuple(float(v) for v in PAPER * 0.95)]
)
def test_a_cups_rim_around_its_coffee_is_found_with_it(rim: tuple[float, float, float]) -> None:
    # Blue, yellow, or white (as plain as the paper around): a ring of one colour.
    _, seen, _ = bare_sheet()
    image, coffee, whole, beyond = rimmed_cup(hatched_face(5), rim)
    found = cup_rims(coffee, seen, image, PAPER)
    assert found[whole].all()
    assert not found[beyond].any()


def test_a_cups_coffee_found_joined_to_a_hand_has_its_rim_found() -> None:
    # A hand touching the cup is found with its coffee as one thing, whose outline follows the
    # coffee's circle only in part: no circle fits the whole outline.
    _, seen, _ = bare_sheet()
    image, coffee, whole, beyond = rimmed_cup(hatched_face(5), (60.0, 60.0, 170.0))
    hand = np.zeros(coffee.shape, np.uint8)
    cv2.ellipse(hand, (180, 100), (30, 14), 0, 0, 360, 1, -1)
    hand = (hand > 0) & ~coffee
    image = image.copy()
    image[hand] = (95.0, 130.0, 190.0)
    found = cup_rims(coffee | hand, seen, image, PAPER)
    assert found[whole].all()
    assert not found[beyond & ~hand].any()


def test_a_cups_rim_is_found_where_part_of_it_was_found_with_the_coffee() -> None:
    # The rim's left half, lit alike, was found smooth with the coffee: the outline found bulges
    # to the rim's edge there, and the circle fitted to it lies off the coffee's edge. In a
    # blurred photo the ring beside that circle would be part rim, part coffee.
    _, seen, _ = bare_sheet()
    image, coffee, whole, beyond = rimmed_cup(hatched_face(5), (90.0, 170.0, 200.0))
    image = np.asarray(cv2.GaussianBlur(image, (0, 0), 1.2), np.float32)
    cols = np.arange(coffee.shape[1])[None, :]
    found = cup_rims(coffee | (whole & (cols < 130)), seen, image, PAPER)
    assert found[whole].all()
    assert not found[beyond].any()


def test_a_hand_with_a_round_palm_ringed_by_hatching_and_paper_has_no_rim() -> None:
    _, seen, _ = bare_sheet()
    face = hatched_face(5)
    hand = disc(face, (130, 100), 36)
    for finger in range(4):
        hand[40:80, 100 + 18 * finger : 110 + 18 * finger] = True
    with_hand = face.copy()
    with_hand[hand] = (95.0, 130.0, 190.0)
    assert not cup_rims(hand, seen, noisy(with_hand, 1), PAPER).any()


def test_a_round_hand_ringed_by_hatching_and_paper_has_no_rim() -> None:
    _, seen, _ = bare_sheet()
    face = hatched_face(5)
    hand = disc(face, (130, 100), 36)
    with_hand = face.copy()
    with_hand[hand] = (95.0, 130.0, 190.0)
    assert not cup_rims(hand, seen, noisy(with_hand, 1), PAPER).any()


def test_a_round_hand_darkening_towards_its_edge_has_no_rim_within_it() -> None:
    # Its edge turns away from the light: no circle inside it is where a brighter ring begins.
    _, seen, _ = bare_sheet()
    face = hatched_face(5)
    hand = disc(face, (130, 100), 36)
    inside = cv2.distanceTransform(hand.astype(np.uint8), cv2.DIST_L2, 5)
    shade = 0.72 + 0.28 * np.clip(inside / 25.0, 0.0, 1.0)
    with_hand = face.copy()
    with_hand[hand] = shade[hand][:, None] * np.array([95.0, 130.0, 190.0], np.float32)
    image = np.asarray(cv2.GaussianBlur(noisy(with_hand, 1), (0, 0), 1.2), np.float32)
    assert not cup_rims(hand, seen, image, PAPER).any()


@pytest.mark.parametrize(
    ("unseen", "shift", "depth"),
    [(slice(0, 0), (6, 0), 0.6), (slice(150, None), (0, 10), 0.6), (slice(150, None), (6, 0), 0.3)],
    ids=["whole", "cut-shadow-below", "cut-shadow-faint"],
)
def test_a_round_hand_ringed_by_its_own_shadow_has_no_rim(
    unseen: slice, shift: tuple[int, int], depth: float
) -> None:
    # Beyond its darkening edge lies its shadow, cast aside of it, then the paper: the light
    # rises again there, but only after falling below the hand's; a rim rises from its inside.
    _, seen, _ = bare_sheet()
    face = hatched_face(5)
    face[disc(face, (130, 100), 70)] = PAPER
    shadow = disc(face, (130 + shift[0], 100 + shift[1]), 38).astype(np.float32)
    face *= 1.0 - depth * cv2.GaussianBlur(shadow, (0, 0), 3.0)[:, :, None]
    hand = disc(face, (130, 100), 36)
    inside = cv2.distanceTransform(hand.astype(np.uint8), cv2.DIST_L2, 5)
    shade = 0.72 + 0.28 * np.clip(inside / 25.0, 0.0, 1.0)
    face[hand] = shade[hand][:, None] * np.array([120.0, 160.0, 220.0], np.float32)
    image = np.asarray(cv2.GaussianBlur(noisy(face, 1), (0, 0), 1.2), np.float32)
    cut = seen.copy()
    cut[:, unseen] = False
    assert not cup_rims(hand & cut, cut, image, PAPER).any()


@pytest.mark.parametrize(
    "unseen",
    [slice(124, None), slice(112, None), slice(200, None), slice(None, 118)],
    ids=["short-of-middle", "a-third", "beyond", "two-thirds"],
)
def test_a_cup_cut_by_the_photos_edge_is_found_by_the_part_of_its_rim_in_view(
    unseen: slice,
) -> None:
    # The photo ends a little short of the cup's middle (at column 124), with a third of its rim
    # in view (112), or beyond the cup (200); or begins with two thirds of it in view (118).
    _, seen, _ = bare_sheet()
    image, coffee, whole, beyond = rimmed_cup(hatched_face(5), (150.0, 90.0, 40.0))
    cut = seen.copy()
    cut[:, unseen] = False
    found = cup_rims(coffee & cut, cut, image, PAPER)
    assert found[whole & cut].all()
    assert not found[beyond].any()


def test_a_cut_cups_rim_is_found_where_part_of_it_was_found_with_the_coffee() -> None:
    # Two fifths of the rim in view, and the part of it found with the coffee bulges the
    # outline: the circle is fitted again to the inside's edge, along the rays in view.
    _, seen, _ = bare_sheet()
    image, coffee, whole, beyond = rimmed_cup(hatched_face(5), (150.0, 90.0, 40.0))
    image = np.asarray(cv2.GaussianBlur(image, (0, 0), 1.2), np.float32)
    cut = seen.copy()
    cut[:, 118:] = False
    cols = np.arange(coffee.shape[1])[None, :]
    found = cup_rims((coffee | (whole & (cols < 100))) & cut, cut, image, PAPER)
    assert found[whole & cut].all()
    assert not found[beyond].any()


def test_a_round_thing_cut_by_the_photos_edge_ringed_as_plain_as_paper_is_no_cup() -> None:
    # A hand over a corner, round where it shows, the bare margin around it; a cup's white rim,
    # so cut, is not told from that.
    _, seen, _ = bare_sheet()
    cut = seen.copy()
    cut[:, 124:] = False
    face = hatched_face(5)
    face[disc(face, (130, 100), 60)] = PAPER
    hand = disc(face, (130, 100), 36)
    with_hand = face.copy()
    with_hand[hand] = (95.0, 130.0, 190.0)
    assert not cup_rims(hand & cut, cut, noisy(with_hand, 1), PAPER).any()
    blue, green, red = (float(v) for v in PAPER * 0.95)
    image, coffee, _, _ = rimmed_cup(face, (blue, green, red))
    assert not cup_rims(coffee & cut, cut, image, PAPER).any()
    # Whole in the photo, the white rim is found.
    assert cup_rims(coffee, seen, image, PAPER).any()


@pytest.mark.parametrize(
    "rim", [(150.0, 90.0, 40.0), tuple(float(v) for v in PAPER * 0.95)], ids=["blue", "white"]
)
def test_a_cups_side_between_its_rim_and_the_part_of_it_found_is_the_cups(
    rim: tuple[float, float, float],
) -> None:
    # The side leans from the rim towards its base (a circle 41 mm down and right). Only the
    # coffee and the side's far end were found (the rest of a white side, in the cup's shadow,
    # looks like paper); a hand, found too, touches the side there.
    _, seen, _ = bare_sheet()
    face = hatched_face(5)
    top = disc(face, (130, 100), round(36 * WALL))
    body = cv2.convexHull(
        np.vstack(
            [
                cv2.ellipse2Poly((130, 100), (round(36 * WALL),) * 2, 0, 0, 360, 5),
                cv2.ellipse2Poly((160, 128), (35, 35), 0, 0, 360, 5),
            ]
        )
    )
    cup = np.zeros(face.shape[:2], np.uint8)
    cv2.fillConvexPoly(cup, body, 1)
    side = (cup > 0) & ~top
    hand = disc(face, (212, 163), 30) & ~(cup > 0)
    with_cup = face.copy()
    with_cup[side] = np.asarray(rim, np.float32) * 0.8
    with_cup[hand] = (95.0, 130.0, 190.0)
    image, coffee, _, _ = rimmed_cup(with_cup, rim)
    rows, cols = np.mgrid[: face.shape[0], : face.shape[1]]
    # From just inside the rim's edge (41 mm from its middle) along the lean on: the far end.
    far_end = side & ((cols - 130) * 30 + (rows - 100) * 28 >= 38 * np.hypot(30, 28))
    found = cup_rims(coffee | far_end | hand, seen, image, PAPER)
    within = cv2.erode(cup, np.ones((7, 7), np.uint8)) > 0
    assert found[within].all()
    assert not found[hand & (cv2.dilate(cup, np.ones((9, 9), np.uint8)) == 0)].any()


def deep_cell(maps: SheetMaps) -> int:
    """A cell of the island whose six neighbours have six neighbours each."""
    return next(
        k
        for k, near in enumerate(maps.neighbours)
        if len(near) == 6 and all(len(maps.neighbours[n]) == 6 for n in near)
    )


def touching_three(maps: SheetMaps) -> tuple[list[int], list[int]]:
    """Three cells of the island that touch one another, and the cells around them."""
    first = next(k for k, near in enumerate(maps.neighbours) if len(near) == 6)
    second = maps.neighbours[first][0]
    third = next(n for n in maps.neighbours[first] if n in maps.neighbours[second])
    group = [first, second, third]
    return group, sorted({n for k in group for n in maps.neighbours[k]} - set(group))


def round_over(maps: SheetMaps, group: list[int], reach_to: int | None = None) -> np.ndarray:
    """Something smooth found over ``group`` (three touching cells): round about their shared
    corner and within them, reaching on to the middle of cell ``reach_to`` if given."""
    corner = tuple(int(v) for v in np.round(maps.centres[group].mean(axis=0)))
    shape = np.zeros(maps.shape, np.uint8)
    cv2.circle(shape, corner, 10, 1, -1)
    if reach_to is not None:
        cv2.line(shape, corner, tuple(int(v) for v in np.round(maps.centres[reach_to])), 1, 10)
    return shape > 0


def reaching_one_beside(
    maps: SheetMaps,
) -> tuple[list[int], list[int], int, np.ndarray, np.ndarray]:
    """Three touching cells, the cells around them, the first of those, inside it (clear of its
    outline), and something smooth over the three reaching on into it and over that inside."""
    group, around = touching_three(maps)
    beside = around[0]
    inside = cv2.erode(np.isin(maps.whole, beside).astype(np.uint8), np.ones((5, 5))) > 0
    return group, around, beside, inside, round_over(maps, group, beside) | inside


def blob_reads(maps: SheetMaps, group: list[int], around: dict[int, Read]) -> list[Read]:
    """Every cell read as bare paper, but ``group`` as blue and ``around`` as given."""
    reads = [Read(name, None, 0.9) for name in maps.names]
    for k in group:
        reads[k] = Read(maps.names[k], "blue", 0.9)
    for k, read in around.items():
        reads[k] = read
    return reads


def found_apart(maps: SheetMaps, cells: list[int], mm: float) -> np.ndarray:
    """Something found over the sheet ``mm`` from the nearest of ``cells``, too small (3 x 3
    px) to cover a cell."""
    apart = cv2.distanceTransform(1 - np.isin(maps.whole, cells).astype(np.uint8), cv2.DIST_L2, 5)
    ys, xs = np.nonzero(np.abs(apart - mm) < 0.5)
    spot = np.zeros(maps.shape, bool)
    spot[ys[0] - 1 : ys[0] + 2, xs[0] - 1 : xs[0] + 2] = True
    return spot


def test_blurred_hatching_that_ends_where_its_cells_do_is_not_a_cup() -> None:
    maps, _, clear = bare_sheet()
    # Three cells that touch one another, read as blue with no outline showing (blur smooths
    # hatching as plain as a cup).
    group, around = touching_three(maps)
    contrast = np.full(len(maps.names), 0.05, np.float32)
    contrast[group] = 0.005
    outlined = contrast > 0.02
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    # Something was found over the sheet beside the group (a cup's inside).
    near = found_apart(maps, group, 5.0)

    def under_cup(
        reads: list[Read], hidden: np.ndarray = outlined, found: np.ndarray | None = None
    ) -> list[int]:
        apart = np.zeros(len(maps.names), bool) if found is None else found
        under = blobs_seen(image, clear, maps, reads, contrast, hidden, apart, near)
        return [int(k) for k in np.flatnonzero(under)]

    # Every cell around is read as paper: the blue ends at its cells' edges.
    assert under_cup(blob_reads(maps, group, {})) == []
    # A cup lies in part over the cells around it: one is refused...
    edge = around[0]
    faint = Read(maps.names[edge], None, 0.0, "faint")
    assert under_cup(blob_reads(maps, group, {edge: faint})) == sorted(group)
    # ...or read as blue with its outline hidden (the cup's rim, covered with it).
    rim = Read(maps.names[edge], "blue", 0.9)
    hidden = outlined.copy()
    hidden[edge] = False
    assert under_cup(blob_reads(maps, group, {edge: rim}), hidden) == sorted([*group, edge])
    # Read as blue with its outline showing, it is hatching beside the group.
    assert under_cup(blob_reads(maps, group, {edge: rim})) == []
    # Refused where something else found lies over it, it tells nothing: a cup over the group
    # would have been found over the group as well...
    faint = Read(maps.names[edge], None, 0.0, "covered")
    beyond = np.zeros(len(maps.names), bool)
    beyond[edge] = True
    assert under_cup(blob_reads(maps, group, {edge: faint}), found=beyond) == []
    # ...unless it was: then the group is as likely the cup's.
    beyond[group[0]] = True
    assert under_cup(blob_reads(maps, group, {edge: faint}), found=beyond) == sorted(group)


def test_plain_cells_of_a_pencil_with_nothing_found_near_them_are_blurred_hatching() -> None:
    maps, _, clear = bare_sheet()
    # Three touching cells read as blue, their outlines hidden; a cell around them refused (a cup
    # lying in part over it would leave it so).
    group, around = touching_three(maps)
    reads = blob_reads(maps, group, {around[0]: Read(maps.names[around[0]], None, 0.0, "faint")})
    edges = np.full((len(maps.names), 6), 0.05, np.float32)
    edges[group] = 0.005
    outlined = edges.mean(axis=1) > 0.02
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    nothing = np.zeros(maps.shape, bool)

    def covered(mm: float) -> list[int]:
        spot = found_apart(maps, group, mm)
        found = covered_seen(spot, nothing, image, clear, maps, reads, edges, outlined)
        return [int(k) for k in np.flatnonzero(found)]

    # Within a cup's rim of it, the group may lie under the cup found beside it...
    assert covered(8.0) == sorted(group)
    # ...but with nothing found nearer than 20 mm, it is hatching that blur smoothed.
    assert covered(20.0) == []


def test_a_cell_of_a_plain_group_clear_of_the_cup_found_over_the_rest_may_be_beside_it() -> None:
    maps, _, clear = bare_sheet()
    # Three touching cells read as blue, outlines hidden; a cell around them refused. Blue cells
    # far off show how clearly outlines show on this blurred sheet.
    group, around = touching_three(maps)
    far = [k for k in range(len(maps.names)) if k not in group and k not in around][-5:]
    reads = blob_reads(maps, group, {around[0]: Read(maps.names[around[0]], None, 0.0, "covered")})
    for k in far:
        reads[k] = Read(maps.names[k], "blue", 0.9)
    contrast = np.full(len(maps.names), 0.02, np.float32)
    contrast[group] = 0.005
    outlined = contrast >= 0.02
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    # A cup found over two of them and the refused cell, not over the third.
    found = np.zeros(len(maps.names), bool)
    found[[group[0], group[1], around[0]]] = True

    near = found_apart(maps, group, 5.0)  # the cup's inside

    def under_cup(shows: float) -> list[int]:
        contrast[group[2]] = shows
        under = blobs_seen(image, clear, maps, reads, contrast, outlined, found, near)
        return [int(k) for k in np.flatnonzero(under)]

    # Its outline hidden, the third is as likely under the cup's unfound edge...
    assert under_cup(0.004) == sorted(group)
    # ...but showing over a third as clearly as the pencils' cells show theirs, however faint,
    # it is hatching of the cup's colour beside it.
    assert under_cup(0.012) == sorted(group[:2])
    # With nothing found over the group (the cup's inside found beside it), it is judged whole.
    found[:] = False
    assert under_cup(0.012) == sorted(group)


def test_a_cell_of_a_plain_group_that_nothing_found_lies_over_and_shows_strokes_is_hatching() -> (
    None
):
    maps, _, clear = bare_sheet()
    # Three touching cells read as blue, outlines hidden: a cup of that colour found over two of
    # them and over a cell around them, its inside beside them.
    group, around = touching_three(maps)
    reads = blob_reads(maps, group, {around[0]: Read(maps.names[around[0]], None, 0.0, "covered")})
    contrast = np.full(len(maps.names), 0.02, np.float32)
    contrast[group] = 0.005
    outlined = contrast >= 0.02
    found = np.zeros(len(maps.names), bool)
    found[[group[0], group[1], around[0]]] = True
    near = found_apart(maps, group, 5.0)
    image = np.full((*maps.shape, 3), 200.0, np.float32)

    def under_cup(over: np.ndarray) -> list[int]:
        under = blobs_seen(image, clear, maps, reads, contrast, outlined, found, over)
        return [int(k) for k in np.flatnonzero(under)]

    # As smooth as a cup, the third is as likely under its unfound edge.
    assert under_cup(near) == sorted(group)
    # Strokes across it: rough as hatching is, and nothing found over it, it is hatching of the
    # cup's colour beside it.
    third = maps.whole == group[2]
    image[third & (np.arange(maps.shape[0]) // 2 % 2 == 0)[:, None]] = 120.0
    assert under_cup(near) == sorted(group[:2])
    # Something found over a little of it, the cup may lie unfound over more.
    ys, xs = np.nonzero(third)
    touching = near.copy()
    touching[ys[0], xs[0]] = True
    assert under_cup(touching) == sorted(group)


def test_a_smooth_thing_over_pencilled_cells_that_ends_where_they_do_is_hatching() -> None:
    maps, _, clear = bare_sheet()
    # Strong blur leaves three touching blue cells as smooth as a cup: found over the sheet,
    # round about their shared corner and within them.
    group, around = touching_three(maps)
    thing = round_over(maps, group)
    edges = np.full((len(maps.names), 6), 0.05, np.float32)
    outlined = np.ones(len(maps.names), bool)
    image = np.full((*maps.shape, 3), 200.0, np.float32)

    def covered(over: np.ndarray, reads: list[Read]) -> list[int]:
        nothing = np.zeros(maps.shape, bool)
        found = covered_seen(over, nothing, image, clear, maps, reads, edges, outlined)
        return [int(k) for k in np.flatnonzero(found)]

    # Every cell it reaches is read as blue, every cell around as paper: hatching.
    assert covered(thing, blob_reads(maps, group, {})) == []
    # So too where blur smooths cells of two pencils together: what tells a cup is the cells
    # around it.
    red = {group[0]: Read(maps.names[group[0]], "red", 0.9)}
    assert covered(thing, blob_reads(maps, group, red)) == []
    # A cup is round: it lies in part over a cell around, which then reads as a mix or not at
    # all...
    edge = around[0]
    refused = {edge: Read(maps.names[edge], None, 0.0, "coloured only in part")}
    assert covered(thing, blob_reads(maps, group, refused)) == sorted(group)
    # ...or reaches into bare paper.
    reaching = round_over(maps, group, edge)
    assert covered(reaching, blob_reads(maps, group, {})) == sorted([*group, edge])
    # Blur spills smoothed hatching a pixel or two over its outline: a bare cell reached at its
    # edge only (under 15 % of it) is one around it.
    beside = np.isin(maps.whole, [edge])
    short = reaching & ~beside
    spill = short | (reaching & (cv2.dilate(short.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0))
    assert 0.03 <= (spill & beside).sum() / beside.sum() < 0.15
    assert covered(spill, blob_reads(maps, group, {})) == []
    # A cell around it refused under another thing found over the sheet says nothing of it.
    far = next(k for k in range(len(maps.names)) if k not in group and k not in around)
    cup = np.isin(maps.whole, [edge, far])
    assert covered(thing | cup, blob_reads(maps, group, refused)) == sorted([edge, far])


def test_a_smooth_thing_reaching_a_cell_refused_under_another_thing_may_be_hatching() -> None:
    maps, _, clear = bare_sheet()
    # Three blue cells blurred as smooth as a cup, reaching on to the middle of a cell beside
    # them that is refused.
    group, around = touching_three(maps)
    edge = around[0]
    thing = round_over(maps, group, edge)
    assert 0.15 <= (thing & (maps.whole == edge)).sum() / (maps.whole == edge).sum() < 1.0
    refused = {edge: Read(maps.names[edge], None, 0.0, "covered, or no pencil")}
    reads = blob_reads(maps, group, refused)
    # Their outlines show less than a cell's in plain view does (so they are not hatching beside
    # a thing), if not as little as under a cup.
    edges = np.full((len(maps.names), 6), 0.05, np.float32)
    edges[group] = 0.02
    outlined = edges.mean(axis=1) > 0.03
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    nothing = np.zeros(maps.shape, bool)

    def covered(over: np.ndarray) -> list[int]:
        found = covered_seen(over, nothing, image, clear, maps, reads, edges, outlined)
        return [int(k) for k in np.flatnonzero(found)]

    # Alone, it is a cup lying over that cell: refused, it is a mix of the cup and its pencil.
    assert covered(thing) == sorted([*group, edge])
    # With another thing found apart over the rest of that cell, the cell was refused for that
    # one, and tells nothing of this: every other cell it reaches reads as blue, and every one
    # around as paper, so it is hatching.
    apart = cv2.dilate(thing.astype(np.uint8), np.ones((7, 7), np.uint8)) == 0
    cup = (maps.whole == edge) & apart
    assert cup.sum() / (maps.whole == edge).sum() >= 0.15
    assert covered(thing | cup) == [edge]


def test_a_smooth_thing_that_stops_at_a_cells_outline_on_three_edges_is_its_hatching() -> None:
    maps, _, clear = bare_sheet()
    # Three blue cells blurred as smooth as the blue cup beside them join its surface: the
    # thing found ends at their outlines but where it meets the cup.
    group, around = touching_three(maps)
    edge = around[0]
    x, y = np.round(maps.centres[edge]).astype(int)
    hatching = np.isin(maps.whole, group)
    cup = disc(hatching, (int(x), int(y)), 12)
    edges = np.full((len(maps.names), 6), 0.05, np.float32)
    outlined = np.ones(len(maps.names), bool)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    refused = {edge: Read(maps.names[edge], None, 0.0, "coloured only in part")}
    reads = blob_reads(maps, group, refused)

    def covered(over: np.ndarray) -> list[int]:
        nothing = np.zeros(maps.shape, bool)
        found = covered_seen(over, nothing, image, clear, maps, reads, edges, outlined)
        return [int(k) for k in np.flatnonzero(found)]

    under_cup = covered(cup)
    assert edge in under_cup and not set(group) & set(under_cup)
    # Hatching ends where its cells do; a cup is round.
    assert covered(hatching | cup) == under_cup
    # Over the same cells, reaching past their outlines, it is a cup.
    x, y = np.round(maps.centres[group].mean(axis=0)).astype(int)
    assert set(group) <= set(covered(disc(hatching, (int(x), int(y)), 20) | cup))


def test_hatching_that_ends_at_its_outline_once_its_neighbours_are_taken_is_hatching() -> None:
    maps, _, clear = bare_sheet()
    # A blue cell, two blue cells beside it, and two cells beyond it under a hand: blurred as
    # smooth as the hand, the three cells' hatching joins it, and the cell between them meets
    # something found beyond four of its edges.
    cell = deep_cell(maps)
    towards = maps.centres[list(maps.neighbours[cell])] - maps.centres[cell]
    ring = [maps.neighbours[cell][i] for i in np.argsort(np.arctan2(towards[:, 1], towards[:, 0]))]
    hatched, under = [cell, ring[0], ring[1]], [ring[3], ring[4]]
    away = maps.centres[under].mean(axis=0) - maps.centres[cell]
    x, y = np.round(maps.centres[cell] + 2.0 * away).astype(int)
    hand = np.isin(maps.whole, under) | disc(np.zeros(maps.shape, bool), (int(x), int(y)), 20)
    assert not (hand & (maps.whole == cell)).any()
    edges = np.full((len(maps.names), 6), 0.05, np.float32)
    outlined = np.ones(len(maps.names), bool)
    image = np.full((*maps.shape, 3), 200.0, np.float32)

    def covered(refused: list[int]) -> list[int]:
        reads = [Read(name, None, 0.9) for name in maps.names]
        for k in hatched:
            reads[k] = Read(maps.names[k], "blue", 0.9)
        for k in refused:
            reads[k] = Read(maps.names[k], None, 0.0, "coloured only in part")
        over = np.isin(maps.whole, hatched) | hand
        # Traced from the margin, the hand and the hatching of its colour are one region.
        found = covered_seen(over, over, image, clear, maps, reads, edges, outlined)
        return [int(k) for k in np.flatnonzero(found)]

    # The two beside it end at their outlines but where they meet it: hatching, and so is it.
    assert not set(covered(under)) & set(hatched)
    # Under the hand too, they leave it ringed by the hand on four edges: under it.
    assert cell in covered(under + hatched[1:])


def test_hatching_running_on_into_its_pencils_cells_towards_a_hand_is_hatching() -> None:
    maps, _, clear = bare_sheet()
    # A blue cell, a blue cell beside it, and a hand beyond that one: blurred as smooth as the
    # hand, the second cell's hatching joins it, and half of the first's joins that, ending at
    # its outline on the two edges beside the one they share.
    cell = deep_cell(maps)
    shared = next(e for e in range(6) if maps.across[cell, e] >= 0)
    beside = int(maps.across[cell, shared])
    towards = maps.centres[beside] - maps.centres[cell]
    x, y = np.round(maps.centres[beside] + 1.3 * towards).astype(int)
    hand = disc(np.zeros(maps.shape, bool), (int(x), int(y)), 20)
    assert hand[maps.whole == beside].any() and not hand[maps.whole == cell].any()
    towards /= np.linalg.norm(towards)
    ys, xs = np.mgrid[: maps.shape[0], : maps.shape[1]]
    # How far each pixel lies past the cell's middle towards the hand (mm).
    ahead = (xs - maps.centres[cell, 0]) * towards[0] + (ys - maps.centres[cell, 1]) * towards[1]
    edges = np.full((len(maps.names), 6), 0.05, np.float32)
    outlined = np.ones(len(maps.names), bool)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    nothing = np.zeros(maps.shape, bool)

    def covered(past_middle: float, other: str | None = "blue") -> list[int]:
        # 0.88 sure: not so surely that hatching beside a thing would be asked of it.
        reads = [Read(name, None, 0.9) for name in maps.names]
        reads[cell] = Read(maps.names[cell], "blue", 0.88)
        reads[beside] = Read(maps.names[beside], other, 0.88)
        half = (maps.whole == cell) & (ahead >= -past_middle)
        over = hand | (maps.whole == beside) | half
        found = covered_seen(over, nothing, image, clear, maps, reads, edges, outlined)
        return [int(k) for k in np.flatnonzero(found)]

    under_hand = covered(0.0)
    assert beside in under_hand and cell not in under_hand
    # Running on into a cell read as another pencil, or bare, it is what lies over that one.
    assert cell in covered(0.0, "red") and cell in covered(0.0, None)
    # Over most of the cell, it is a thing over it, read as the thing's colour.
    assert cell in covered(5.0)
    # Over a sliver of it, by the edge they share, it need not end at the cell's outline: so
    # little of a thing, were it one, would hardly mix with the cell's pencil. Over a third of
    # it, ending nowhere at its outline, it is a thing coming in.
    assert cell not in covered(-6.0) and cell in covered(-3.0)


def test_a_thing_spilling_over_a_cells_outline_by_its_blur_leaves_the_cell_read() -> None:
    maps, _, clear = bare_sheet()
    # A large round thing beside a cell, its edge just across the outline they share.
    cell = next(k for k, near in enumerate(maps.neighbours) if len(near) == 6)
    beside = maps.neighbours[cell][0]
    towards = maps.centres[beside] - maps.centres[cell]
    towards /= np.linalg.norm(towards)
    middle = (maps.centres[cell] + maps.centres[beside]) / 2.0
    edges = np.full((len(maps.names), 6), 0.05, np.float32)
    outlined = np.ones(len(maps.names), bool)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    nothing = np.zeros(maps.shape, bool)

    def thing(spill_mm: float) -> np.ndarray:
        radius = 40
        x, y = np.round(middle + towards * (radius - spill_mm) * SHEET_PPM).astype(int)
        return disc(nothing, (int(x), int(y)), radius)

    def covered(
        over: np.ndarray, sure: float, pencil: str | None = "green", rims: np.ndarray = nothing
    ) -> bool:
        reads = [Read(name, None, 0.95) for name in maps.names]
        reads[cell] = Read(maps.names[cell], pencil, sure)
        found = covered_seen(over, nothing, image, clear, maps, reads, edges, outlined, rims)
        return bool(found[cell])

    spilled = thing(2.0)
    assert (spilled & (maps.whole == cell)).sum() / (maps.whole == cell).sum() >= COVERED_SHARE
    # Its blur reaches 2 mm into the cell: read surely, the cell is read from what shows.
    assert not covered(spilled, 0.95)
    # Read less surely, the thing may lie over more of it than was found; read as bare paper,
    # it may lie under a white cup's side, found only by the coffee beside it.
    assert covered(spilled, 0.7)
    assert covered(spilled, 0.95, None)
    # A cup whose rim was found lies within it: read surely as bare paper, the cell is read,
    # unless something else found reaches it.
    assert not covered(spilled, 0.95, None, spilled)
    near = cv2.dilate((maps.whole == cell).astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    elsewhere = spilled & ~near
    assert covered(spilled, 0.95, None, elsewhere)
    # Reaching 5 mm in, it lies over the cell.
    assert covered(thing(5.0), 0.95)
    assert covered(thing(5.0), 0.95, None, thing(5.0))


def test_hatching_beside_a_hand_at_the_edge_is_not_under_it_when_its_outlines_show() -> None:
    maps, _, clear = bare_sheet()
    # A hand reaches the margin over one cell; three blue cells beside it, blurred as smooth as
    # the hand, join its surface.
    group, around, hand, under_hand, smooth = reaching_one_beside(maps)
    shown = np.full((len(maps.names), 6), 0.05, np.float32)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    hidden = Read(maps.names[hand], None, 0.0, "coloured only in part")

    def covered(
        reaching: np.ndarray,
        outlined: np.ndarray,
        around: dict[int, Read] | None = None,
        edges: np.ndarray = shown,
        photo: np.ndarray = image,
    ) -> list[int]:
        reads = blob_reads(maps, group, {hand: hidden, **(around or {})})
        over = smooth | reaching
        found = covered_seen(over, reaching, photo, clear, maps, reads, edges, outlined)
        return [int(k) for k in np.flatnonzero(found)]

    showing = np.ones(len(maps.names), bool)
    # Their outlines show, and the cells around them are in plain view: hatching beside it.
    assert covered(under_hand, showing) == [hand]
    # One read less surely may lie in part under the hand, whose colour mixes with its pencil.
    unsure = {group[0]: Read(maps.names[group[0]], "blue", 0.63)}
    assert covered(under_hand, showing, unsure) == sorted([*group, hand])
    # A hand hides the outlines it lies over: cells that do not show theirs are under it...
    faint = showing.copy()
    faint[group[0]] = False
    assert covered(under_hand, faint) == sorted([*group, hand])
    # ...as are cells ringed by it...
    ringed = np.isin(maps.whole, around) & ~np.isin(maps.whole, group)
    assert covered(ringed, showing) == sorted([*group, *around])
    # ...and cells beside one refused that nothing found lies over.
    refused = {around[1]: Read(maps.names[around[1]], None, 0.0, "faint")}
    assert covered(under_hand, showing, refused) == sorted([*group, hand])
    # A cell may show its outline where nothing lies over it, and not where a cup does: it
    # lies in part under the cup. Green cells far off tell how clearly outlines show.
    far = [k for k in range(len(maps.names)) if k not in group and k not in around][::9][:5]
    pencils = {k: Read(maps.names[k], "green", 0.9) for k in far}
    assert covered(under_hand, showing, pencils) == [hand]
    points = np.round(maps.outline[0][group[0]]).astype(int)
    lain_over = smooth[points[..., 1], points[..., 0]].mean(axis=1) >= 0.5
    assert lain_over.any() and not lain_over.all()
    hiding = shown.copy()
    hiding[group[0], lain_over] = 0.0
    assert covered(under_hand, showing, pencils, hiding) == sorted([*group, hand])
    hiding[group[0], lain_over] = 0.006  # faint with blur, but not hidden
    assert covered(under_hand, showing, pencils, hiding) == [hand]
    # In a dark thing's surface, where noise is large in log units, the mean depth along a line
    # it hides may come out as far from zero as an outline's, but the line does not stand out
    # from its own scatter: the cell lies in part under it. Printed lines standing out so show
    # that it does not; on bright paper, the scatter is the hatching's.
    noise = np.exp(np.random.default_rng(3).normal(0.0, 0.15, maps.shape))[..., None]
    dark = np.asarray(np.where(smooth[..., None], 0.3, 1.0) * image * noise, np.float32)
    assert covered(under_hand, showing, pencils, shown, dark) == sorted([*group, hand])
    lined = dark.copy()
    on_line = np.round(maps.outline[0]).astype(int)
    lined[on_line[..., 1], on_line[..., 0]] *= 0.5
    assert covered(under_hand, showing, pencils, shown, lined) == [hand]
    bright = np.asarray(image * noise, np.float32)
    assert covered(under_hand, showing, pencils, shown, bright) == [hand]


def test_hatching_beside_a_cup_is_not_under_it_where_the_cells_it_covers_are_refused() -> None:
    maps, _, clear = bare_sheet()
    # A cup found by its smooth surface alone lies over one cell, which is refused; three blue
    # cells beside it, blurred as smooth as the cup, join its surface.
    group, _, cup, _, over = reaching_one_beside(maps)
    shown = np.full((len(maps.names), 6), 0.05, np.float32)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    showing = np.ones(len(maps.names), bool)
    nothing = np.zeros(maps.shape, bool)

    def covered(read: Read) -> list[int]:
        reads = blob_reads(maps, group, {cup: read})
        found = covered_seen(over, nothing, image, clear, maps, reads, shown, showing)
        return [int(k) for k in np.flatnonzero(found)]

    # Their outlines show, and but for the cell under the cup the cells around them are in plain
    # view: hatching beside it.
    refused = Read(maps.names[cup], None, 0.0, "covered, or no pencil (red fits poorly)")
    assert covered(refused) == [cup]
    # Read cleanly as bare paper, the cell may lie beside what is over the blue cells.
    assert covered(Read(maps.names[cup], None, 0.9)) == sorted([*group, cup])


def test_two_bare_cells_hiding_their_outlines_about_altogether_lie_under_a_white_cup() -> None:
    maps, _, clear = bare_sheet()
    # Every cell is read as bare paper, its outline showing as blur lets it.
    reads = [Read(name, None, 0.9) for name in maps.names]
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    (first, second, third), _ = touching_three(maps)
    nothing = np.zeros(len(maps.names), bool)
    none_over = np.zeros(maps.shape, bool)

    def found(contrast: np.ndarray) -> list[int]:
        outlined = contrast >= 0.01
        under = blobs_seen(image, clear, maps, reads, contrast, outlined, nothing, none_over)
        return [int(k) for k in np.flatnonzero(under)]

    # Two touching cells at a quarter of the sheet's clarity: a white cup's side over them.
    contrast = np.full(len(maps.names), 0.02, np.float32)
    contrast[[first, second]] = 0.005
    assert found(contrast) == sorted([first, second])
    # At 0.4 of it, as faint as some pairs in plain view: left to what shows over them.
    contrast[second] = 0.008
    assert found(contrast) == []
    # One cell alone, however plain, is not enough.
    contrast[second] = 0.02
    contrast[first] = 0.001
    assert found(contrast) == []
    # Three at 0.4 still are.
    contrast[[first, second, third]] = 0.008
    assert found(contrast) == sorted([first, second, third])
    # Where the sensor clips the paper, the line is lost in its white.
    glare = clear.copy()
    glare[np.isin(maps.whole, [first, second])] = True
    contrast[[first, second]] = 0.005
    contrast[third] = 0.02
    outlined = contrast >= 0.01
    assert not blobs_seen(image, glare, maps, reads, contrast, outlined, nothing, none_over).any()


def test_hatching_beside_a_hand_stays_so_where_the_hand_reaches_a_cell_of_another_pencil() -> None:
    maps, _, clear = bare_sheet()
    # A hand reaches the margin over one cell; three blue cells beside it, blurred as smooth as
    # the hand, join its surface, which reaches on into part of another cell beside them.
    group, around, hand, under_hand, smooth = reaching_one_beside(maps)
    edge = next(n for n in around if n != hand and hand not in maps.neighbours[n])
    corner = maps.centres[group].mean(axis=0)
    toward = np.zeros(maps.shape, np.uint8)
    ends = [
        tuple(int(v) for v in np.round(p))
        for p in (corner, 0.4 * corner + 0.6 * maps.centres[edge])
    ]
    cv2.line(toward, ends[0], ends[1], 1, 8)
    smooth |= toward > 0
    shown = np.full((len(maps.names), 6), 0.05, np.float32)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    showing = np.ones(len(maps.names), bool)
    hidden = Read(maps.names[hand], None, 0.0, "coloured only in part")

    def covered(read: Read) -> list[int]:
        reads = blob_reads(maps, group, {hand: hidden, edge: read})
        found = covered_seen(smooth, under_hand, image, clear, maps, reads, shown, showing)
        return [int(k) for k in np.flatnonzero(found)]

    # Read as red, showing its outline: the hand lies over its edge, and the blue cells are
    # hatching beside it, as the red one is its own.
    assert covered(Read(maps.names[edge], "red", 0.9)) == [hand]
    # Read as bare paper, it may lie under what is over the blue cells, which may be a cup.
    assert covered(Read(maps.names[edge], None, 0.9)) == sorted([*group, hand, edge])


def test_a_cell_bordering_a_cup_at_one_edge_with_its_outline_showing_is_beside_it() -> None:
    maps, _, clear = bare_sheet()
    # Three cells under a blue cup, read as blue, their outlines hidden; blue cells elsewhere
    # show theirs clearly.
    group, around = touching_three(maps)
    touching = {n: sum(n in maps.neighbours[k] for k in group) for n in around}
    one = next(n for n in around if touching[n] == 1)
    two = next(n for n in around if touching[n] == 2)
    far = [k for k in range(len(maps.names)) if k not in group and k not in around][-5:]
    contrast = np.full(len(maps.names), 0.05, np.float32)
    contrast[group] = 0.005
    contrast[far] = 0.06
    # Two blue cells of the rim whose outlines show, though fainter than a cell's in plain view.
    contrast[[one, two]] = 0.026
    outlined = contrast >= 0.03
    reads = [Read(name, None, 0.9) for name in maps.names]
    for k in [*group, one, two, *far]:
        reads[k] = Read(maps.names[k], "blue", 0.9)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    nothing = np.zeros(len(maps.names), bool)
    near = found_apart(maps, group, 5.0)  # the cup's inside was found beside them

    def found(reads: list[Read]) -> list[int]:
        return [
            int(k)
            for k in np.flatnonzero(
                blobs_seen(image, clear, maps, reads, contrast, outlined, nothing, near)
            )
        ]

    # The one bordering the cup's cells at one edge is beside it; the one between two of them
    # lies in part under it.
    assert found(reads) == sorted([*group, two])
    # Read as bare paper, the same cells under a white cup: the bare cells around it are left
    # to what is found over them (its side hides the printed grid; bare paper beside it looks
    # as it would under the rim).
    bare = [Read(name, None, 0.9) for name in maps.names]
    for k in far:
        bare[k] = reads[k]
    assert found(bare) == sorted(group)


def test_a_cup_whose_blurred_edge_spills_across_a_cells_outline_only_grazes_it() -> None:
    maps, _, clear = bare_sheet()
    # A cup beside a bare cell, reaching 2 mm into it across the middle of one edge: the blur of
    # its edge spilling across the printed line.
    group, around = touching_three(maps)
    cell, beside = group[0], group[1]
    centre, towards = maps.centres[cell] * SHEET_PPM, maps.centres[beside] * SHEET_PPM
    step = (towards - centre) / np.linalg.norm(towards - centre)
    radius = 30.0 * SHEET_PPM
    middle = centre + step * (0.5 * np.linalg.norm(towards - centre) - 2.0 * SHEET_PPM + radius)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    cup = disc(image, (round(middle[0]), round(middle[1])), round(radius))

    def reached(over: np.ndarray) -> np.ndarray:
        points = np.round(maps.outline[0][cell]).astype(int)
        return np.asarray(over[points[..., 1], points[..., 0]].any(axis=1))

    assert reached(cup).sum() == 1
    # Every cell read as bare paper, sure of it, but for green cells far off; every outline
    # shows as clearly where nothing lies over it.
    far = [k for k in range(len(maps.names)) if k not in group and k not in around][::9][:5]
    edges = np.full((len(maps.names), 6), 0.03, np.float32)
    showing = np.ones(len(maps.names), bool)

    def covered(edges: np.ndarray, sure: float = 0.99, over: np.ndarray = cup) -> bool:
        reads = [Read(name, None, 0.99) for name in maps.names]
        reads[cell] = Read(maps.names[cell], None, sure)
        for k in far:
            reads[k] = Read(maps.names[k], "green", 0.99)
        nothing = np.zeros(maps.shape, bool)
        found = covered_seen(over, nothing, image, clear, maps, reads, edges, showing)
        assert found[beside]
        return bool(found[cell])

    # The line it spills across still shows: the cup lies beside the cell.
    assert not covered(edges)
    # Hidden where the cup lies, or the cell read less surely: the cup may lie over part of it.
    hidden = edges.copy()
    hidden[cell, reached(cup)] = 0.005
    assert covered(hidden)
    assert covered(edges, sure=0.7)
    assert not covered(edges, sure=0.87)
    # Its outline hidden all round: a white cup lies over it, found only at its edge.
    assert covered(np.where(np.arange(len(maps.names))[:, None] == cell, 0.005, edges))
    # Reaching 3 mm into it, along the whole of one edge and the ends of the two beside it: a
    # graze still, no more of the outline than two edges' length.
    deeper = disc(image, (round(middle[0] - step[0]), round(middle[1] - step[1])), round(radius))
    assert reached(deeper).sum() == 3
    assert not covered(edges, over=deeper)
    # Reaching as little into it along three of its edges, it wraps around it.
    inside = (maps.whole == cell).astype(np.uint8)
    rim = (inside > 0) & (cv2.erode(inside, np.ones((3, 3), np.uint8)) == 0)
    rows, cols = np.indices(maps.shape)
    facing = (cols - centre[0]) * step[0] + (rows - centre[1]) * step[1] > 0
    wrapping = cup | (rim & facing)
    assert reached(wrapping).sum() == 3
    assert covered(edges, over=wrapping)


def faint_bare_three(
    maps: SheetMaps,
) -> tuple[list[int], list[Read], np.ndarray, np.ndarray]:
    """Three touching cells, every cell read bare, how clearly each shows its outline (the three
    far fainter than the sheet's others) and whether it shows."""
    group, _ = touching_three(maps)
    reads = [Read(name, None, 0.9) for name in maps.names]
    contrast = np.full(len(maps.names), 0.02, np.float32)
    contrast[group] = 0.005
    return group, reads, contrast, contrast >= 0.01


def test_bare_cells_whose_faint_lines_still_show_lie_in_a_shadow_not_under_a_white_cup() -> None:
    maps, _, clear = bare_sheet()
    group, reads, contrast, outlined = faint_bare_three(maps)
    # The printed grid, faint (a shadow and JPEG leave a tenth of a line's depth), in noise.
    lines = maps.grid / maps.grid.max()
    shadowed = 120.0 * (1.0 - 0.02 * lines)
    image = noisy(np.dstack([shadowed] * 3), 3)
    nothing = np.zeros(len(maps.names), bool)
    none_over = np.zeros(maps.shape, bool)

    def found(image: np.ndarray) -> list[int]:
        under = blobs_seen(image, clear, maps, reads, contrast, outlined, nothing, none_over)
        return [int(k) for k in np.flatnonzero(under)]

    # The lines show, darker than the paper either side, however faintly: a shadow.
    assert found(image) == []
    # Under a white cup as plain as paper, none does.
    plain = noisy(np.full((*maps.shape, 3), 120.0, np.float32), 3)
    cup = np.isin(maps.whole, group)
    image[cup] = plain[cup]
    assert found(image) == sorted(group)


def test_bare_cells_as_dark_as_a_shadow_lie_in_it_where_their_lines_show_a_little() -> None:
    maps, _, clear = bare_sheet()
    group, reads, contrast, outlined = faint_bare_three(maps)
    nothing = np.zeros(len(maps.names), bool)
    none_over = np.zeros(maps.shape, bool)
    lines = maps.grid / maps.grid.max()
    # A soft round shadow over the three cells, wider than they are.
    x, y = np.round(maps.centres[group].mean(axis=0) * SHEET_PPM).astype(int)
    spot = disc(np.zeros(maps.shape), (int(x), int(y)), round(22 * SHEET_PPM))
    shadow = np.asarray(cv2.GaussianBlur(spot.astype(np.float32), (0, 0), 2.0 * SHEET_PPM))

    def found(depth: float, strength: float) -> list[int]:
        """The cells taken for a white cup's, the printed lines ``depth`` deep and the shadow
        darkening the paper by ``strength``."""
        face = 200.0 * (1.0 - depth * lines) * (1.0 - strength * shadow)
        image = noisy(np.dstack([face] * 3), 3)
        under = blobs_seen(image, clear, maps, reads, contrast, outlined, nothing, none_over)
        return [int(k) for k in np.flatnonzero(under)]

    # In a shadow 0.6 darker (log units) than the paper, far darker than a white cup's side,
    # the lines show only a little above the noise, the JPEG keeping less of them: a shadow.
    assert found(0.01, 0.45) == []
    # As faint a showing on cells lit as the paper, or shaded as a white cup's side, is not
    # enough: blur from the cup's rim marks the lines as faintly.
    assert found(0.005, 0.0) == sorted(group)
    assert found(0.008, 0.25) == sorted(group)
    # Deep, but with no line showing at all: something grey over them.
    assert found(0.0, 0.45) == sorted(group)


def test_bare_cells_as_dark_as_a_shadow_beside_a_found_cup_lie_in_its_shadow() -> None:
    maps, _, clear = bare_sheet()
    group, reads, contrast, outlined = faint_bare_three(maps)
    first, second, third = group
    # A yellow cup found over the first cell; a soft shadow, no line showing through it, over
    # the other two and wider than they are.
    cup = maps.whole == first
    x, y = np.round(maps.centres[[second, third]].mean(axis=0)).astype(int)
    spot = disc(np.zeros(maps.shape), (int(x), int(y)), round(24 * SHEET_PPM))
    shadow = np.asarray(cv2.GaussianBlur(spot.astype(np.float32), (0, 0), 2.0 * SHEET_PPM))

    def covered(strength: float, found_first: bool = True) -> list[int]:
        """The cells taken for a white cup's, the shadow darkening the paper by ``strength``."""
        face = np.dstack([200.0 * (1.0 - strength * shadow)] * 3)
        face[cup] = (90.0, 170.0, 200.0)
        found = np.zeros(len(maps.names), bool)
        found[first] = found_first
        over = cup if found_first else np.zeros(maps.shape, bool)
        image = noisy(face, 3)
        under = blobs_seen(image, clear, maps, reads, contrast, outlined, found, over)
        return [int(k) for k in np.flatnonzero(under)]

    # 0.6 darker (log units) than paper lit in full, far darker than a white cup's side: the
    # found cup's shadow. The cell under the cup stays covered.
    assert covered(0.45) == [first]
    # Shaded as a white cup's side is (0.29 darker): its side, beside what was found of it.
    assert covered(0.25) == sorted(group)
    # As deep, but beside nothing found: something grey over all three.
    assert covered(0.45, found_first=False) == sorted(group)


def test_a_cell_read_unsurely_with_a_thing_found_over_a_sliver_of_it_is_covered() -> None:
    maps, _, clear = bare_sheet()
    cell = next(k for k, near in enumerate(maps.neighbours) if len(near) == 6)
    inside = maps.whole == cell
    ys, xs = np.nonzero(inside)

    def sliver(pixels: int) -> np.ndarray:
        """The ``pixels`` of the cell farthest left: the edge of a cup found beside it."""
        over = np.zeros(maps.shape, bool)
        left = np.argsort(xs, kind="stable")[:pixels]
        over[ys[left], xs[left]] = True
        return over

    edges = np.full((len(maps.names), 6), 0.05, np.float32)
    image = np.full((*maps.shape, 3), 200.0, np.float32)
    nothing = np.zeros(maps.shape, bool)

    def covered(over: np.ndarray, sure: float, outline: bool = False) -> bool:
        reads = [Read(name, None, 0.95) for name in maps.names]
        reads[cell] = Read(maps.names[cell], "blue", sure)
        outlined = np.ones(len(maps.names), bool)
        outlined[cell] = outline
        found = covered_seen(over, nothing, image, clear, maps, reads, edges, outlined)
        return bool(found[cell])

    touch = sliver(round(0.02 * inside.sum()))
    assert 0.01 <= (touch & inside).sum() / inside.sum() < 0.03
    # Found over 2 % of it, too little to cover it, a cup may lie unfound over more: read less
    # than 0.9 sure, its outline hidden, it is taken for covered...
    assert covered(touch, 0.87)
    # ...but not read surely, or showing its outline, or with nothing found over it at all.
    assert not covered(touch, 0.95)
    assert not covered(touch, 0.87, outline=True)
    assert not covered(nothing, 0.87)
    # A pixel or three found over it (half a per cent) is a thing's blurred edge: no more.
    assert not covered(sliver(2), 0.87)
