"""An Isle of Colors sheet at 1 mm per pixel: where its cells lie, which of their pixels are
read, where only paper is printed, and its printed grid (to align on, and to tell whether its
outlines show)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.layout.boards import CELL_DOT_MM, key_label
from vision.layout.geometry import Hexagon, Rect
from vision.layout.model import QUIET_MM, Layout

Floats = NDArray[np.float32]
Mask = NDArray[np.bool_]

SHEET_PPM = 1.0  # the sheet is read at 1 mm per pixel (the scanner rectifies it so)
COARSE_PPM = 0.5  # and first aligned at 2 mm
INNER = 0.72  # the part of a cell read: its outline and a neighbour's overshoot stay outside
EDGE_BLUR_MM = 1.0
BOUND_SLACK = 0.08  # log units: how far a white only bounded (its channel clipped) may be off
# Points sampled along each edge of a cell's outline, and how far to either side of it.
LINE_SAMPLES = 14
LINE_SIDE_MM = 1.5
# Of the blurred grid's peak: on an outline, and well clear of every outline.
LINE_SHARE, CLEAR_SHARE = 0.5, 0.05
LINE_BLUR_MM = 2.0  # the line response: a pixel against the blurred shade around it
KEY_CLEAR_MM = 3.0  # around the pencil key: a hand's strokes overshoot its hexagons
DOT_BLUR_MM = 1.5  # beyond each cell's printed dot: the photo's blur, a grid lined up a little off


@dataclass(frozen=True)
class SheetMaps:
    """What is fixed for one sheet at SHEET_PPM: where its cells lie, which of their pixels are
    read, where bare paper is printed, and the printed grid to align on."""

    shape: tuple[int, int]
    cells: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    centres: NDArray[np.float64]  # C x 2 mm
    neighbours: tuple[tuple[int, ...], ...]
    across: NDArray[np.intp]  # C x 6: the cell across each edge of each outline, or -1
    spots: tuple[NDArray[np.intp], NDArray[np.intp]]  # inner pixels read (rows, columns)
    owner: NDArray[np.intp]  # their cell
    offsets: Floats  # N x 2: their place in the cell (cm from its centre)
    whole: NDArray[np.int32]  # px -> the cell whose hexagon holds it, or -1
    areas: NDArray[np.intp]  # px each cell's hexagon holds
    unprinted: Mask  # px where nothing but paper and the cells' outlines is printed
    margin: Mask  # unprinted px off the island by more than a neighbour's overshoot
    grid: Floats  # the printed hexagons' outlines, blurred
    coarse_grid: Floats  # the same at COARSE_PPM
    line_grid: Floats  # the printed grid as the line response (LINE_BLUR_MM) sees it
    on_line: Mask  # px on a printed outline
    off_line: Mask  # px well clear of every outline
    # Points along each cell's printed outline (px, C x 6 edges x samples x 2), and the same
    # points moved off the line to either side.
    outline: tuple[Floats, Floats, Floats]
    # The pencil key's inner pixels (rows, columns), one hexagon per pencil in the layout's
    # order, read as the cells are; empty for a sheet printed without a key.
    key_spots: tuple[tuple[NDArray[np.intp], NDArray[np.intp]], ...]
    key_area: Mask  # px the key and its labels print on, and the strokes overshooting them
    dots: Mask  # px of the cells' printed dots, and the blur around them


def _hexagons(layout: Layout) -> list[tuple[tuple[int, int], Hexagon]]:
    out = []
    for region in layout.regions:
        if region.role == "cell" and isinstance(region.shape, Hexagon):
            row, col = (int(v) for v in region.name.split()[1].split(","))
            out.append(((row, col), region.shape))
    return out


def _key(layout: Layout) -> list[tuple[Hexagon, Rect]]:
    """The pencil key's hexagons, in the layout's order, and where each one's name is printed."""
    return [
        (r.shape, key_label(r))
        for r in layout.regions
        if r.role == "key" and isinstance(r.shape, Hexagon)
    ]


def _inner_spots(
    shape: tuple[int, int], hexagon: Hexagon
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The pixels of ``hexagon`` shrunk by INNER, every other one each way, as a cell's are."""
    around = np.array(hexagon.corners())
    centre = np.array((hexagon.cx, hexagon.cy))
    inside = np.zeros(shape, np.uint8)
    part = centre + (around - centre) * INNER
    cv2.fillPoly(inside, [np.round(part * SHEET_PPM).astype(np.int32)], 1)
    ys, xs = np.nonzero(inside)
    keep = (ys % 2 == 0) & (xs % 2 == 0)
    return ys[keep].astype(np.intp), xs[keep].astype(np.intp)


def _printed(unprinted: Mask, box: Rect) -> None:
    """Marks ``box`` (mm) as printed on."""
    x0, y0 = max(0, int(box.x * SHEET_PPM)), max(0, int(box.y * SHEET_PPM))
    x1, y1 = int((box.x + box.w) * SHEET_PPM) + 1, int((box.y + box.h) * SHEET_PPM) + 1
    unprinted[y0:y1, x0:x1] = False


def disc(mm: float) -> NDArray[np.uint8]:
    """A round structuring element ``mm`` across at SHEET_PPM."""
    size = max(1, round(mm * SHEET_PPM))
    return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)), np.uint8)


def _outline_samples(corners: NDArray[np.float64]) -> tuple[Floats, Floats, Floats]:
    """Points along each edge of every hexagon (``corners``: C x 6 x 2 mm, edge e from corner e
    to the next), clear of its corners, on the line and LINE_SIDE_MM to either side of it, in
    pixels."""
    along = np.linspace(0.15, 0.85, LINE_SAMPLES)[None, None, :, None]
    edge = np.roll(corners, -1, axis=1) - corners
    normal = np.stack([-edge[..., 1], edge[..., 0]], axis=-1)
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
    on = corners[:, :, None, :] + along * edge[:, :, None, :]
    side = LINE_SIDE_MM * normal[:, :, None, :]
    scale = np.float32(SHEET_PPM)
    return (
        (on * scale).astype(np.float32),
        ((on + side) * scale).astype(np.float32),
        ((on - side) * scale).astype(np.float32),
    )


def sheet_maps(layout: Layout) -> SheetMaps:
    """The maps of ``layout``'s sheet (built once per sheet: they never change)."""
    hexagons = _hexagons(layout)
    shape = (round(layout.size[1] * SHEET_PPM), round(layout.size[0] * SHEET_PPM))
    inner = np.full(shape, -1, np.int32)
    whole = np.full(shape, -1, np.int32)
    grid = np.zeros(shape, np.float32)
    shift = 4  # fractional bits of sub-pixel drawing
    corners = np.array([h.corners() for _, h in hexagons])  # C x 6 x 2 mm
    centres = np.array([(h.cx, h.cy) for _, h in hexagons])
    for i, (around, centre) in enumerate(zip(corners, centres, strict=True)):
        part = centre + (around - centre) * INNER
        cv2.fillPoly(inner, [np.round(part * SHEET_PPM).astype(np.int32)], i)
        cv2.fillPoly(whole, [np.round(around * SHEET_PPM).astype(np.int32)], i)
        points = np.round(around * SHEET_PPM * (1 << shift)).astype(np.int32)
        cv2.polylines(grid, [points], True, 1.0, 1, cv2.LINE_AA, shift)
    pitch = np.sqrt(3.0) * hexagons[0][1].r
    # The cell across an edge has its centre mirrored in the edge's midpoint.
    mirrored = corners + np.roll(corners, -1, axis=1) - centres[:, None, :]
    gap = np.linalg.norm(mirrored[:, :, None, :] - centres[None, None, :, :], axis=3)
    across = np.where(gap.min(axis=2) < 0.1 * pitch, gap.argmin(axis=2), -1).astype(np.intp)
    neighbours = tuple(tuple(sorted(int(n) for n in row if n >= 0)) for row in across)
    ys, xs = np.nonzero(inner >= 0)
    keep = (ys % 2 == 0) & (xs % 2 == 0)  # pixels 1 mm apart say much the same
    ys, xs = ys[keep], xs[keep]
    owner = inner[ys, xs].astype(np.intp)
    offsets = np.stack([xs / SHEET_PPM - centres[owner, 0], ys / SHEET_PPM - centres[owner, 1]], 1)
    unprinted = np.ones(shape, bool)
    for marker in layout.markers:
        _printed(unprinted, marker.rect.inset(-QUIET_MM - 2.0))
    unprinted[-round(8 * SHEET_PPM) :] = False  # the label along the bottom edge
    key = _key(layout)
    keyless = np.ones(shape, bool)
    for hexagon, label in key:  # coloured in by the player: no bare paper there
        _printed(keyless, hexagon.bounds.inset(-KEY_CLEAR_MM))
        _printed(keyless, label.inset(-KEY_CLEAR_MM))
    unprinted &= keyless
    edge = round(3 * SHEET_PPM)
    unprinted[:edge], unprinted[:, :edge], unprinted[:, -edge:] = False, False, False
    island = cv2.dilate((whole >= 0).astype(np.uint8), disc(6.0)) > 0
    blurred = np.asarray(cv2.GaussianBlur(grid, (0, 0), EDGE_BLUR_MM * SHEET_PPM), np.float32)
    return SheetMaps(
        shape,
        tuple(c for c, _ in hexagons),
        tuple(f"cell ({r},{c})" for (r, c), _ in hexagons),
        centres,
        neighbours,
        across,
        (ys, xs),
        owner,
        (offsets / 10.0).astype(np.float32),
        whole,
        np.bincount(whole[whole >= 0], minlength=len(hexagons)).astype(np.intp),
        unprinted,
        unprinted & ~island,
        blurred,
        coarse(blurred),
        np.asarray(
            blurred - cv2.GaussianBlur(blurred, (0, 0), LINE_BLUR_MM * SHEET_PPM), np.float32
        ),
        blurred > LINE_SHARE * blurred.max(),
        blurred < CLEAR_SHARE * blurred.max(),
        _outline_samples(corners),
        tuple(_inner_spots(shape, hexagon) for hexagon, _ in key),
        ~keyless,
        _dots(shape, centres),
    )


def _dots(shape: tuple[int, int], centres: NDArray[np.float64]) -> Mask:
    """The px of each cell's printed dot (``centres``: mm), and DOT_BLUR_MM around it."""
    dots = np.zeros(shape, np.uint8)
    radius = round((CELL_DOT_MM + DOT_BLUR_MM) * SHEET_PPM)
    for cx, cy in centres:
        cv2.circle(dots, (round(cx * SHEET_PPM), round(cy * SHEET_PPM)), radius, 1, -1)
    return dots > 0


def coarse(image: Floats) -> Floats:
    """``image`` at COARSE_PPM, each pixel the mean of those it covers."""
    h, w = image.shape[:2]
    size = (round(w * COARSE_PPM / SHEET_PPM), round(h * COARSE_PPM / SHEET_PPM))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.float32)


def paper_hue_distance(hues: tuple[Floats, Floats], white: Floats) -> Floats:
    """How far ``hues`` (blue less green, red less green, in log units) lie from the paper's
    (``white``: its colour, per channel): the farther of the two."""
    return np.asarray(
        np.maximum(
            np.abs(hues[0] - float(np.log(white[0] / white[1]))),
            np.abs(hues[1] - float(np.log(white[2] / white[1]))),
        ),
        np.float32,
    )


def log_planes(image: Floats) -> list[Floats]:
    """The log of each channel (floored: noise in the dark says nothing of hue)."""
    logged = cv2.log(np.maximum(image, 8.0))
    # One copy, channel by channel: cheaper than splitting (or reducing) along the last axis.
    return list(np.ascontiguousarray(logged.transpose(2, 0, 1), np.float32))
