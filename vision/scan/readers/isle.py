"""Isle of Colors sheet: the pencil colour of every hex cell, or empty.

Pencil fills are uneven: strokes leave paper showing, and a neighbour's colour overshoots across
the outline. So a cell is read from its inner three quarters, pixel by pixel, and named by the
share of each pencil colour: a clear majority colour, a clearly bare cell, or a problem.
"""

from __future__ import annotations

from typing import Any

from companion.observation import ComponentRead as Read
from vision.layout.inks import INKS
from vision.scan.colours import ColourClassifier, subset
from vision.scan.context import BoardContext
from vision.scan.readers.common import MIN_SEEN

PENCILS = ("green", "blue", "brown", "red")
PIXEL_REJECT_DELTA_E = 32.0
INNER = 0.72  # the part of a cell read: its outline and a neighbour's overshoot stay outside
FILLED_SHARE = 0.25  # this much of one pencil colour makes a filled cell...
DOMINANCE = 2.5  # ...when it is this many times the next colour
EMPTY_MAX_PENCIL = 0.06  # a cell with less pencil than this, and mostly paper, is empty
EMPTY_PAPER = 0.6


class IsleReader:
    def __init__(self) -> None:
        self.colours = ColourClassifier(subset(INKS, ("paper", *PENCILS)), PIXEL_REJECT_DELTA_E)

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
            pixels = ctx.balance.apply(ctx.face.pixels(region.shape, INNER))
            shares = self.colours.shares(pixels)
            ranked = sorted(PENCILS, key=lambda c: -shares.get(c, 0.0))
            first, second = shares.get(ranked[0], 0.0), shares.get(ranked[1], 0.0)
            paper = shares.get("paper", 0.0)
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
