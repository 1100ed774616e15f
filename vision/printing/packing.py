"""Packing components onto sheets: shelves, tallest first, each sheet portrait or landscape as
holds more. Components stay upright (a card's top is the top of the sheet)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Size = tuple[float, float]


@dataclass(frozen=True)
class Placement:
    item: int  # index into the sizes packed
    x: float  # the component's top-left corner, mm from the sheet's top-left corner
    y: float


@dataclass(frozen=True)
class SheetPlan:
    size: Size  # width, height in mm as the sheet lies (landscape is wider than tall)
    placements: tuple[Placement, ...]

    @property
    def orientation(self) -> str:
        return "landscape" if self.size[0] > self.size[1] else "portrait"


@dataclass
class _Shelf:
    y: float
    height: float
    x: float  # where the next component on this shelf goes


def _fill(
    items: Sequence[int], sizes: Sequence[Size], area: Size, gap: float
) -> tuple[list[tuple[int, float, float]], list[int]]:
    """First fit of ``items`` (tallest first) onto shelves in ``area``: (placed, left over)."""
    shelves: list[_Shelf] = []
    placed: list[tuple[int, float, float]] = []
    rest: list[int] = []
    for item in items:
        w, h = sizes[item]
        shelf = next((s for s in shelves if h <= s.height and s.x + w <= area[0]), None)
        if shelf is None:
            top = shelves[-1].y + shelves[-1].height + gap if shelves else 0.0
            if w > area[0] or top + h > area[1]:
                rest.append(item)
                continue
            shelf = _Shelf(top, h, 0.0)
            shelves.append(shelf)
        placed.append((item, shelf.x, shelf.y))
        shelf.x += w + gap
    return placed, rest


def pack(sizes: Sequence[Size], paper: Size, margin: float, gap: float) -> tuple[SheetPlan, ...]:
    """Sheets holding every one of ``sizes``. Each sheet takes the largest component left and is
    turned the way that fits it and covers the most paper with the smaller ones around it."""
    order = sorted(range(len(sizes)), key=lambda i: (-sizes[i][1], -sizes[i][0]))
    portrait = (min(paper), max(paper))
    plans: list[SheetPlan] = []
    while order:
        options = []
        for sheet in (portrait, (portrait[1], portrait[0])):
            area = (sheet[0] - 2 * margin, sheet[1] - 2 * margin)
            placed, rest = _fill(order, sizes, area, gap)
            if placed and placed[0][0] == order[0]:
                covered = sum(sizes[i][0] * sizes[i][1] for i, _, _ in placed)
                options.append((covered, sheet, placed, rest))
        if not options:
            w, h = sizes[order[0]]
            raise ValueError(f"a {w} x {h} mm component does not fit a {paper} mm sheet")
        # max keeps the first of equals: portrait, unless landscape holds more.
        _, sheet, placed, order = max(options, key=lambda option: option[0])
        plans.append(
            SheetPlan(sheet, tuple(Placement(i, margin + x, margin + y) for i, x, y in placed))
        )
    return tuple(plans)
