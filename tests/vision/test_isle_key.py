"""The pencil key printed on every Isle sheet: where it lies, how it is drawn and coloured, and
the players' own pencil sets the renderer colours sheets with."""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

import numpy as np
import pytest

import vision.layout.boards as boards
from companion.colour import srgb_to_lab
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Island
from companion.samples import random_position
from vision.draw import draw_layout
from vision.draw.surface import Surface
from vision.images import Image
from vision.layout.boards import CORNER_ZONE, KEY_GAP_MM, PRINTABLE, isle_sheet, key_label
from vision.layout.catalogue import layouts
from vision.layout.geometry import Hexagon, Rect, bounds
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.render.compose import compose
from vision.render.marks import Hand, colour_cells
from vision.render.pencils import (
    CHROMA_SCALE,
    HUE_MAX_DEG,
    LIGHTNESS_MAX,
    PRESSURE_SCALE,
    PRINTED,
    choose_pencils,
)
from vision.render.placing import plan_table
from vision.render.plan import FillPlan
from vision.render.renderer import Renderer, RenderOptions
from vision.render.scene import Placed
from vision.scan.readers.isle_features import PENCILS
from vision.scan.readers.isle_sheet import INNER, sheet_maps

KEY_NAMES = [f"key {colour}" for colour in PENCILS]


def sheet() -> Layout:
    return layouts("isle")[0]


def key_of(layout: Layout) -> list[tuple[str, Hexagon, Rect]]:
    out = []
    for region in layout.regions:
        if region.role == "key":
            assert isinstance(region.shape, Hexagon)
            out.append((str(region.info["colour"]), region.shape, key_label(region)))
    return out


def test_every_sheet_has_the_four_key_hexagons_in_pencil_order() -> None:
    for layout in layouts("isle"):
        key = [r for r in layout.regions if r.role == "key"]
        assert [r.name for r in key] == KEY_NAMES
        assert [r.info["colour"] for r in key] == list(PENCILS)
        assert all(isinstance(r.shape, Hexagon) and r.shape.r == 6.0 for r in key)


def test_the_key_sits_in_the_side_columns_clear_of_cells_corners_and_edges() -> None:
    layout = sheet()
    corners = [m.quiet for m in layout.markers]
    cells = [bounds(r.shape) for r in layout.regions if r.role == "cell"]
    for colour, hexagon, label in key_of(layout):
        left = colour in ("green", "blue")
        assert (hexagon.cx < CORNER_ZONE) == left
        assert (hexagon.cx > PRINTABLE[0] - CORNER_ZONE) == (not left)
        for box in (hexagon.bounds, label):
            assert box.x >= 6.0 and box.x + box.w <= PRINTABLE[0] - 6.0
            assert box.y > CORNER_ZONE and box.y + box.h < PRINTABLE[1] - CORNER_ZONE
            assert not any(box.overlaps(c) for c in corners)
            assert not any(box.inset(-KEY_GAP_MM).overlaps(c) for c in cells), colour
        # The name is printed on the island's side of its hexagon.
        assert (label.x > hexagon.cx) == left


def test_the_default_island_keeps_its_cells_exactly() -> None:
    for layout in layouts("isle"):
        assert layout.content["cell_radius_mm"] == 12.0
        cells = {r.name: r.shape for r in layout.regions if r.role == "cell"}
        assert len(cells) == 79
        # Where they were before the sheet had a key, to the last bit.
        assert cells["cell 0,2"] == Hexagon(71.14617092752042, 27.0, 12.0)
        assert cells["cell 4,0"] == Hexagon(29.57695154586736, 99.0, 12.0)
        assert cells["cell 4,10"] == Hexagon(237.42304845413264, 99.0, 12.0)
        assert cells["cell 8,8"] == Hexagon(195.85382907247958, 171.0, 12.0)
        # And every other on the same lattice: 12 mm cells, rows 18 mm apart, odd rows shifted.
        width = math.sqrt(3) * 12.0
        for name, hexagon in cells.items():
            assert isinstance(hexagon, Hexagon)
            row, col = (int(v) for v in name.split()[1].split(","))
            x = 29.57695154586736 + (col + 0.5 * (row % 2)) * width
            assert (hexagon.cx, hexagon.cy, hexagon.r) == pytest.approx(
                (x, 27.0 + row * 18.0, 12.0)
            )


def test_an_island_reaching_the_key_gets_smaller_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = {0: (2, 9), 1: (0, 11), 2: (1, 10), 3: (1, 11), 4: (0, 11), 5: (1, 11), 6: (1, 10)}
    rows |= {7: (1, 9), 8: (2, 9)}
    cells = tuple(sorted(Cell(r, c) for r, (lo, hi) in rows.items() for c in range(lo, hi)))
    island = Island("wide", "Wide", cells)
    layout = isle_sheet(island, 1)
    assert layout.content["cell_radius_mm"] < 12.0
    boxes = [bounds(r.shape) for r in layout.regions if r.role == "cell"]
    for _, hexagon, label in key_of(layout):
        for box in (hexagon.bounds, label):
            assert not any(box.inset(-KEY_GAP_MM).overlaps(c) for c in boxes)
    # It is the key that shrinks them: without it, they keep the full size.
    monkeypatch.setattr(boards, "isle_key", lambda size: ())
    assert isle_sheet(island, 1).content["cell_radius_mm"] == 12.0


def test_the_key_is_drawn_as_outlines_with_names() -> None:
    ppm = 6.0
    image = draw_layout(sheet(), ppm)
    paper = image[int(100 * ppm), int(8 * ppm)].astype(int)
    for _, hexagon, label in key_of(sheet()):
        inside = image[round(hexagon.cy * ppm), round(hexagon.cx * ppm)].astype(int)
        assert (inside == paper).all()
        top = hexagon.corners()[0]
        assert (image[round(top[1] * ppm), round(top[0] * ppm)].astype(int) < paper).any()
        text = image[
            round(label.y * ppm) : round((label.y + label.h) * ppm),
            round(label.x * ppm) : round((label.x + label.w) * ppm),
        ]
        assert (text.astype(int).sum(axis=2) < paper.sum() - 60).sum() > 20


def test_sheet_maps_read_the_key_and_never_count_it_as_paper() -> None:
    layout = sheet()
    maps = sheet_maps(layout)
    assert len(maps.key_spots) == 4
    for (ys, xs), (_, hexagon, label) in zip(maps.key_spots, key_of(layout), strict=True):
        assert len(ys) > 10
        # Inside the hexagon shrunk by INNER (its inscribed circle, at the least).
        reach = np.hypot(xs - hexagon.cx, ys - hexagon.cy)
        assert reach.max() <= INNER * hexagon.r + 1.0
        assert not maps.unprinted[ys, xs].any()
        for box in (hexagon.bounds.inset(-2.5), label.inset(-2.5)):
            rows = slice(math.floor(box.y), math.ceil(box.y + box.h))
            cols = slice(math.floor(box.x), math.ceil(box.x + box.w))
            assert not maps.unprinted[rows, cols].any()
            assert not maps.margin[rows, cols].any()
    # The key lies where bare paper was before: the margin still holds the rest of the columns.
    assert maps.margin[70:150, 4:12].all()


def test_a_sheet_without_a_key_has_no_key_spots() -> None:
    layout = sheet()
    bare = Layout(
        **{**vars(layout), "regions": tuple(r for r in layout.regions if r.role != "key")}
    )
    assert sheet_maps(bare).key_spots == ()


def _cells_only(layout: Layout) -> Layout:
    return Layout(
        **{**vars(layout), "regions": tuple(r for r in layout.regions if r.role == "cell")}
    )


def test_printed_pencils_leave_the_cells_strokes_as_they_were(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A sheet without its key (nor the cells' dots, printed since) draws and colours exactly as
    # every sheet did before it had one: the digest below was taken then.
    monkeypatch.setattr(Surface, "circle", lambda *_: None)  # the sheet draws no other circle
    layout = _cells_only(sheet())
    fills = tuple(
        FillPlan(r.name, PENCILS[k % 4]) for k, r in enumerate(layout.regions) if k % 3 == 0
    )
    for tool, digest in (
        ("pencil", "094439e55f540aca232083af1fa6693538e2d9a7a5240c23fed5ce2c1ac858c5"),
        ("marker", "bc5b49335432f8084aa3123130ab872819d959d11746803f50546e33b3672802"),
    ):
        image = draw_layout(layout, 3.0)
        out = colour_cells(image, layout, fills, 3.0, Hand(tool, 40.0), np.random.default_rng(5))
        assert hashlib.sha256(out.tobytes()).hexdigest() == digest
        explicit = colour_cells(
            image, layout, fills, 3.0, Hand(tool, 40.0), np.random.default_rng(5), PRINTED
        )
        assert (explicit == out).all()


def test_varied_pencils_differ_from_the_printed_ones_within_their_bounds() -> None:
    assert choose_pencils("printed", np.random.default_rng(0)) == PRINTED
    for seed in range(40):
        varied = choose_pencils("varied", np.random.default_rng(seed))
        assert varied == choose_pencils("varied", np.random.default_rng(seed))
        assert varied != PRINTED
        assert PRESSURE_SCALE[0] <= varied.pressure <= PRESSURE_SCALE[1]
        assert list(varied.tints) == list(PENCILS)
        for colour in PENCILS:
            was = srgb_to_lab(np.array([INKS[colour]], np.float64))[0]
            now = srgb_to_lab(np.array([varied.tints[colour]], np.float64))[0]
            # Rounding to 8-bit levels (and the gamut, where chroma grows) moves them a little.
            assert abs(now[0] - was[0]) <= LIGHTNESS_MAX + 3.0
            turn = math.degrees(math.atan2(now[2], now[1]) - math.atan2(was[2], was[1]))
            assert abs((turn + 180) % 360 - 180) <= HUE_MAX_DEG + 5.0
            ratio = math.hypot(now[1], now[2]) / math.hypot(was[1], was[2])
            assert CHROMA_SCALE[0] - 0.1 <= ratio <= CHROMA_SCALE[1] + 0.1
    sets = [choose_pencils("varied", np.random.default_rng(s)).to_json() for s in range(10)]
    assert all(a != b for i, a in enumerate(sets) for b in sets[i + 1 :])
    with pytest.raises(ValueError, match="pencils"):
        choose_pencils("crayons", np.random.default_rng(0))


def _faces(
    monkeypatch: pytest.MonkeyPatch, seed: int, pencils: str
) -> tuple[dict[str, tuple[float, Image]], dict[str, Any]]:
    """The faces of a rendered Isle table's sheets, as drawn and coloured, and its truth."""
    faces: dict[str, tuple[float, Image]] = {}

    def spy(scene: Any, ppm: float, drawn: Any, shading: Any) -> Any:
        for board in scene.boards:
            assert isinstance(board, Placed)
            if board.fills:
                faces[board.layout.key] = (ppm, drawn(board))
        return compose(scene, ppm, drawn, shading)

    monkeypatch.setattr("vision.render.renderer.compose", spy)
    plan = plan_table(random_position("isle", random.Random(seed)), "t")
    rendering = Renderer().render(plan, RenderOptions(seed, pencils=pencils))
    return faces, rendering.truth


def _key_means(layout: Layout, ppm: float, face: Image) -> dict[str, np.ndarray[Any, Any]]:
    """Each key hexagon's mean colour (RGB) over its middle."""
    means = {}
    step = np.linspace(-0.5, 0.5, 9)
    for colour, hexagon, _ in key_of(layout):
        dx, dy = np.meshgrid(step * hexagon.r, step * hexagon.r)
        xs = np.round((hexagon.cx + dx) * ppm).astype(int)
        ys = np.round((hexagon.cy + dy) * ppm).astype(int)
        means[colour] = face[ys, xs].reshape(-1, 3).astype(float).mean(axis=0)[::-1]
    return means


def _nearest(rgb: np.ndarray[Any, Any], tints: dict[str, tuple[int, int, int]]) -> str:
    paper = np.array(INKS["paper"], float)
    # Pencil multiplies the paper: compare each colour's absorbance, not its level.
    seen = np.log(np.maximum(rgb, 1.0) / paper)
    return min(
        tints, key=lambda c: float(np.linalg.norm(seen / np.linalg.norm(seen) - _unit(tints[c])))
    )


def _unit(tint: tuple[int, int, int]) -> np.ndarray[Any, Any]:
    v = np.log(np.maximum(np.array(tint, float), 1.0) / 255.0)
    return np.asarray(v / np.linalg.norm(v))


@pytest.mark.parametrize("pencils", ["printed", "varied"])
def test_a_rendered_sheet_has_its_key_hatched_in_its_pencils(
    monkeypatch: pytest.MonkeyPatch, pencils: str
) -> None:
    faces, truth = _faces(monkeypatch, 4, pencils)
    assert faces
    for key, (ppm, face) in faces.items():
        layout = next(lay for lay in layouts("isle") if lay.key == key)
        if pencils == "varied":
            tints = {c: tuple(v) for c, v in truth["render"]["pencils"][key]["tints"].items()}
        else:
            assert "pencils" not in truth["render"]
            tints = dict(PRINTED.tints)
        paper = np.array(INKS["paper"], float)
        for colour, mean in _key_means(layout, ppm, face).items():
            assert mean.sum() < paper.sum() - 60, (key, colour, mean)
            assert _nearest(mean, tints) == colour, (key, colour, mean)
