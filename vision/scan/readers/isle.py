"""Isle of Colors sheet: the pencil colour of every hex cell, or empty.

Pencil and marker fills are uneven: strokes of varying pressure leave paper showing, and a
neighbour's colour overshoots across the outline. Ink darkens the paper it lies on, so a stroke
of pressure a shows paper + a * (ink - paper). Each pixel of a cell's inner part is therefore
matched to the nearest such segment from paper to one pencil's ink (not to the ink itself, which a
light stroke never reaches), and the cell is named by the share of each colour: a clear majority
colour, clearly bare paper, or a problem.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion.observation import ComponentRead as Read
from vision.layout.inks import INKS
from vision.scan.context import BoardContext
from vision.scan.readers.common import MIN_SEEN

PENCILS = ("green", "blue", "brown", "red")
INNER = 0.72  # the part of a cell read: its outline and a neighbour's overshoot stay outside
OFF_LINE = 22.0  # a pixel further than this (sRGB units) from every paper-ink line is no pencil
LIGHTEST_STROKE = 0.22  # less ink than this along the line reads as paper
FILLED_SHARE = 0.22  # this much of one pencil colour makes a filled cell...
DOMINANCE = 2.5  # ...when it is this many times the next colour
EMPTY_MAX_PENCIL = 0.06  # a cell with less pencil than this, and mostly paper, is empty
EMPTY_PAPER = 0.6


def _bgr(name: str) -> NDArray[np.float32]:
    r, g, b = INKS[name]
    return np.array([b, g, r], np.float32)


class IsleReader:
    def __init__(self) -> None:
        self.paper = _bgr("paper")
        self.inks = np.stack([_bgr(c) for c in PENCILS])  # K x 3

    def shares(self, pixels: NDArray[np.float32]) -> tuple[dict[str, float], float]:
        """Each pencil's share of the pixels, and paper's."""
        if len(pixels) == 0:
            return {}, 0.0
        direction = self.inks - self.paper  # K x 3
        offset = pixels[:, None, :] - self.paper[None, None, :]  # N x 1 x 3
        along = (offset * direction[None]).sum(axis=2) / (direction * direction).sum(axis=1)
        along = np.clip(along, 0.0, 1.0)  # N x K
        nearest = self.paper + along[:, :, None] * direction[None]  # N x K x 3
        off = np.sqrt(((pixels[:, None, :] - nearest) ** 2).sum(axis=2))  # N x K
        best = np.argmin(off, axis=1)
        rows = np.arange(len(pixels))
        inked = (off[rows, best] <= OFF_LINE) & (along[rows, best] >= LIGHTEST_STROKE)
        paper = (along[rows, best] < LIGHTEST_STROKE) & (
            np.sqrt((offset[:, 0, :] ** 2).sum(axis=1)) <= OFF_LINE
        )
        counts = np.bincount(best[inked], minlength=len(PENCILS))
        total = len(pixels)
        return {c: float(counts[i]) / total for i, c in enumerate(PENCILS)}, float(
            paper.sum()
        ) / total

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        layout = ctx.board.layout
        cells: list[list[Any]] = []
        for region in layout.regions:
            if region.role != "cell":
                continue
            row, col = (int(v) for v in region.name.split()[1].split(","))
            place = f"cell ({row},{col})"
            if ctx.face.coverage(region.shape) < MIN_SEEN:
                ctx.record(Read(place, None, 0.0, f"{place}: outside the photo"))
                continue
            pixels = ctx.colours(region.shape, INNER)
            shares, paper = self.shares(pixels)
            ranked = sorted(PENCILS, key=lambda c: -shares.get(c, 0.0))
            first, second = shares.get(ranked[0], 0.0), shares.get(ranked[1], 0.0)
            if first >= FILLED_SHARE and first >= DOMINANCE * second:
                confidence = min(0.99, 0.5 + first) * (1.0 - second / first)
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
        return {"game": "isle", "island": layout.content["island"], "cells": cells}
