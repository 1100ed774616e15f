"""Isle of Colors sheet: the pencil colour of every hex cell, or empty.

Pencil and marker fills are uneven: strokes of varying pressure leave paper showing, and a
neighbour's colour overshoots across the outline. Ink darkens the paper it lies on, so a stroke
of pressure a shows paper + a * (ink - paper). Each pixel of a cell's inner part is therefore
matched, in CIELAB, to the nearest stroke of any pressure of each pencil (not to the ink itself,
which a light stroke never reaches), and the cell is named by the share of each colour: a clear
majority colour, clearly bare paper, or a problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.observation import ComponentRead as Read
from vision.layout.geometry import Hexagon
from vision.layout.inks import INKS
from vision.scan.colours import to_lab
from vision.scan.context import BoardContext
from vision.scan.readers.common import MIN_SEEN

PENCILS = ("green", "blue", "brown", "red")
INNER = 0.72  # the part of a cell read: its outline and a neighbour's overshoot stay outside
STROKE_DELTA_E = 9.0  # a pixel further than this from every pencil's strokes is no pencil
STROKE_SAMPLES = 41  # pressures sampled from paper to full ink
LIGHTEST_STROKE = 0.22  # less ink than this along the line reads as paper
FIRM_STROKE = 0.45  # this much ink or more is a firm stroke
# Pixel labels: 0..3 a light stroke of each pencil, 4..7 a firm one, then paper, then neither.
PAPER = 2 * 4
OTHER = PAPER + 1
CLASSES = OTHER + 1
FILLED_SHARE = 0.22  # this much of one pencil colour makes a filled cell...
DOMINANCE = 2.5  # ...when it is this many times the next colour
EMPTY_MAX_PENCIL = 0.06  # a cell with less pencil than this, and mostly paper, is empty
EMPTY_PAPER = 0.6
LUT_BITS = 5  # 8 levels per lookup step: about 2 Delta E, well inside the threshold


def _bgr(name: str) -> NDArray[np.float32]:
    r, g, b = INKS[name]
    return np.array([b, g, r], np.float32)


@dataclass(frozen=True)
class CellMap:
    """For one sheet at one resolution: which cell's inner part each pixel belongs to (-1: none)."""

    index: NDArray[np.int32]
    names: tuple[str, ...]
    cells: tuple[tuple[int, int], ...]
    centres: tuple[tuple[float, float], ...]


class IsleReader:
    def __init__(self) -> None:
        self.paper = _bgr("paper")
        self.inks = np.stack([_bgr(c) for c in PENCILS])  # K x 3
        self._maps: dict[tuple[str, float, tuple[int, int]], CellMap] = {}
        self._lut: NDArray[np.int8] | None = None

    def lookup(self) -> NDArray[np.int8]:
        """Every colour, quantised to LUT_BITS per channel, classified once (on first use): a
        frame's pixels are then labelled by lookup."""
        if self._lut is None:
            levels = (np.arange(1 << LUT_BITS, dtype=np.float32) + 0.5) * (256 >> LUT_BITS)
            grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1)
            labels = self.classify(grid.reshape(-1, 3)).astype(np.int8)
            self._lut = labels.reshape((1 << LUT_BITS,) * 3)
        return self._lut

    def _cell_map(self, ctx: BoardContext) -> CellMap:
        layout, face = ctx.board.layout, ctx.face
        key = (layout.key, face.ppm, (face.image.shape[0], face.image.shape[1]))
        if key not in self._maps:
            index = np.full(face.image.shape[:2], -1, np.int32)
            names: list[str] = []
            cells: list[tuple[int, int]] = []
            centres: list[tuple[float, float]] = []
            for region in layout.regions:
                if region.role != "cell" or not isinstance(region.shape, Hexagon):
                    continue
                hexagon = region.shape
                corners = [
                    (hexagon.cx + (x - hexagon.cx) * INNER, hexagon.cy + (y - hexagon.cy) * INNER)
                    for x, y in hexagon.corners()
                ]
                polygon = np.round(np.array(corners) * face.ppm).astype(np.int32)
                cv2.fillPoly(index, [polygon], len(names))
                row, col = (int(v) for v in region.name.split()[1].split(","))
                names.append(f"cell ({row},{col})")
                cells.append((row, col))
                centres.append((hexagon.cx, hexagon.cy))
            self._maps[key] = CellMap(index, tuple(names), tuple(cells), tuple(centres))
        return self._maps[key]

    def classify(self, pixels: NDArray[np.float32]) -> NDArray[np.int64]:
        """Per pixel: the pencil whose stroke it matches (light, firm), paper, or neither.

        Each pencil's strokes of every pressure are sampled along paper -> ink (the blend is
        made where ink is laid down, in sRGB) and compared in CIELAB: a pixel belongs to the
        pencil with the nearest sample, if that is within the reject threshold in Delta E.
        """
        alphas = np.linspace(0.0, 1.0, STROKE_SAMPLES, dtype=np.float32)
        strokes = self.paper + alphas[None, :, None] * (self.inks - self.paper)[:, None, :]
        stroke_lab = to_lab(strokes.reshape(-1, 3)).reshape(len(PENCILS), STROKE_SAMPLES, 3)
        lab = to_lab(pixels)
        distance = np.sqrt(((lab[:, None, None, :] - stroke_lab[None]) ** 2).sum(axis=3))
        nearest = distance.argmin(axis=2)  # N x K: the best pressure per pencil
        off = np.take_along_axis(distance, nearest[:, :, None], axis=2)[:, :, 0]
        best = off.argmin(axis=1)
        rows = np.arange(len(pixels))
        along = alphas[nearest[rows, best]]
        close = off[rows, best] <= STROKE_DELTA_E
        inked = close & (along >= LIGHTEST_STROKE)
        paper = close & (along < LIGHTEST_STROKE)
        labels = np.full(len(pixels), OTHER, np.int64)
        labels[paper] = PAPER
        labels[inked] = best[inked]
        # A firm stroke says more about its colour than a light one: near the paper end the
        # pencils' strokes all look alike.
        firm = inked & (along >= FIRM_STROKE)
        labels[firm] = best[firm] + len(PENCILS)
        return labels

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        cell_map = self._cell_map(ctx)
        inside = cell_map.index >= 0
        if ctx.face.seen_mask is not None:
            inside &= ctx.face.seen_mask
        owner = cell_map.index[inside]
        gains = np.stack([ctx.balance.gains_at(x, y) for x, y in cell_map.centres])
        raw = ctx.face.image[inside]
        base = (
            ctx.balance.correction.apply_bgr(raw)
            if ctx.balance.correction
            else raw.astype(np.float32)
        )
        pixels = np.clip(base * gains[owner], 0, 255)
        q = (pixels.astype(np.int32) >> (8 - LUT_BITS)).T
        labels = self.lookup()[q[0], q[1], q[2]].astype(np.int64)
        classes = CLASSES
        counts = np.bincount(owner * classes + labels, minlength=len(cell_map.names) * classes)
        counts = counts.reshape(len(cell_map.names), classes)
        full = np.bincount(cell_map.index[cell_map.index >= 0], minlength=len(cell_map.names))
        cells: list[list[Any]] = []
        for k, place in enumerate(cell_map.names):
            total = int(counts[k].sum())
            if total < MIN_SEEN * full[k]:
                ctx.record(Read(place, None, 0.0, f"{place}: outside the photo"))
                continue
            firm = {c: counts[k, len(PENCILS) + i] / total for i, c in enumerate(PENCILS)}
            shares = {c: counts[k, i] / total + firm[c] for i, c in enumerate(PENCILS)}
            paper = counts[k, PAPER] / total
            ranked = sorted(PENCILS, key=lambda c: -shares[c])
            first, second = shares[ranked[0]], shares[ranked[1]]
            firm_first, firm_second = firm[ranked[0]], max(firm[c] for c in ranked[1:])
            row, col = cell_map.cells[k]
            if first >= FILLED_SHARE and firm_first > 0 and firm_first >= DOMINANCE * firm_second:
                confidence = min(0.99, 0.5 + first) * (1.0 - firm_second / firm_first)
                ctx.record(Read(place, ranked[0], confidence))
                cells.append([row, col, ranked[0]])
            elif first <= EMPTY_MAX_PENCIL and paper >= EMPTY_PAPER:
                ctx.record(Read(place, None, min(0.99, paper)))
            elif first >= FILLED_SHARE:
                problem = f"{place}: ambiguous {ranked[0]}/{ranked[1]} ({first:.0%}/{second:.0%})"
                ctx.record(Read(place, None, 0.0, problem))
            else:
                problem = f"{place}: unclear, {first:.0%} {ranked[0]} and {paper:.0%} paper"
                ctx.record(Read(place, None, 0.0, problem))
        return {"game": "isle", "island": ctx.board.layout.content["island"], "cells": cells}
