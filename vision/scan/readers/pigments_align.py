"""Pigment Lab reader: lining each pan up with its print, where a board seen by one or two of
its markers can be misplaced by millimetres far from them."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.layout.boards import PAN_ORDER
from vision.layout.model import Layout
from vision.scan.context import BoardContext
from vision.scan.readers.pigments_pixels import (
    Shift,
    best_match,
    correlation,
    grey_levels,
    match_scores,
    pan_slots,
    region_rect,
    scaled,
    scaled_mask,
    smooth,
)

# Lining a pan up with its print: the print's grey levels (chip slots left out) are matched with
# the photo's within this reach; a match weaker than ALIGNED (a hand or a cup over much of the
# pan) takes the shift its lined-up neighbours point to instead.
ALIGN_MARGIN_MM = 4.0
ALIGN_REACH_MM = 12.0
ALIGN_BLUR_PX = 1.5
ALIGNED = 0.5
ALIGN_AGREE_MM = 3.0  # how far one pan's shift may lie from the line through the others'
ALIGN_SURE = 0.8  # a match this good (of a pan no other resembles) is beyond doubt
# A board seen by two markers near one end may lie further off at the other than lining up
# reaches (14.6 mm on one hard render): a pan the line through the others puts beyond the reach
# is sought again about where it points, and is placed only if it lines up there, this far out.
ALIGN_FARTHEST_MM = 2.0 * ALIGN_REACH_MM
# Nor is the error always a straight line across the board: drawn on to an end pan from the
# others, the line missed it by 3.7 and 4.5 mm on two hard renders, where the pan's own match,
# too weak to count as lined up (0.41, 0.43), was right. A pan matching at least ALIGN_WEAK,
# within ALIGN_NEAR_MM of where the others put it, lies where it matched.
ALIGN_WEAK = 0.35
ALIGN_NEAR_MM = 5.0


@dataclass(frozen=True)
class PanPrint:
    """A pan as printed, to line the photo up with: its box in the face (x0, y0, x1, y1, at no
    shift), and its smoothed grey levels and mask (chip slots left out) at full, half and a
    quarter of the resolution."""

    box: tuple[int, int, int, int]
    levels: dict[int, tuple[NDArray[np.float32], NDArray[np.uint8]]]


def pan_shifts(ctx: BoardContext, prints: Mapping[str, PanPrint]) -> dict[str, Shift | None]:
    """Each pan's shift from where the board's markers put it. The error of a board's
    registration changes smoothly across it, so when both end pans line up beyond doubt
    the middle ones lie on the line between them; otherwise every pan is lined up, and one
    that cannot be (much of it hidden) takes the shift its lined-up neighbours point to, or
    its own weak match where that lies near it.
    None: no pan lined up, a shift beyond the reach of lining up where the pan does not line
    up itself, or a pan not lined up itself on a board seen by one marker whose pans do not
    agree enough to draw a line through (an end pan lined up beyond doubt, or all four pans
    lined up alike)."""
    pans = [pan for pan, _ in PAN_ORDER]
    ends = (pans[0], pans[-1])
    found = {pan: _align(ctx, prints[pan]) for pan in ends}
    # An end that lines up only fairly may have matched a hand or a cup half over it: the
    # middle pans are then lined up too, to tell.
    if any(found[pan][2] < ALIGN_SURE for pan in ends):
        found |= {pan: _align(ctx, prints[pan]) for pan in pans[1:-1]}
    xs = {pan: region_rect(ctx.board.layout, f"pan {pan}").centre[0] for pan in pans}
    good = {pan: (xs[pan], dx, dy) for pan, (dx, dy, score) in found.items() if score >= ALIGNED}
    # A pan lined up far from where the others put it, and unlike any of them, may have
    # matched something else (a hand or a cup over part of it): the least sure of those is
    # not lined up after all, and so on while three or more remain. (A line through two
    # neighbouring pans, drawn on to a far one, takes their small errors far too: a pan
    # lined up like another is no stray.)
    while len(good) >= 3:
        astray = [
            pan
            for pan in good
            # The cheap test first: a line fitted through the others costs far more.
            if not _like_another(good, pan) and _miss(good, pan) > ALIGN_AGREE_MM
        ]
        if not astray:
            break
        del good[min(astray, key=lambda pan: found[pan][2])]
    # A board seen by one marker alone may be placed far off, where a pan can match its
    # neighbour's slots one pitch away, or a whole twin pan: an end pan, whose shape no other
    # pan shares, must be lined up beyond doubt, and the other end too unless three or more
    # pans agree, or else every pan must line up, all at one shift: pans of three shapes
    # matching a pitch off would not all lie alike. Short of that, only pans lined up as a sure
    # end pan is are placed: a pan that matched its twin or its neighbour's slots would lie a
    # pitch from it, and where the others lie is not known well enough to draw a line to.
    sure = [pan for pan in ends if pan in good and found[pan][2] >= ALIGN_SURE]
    alike = len(good) == len(pans) and all(_agree(good[pans[0]], g) for g in good.values())
    trusted = alike or (sure and (len(good) >= 3 or len(sure) == 2))
    if len(ctx.board.marker_ids) < 2 and not trusted:
        good = {pan: g for pan, g in good.items() if any(_agree(g, good[end]) for end in sure)}
        pans = [pan for pan in pans if pan in good]
    shifts: dict[str, Shift | None] = dict.fromkeys(pan for pan, _ in PAN_ORDER)
    for pan in pans:
        shift = good[pan][1:] if pan in good else _shift_between(list(good.values()), xs[pan])
        if pan not in good and shift is not None and pan in found:
            shift = _weakly_matched(found[pan], shift) or shift
        # Beyond the reach of lining up, the board's registration is too far off to trust,
        # unless the pan lines up where the others point.
        if shift is not None and pan not in good and _farther(shift, ALIGN_REACH_MM):
            shift = _confirmed(ctx, prints[pan], shift)
        shifts[pan] = None if shift is None or _farther(shift, ALIGN_FARTHEST_MM) else shift
    return shifts


def _weakly_matched(match: tuple[float, float, float], expected: Shift) -> Shift | None:
    """A pan's own shift (dx, dy, score), when it matched too weakly to count as lined up
    but at least ALIGN_WEAK, within ALIGN_NEAR_MM of where the other pans put it. (A pan that
    matched well, far from the others, matched something else: it is not taken back.)"""
    dx, dy, score = match
    near = float(np.hypot(dx - expected[0], dy - expected[1])) <= ALIGN_NEAR_MM
    return (dx, dy) if ALIGN_WEAK <= score < ALIGNED and near else None


def _farther(shift: Shift, reach: float) -> bool:
    """Whether a shift lies beyond ``reach`` (mm) across or down the board."""
    return max(abs(shift[0]), abs(shift[1])) > reach


def _confirmed(ctx: BoardContext, pan: PanPrint, expected: Shift) -> Shift | None:
    """Where a pan lines up when sought about the shift the other pans point to, if it does
    there, near that shift."""
    dx, dy, score = _align(ctx, pan, expected)
    near = float(np.hypot(dx - expected[0], dy - expected[1])) <= ALIGN_AGREE_MM
    return (dx, dy) if score >= ALIGNED and near else None


def pan_print(layout: Layout, printed: NDArray[np.uint8], pan: str, ppm: float) -> PanPrint:
    outer = region_rect(layout, f"pan {pan}").inset(-ALIGN_MARGIN_MM)
    x0, y0 = round(outer.x * ppm), round(outer.y * ppm)
    x1, y1 = round((outer.x + outer.w) * ppm), round((outer.y + outer.h) * ppm)
    # Smoothed (as the photo will be): blur and noise then matter less than the structure.
    template = smooth(grey_levels(printed[y0:y1, x0:x1]), ALIGN_BLUR_PX)
    # Chips change what a slot looks like; the well between them and its edges do not.
    mask = np.full(template.shape, 255, np.uint8)
    for slot in pan_slots(layout, pan):
        centre = (round(slot.cx * ppm) - x0, round(slot.cy * ppm) - y0)
        cv2.circle(mask, centre, round(slot.r * ppm), 0, -1)
    levels = {k: (scaled(template, k), scaled_mask(mask, k)) for k in (1, 2, 4)}
    return PanPrint((x0, y0, x1, y1), levels)


def _align(
    ctx: BoardContext, pan: PanPrint, around: Shift = (0.0, 0.0)
) -> tuple[float, float, float]:
    """The shift (mm) that best lines the pan up with its print, within the reach of lining up
    about ``around``, and how well it does. The whole reach is searched, past the face's edge
    too (the edge's pixels repeated): a pan near it, cut off from where it truly lies, would
    match its own slots one pitch away instead."""
    ppm = ctx.face.ppm
    ox, oy = round(around[0] * ppm), round(around[1] * ppm)
    x0, y0, x1, y1 = pan.box
    x0, y0, x1, y1 = x0 + ox, y0 + oy, x1 + ox, y1 + oy
    reach = round(ALIGN_REACH_MM * ppm)
    rows, cols = ctx.face.image.shape[:2]
    sx0, sy0 = max(0, x0 - reach), max(0, y0 - reach)
    sx1, sy1 = min(cols, x1 + reach), min(rows, y1 + reach)
    if sx1 <= sx0 or sy1 <= sy0:
        return 0.0, 0.0, 0.0
    pad = (sy0 - (y0 - reach), (y1 + reach) - sy1, sx0 - (x0 - reach), (x1 + reach) - sx1)
    crop = cv2.copyMakeBorder(ctx.face.image[sy0:sy1, sx0:sx1], *pad, cv2.BORDER_REPLICATE)
    score, (bx, by) = _locate(grey_levels(np.asarray(crop, np.uint8)), pan.levels)
    # A best match at the very edge of the reach is where the search stopped, not a peak: the
    # print may match better beyond, or not at all (on validation seed 60310 a pan in a cup's
    # shadow matched at 0.6 at the edge, 12 mm off, and its chips were read a place away).
    if max(abs(bx - reach), abs(by - reach)) >= reach - 1:
        score = 0.0
    return (bx - reach + ox) / ppm, (by - reach + oy) / ppm, score


def _miss(good: dict[str, tuple[float, float, float]], pan: str) -> float:
    """How far (mm) a lined-up pan's shift lies from where the other lined-up pans put it."""
    x, dx, dy = good[pan]
    expected = _shift_between([g for other, g in good.items() if other != pan], x)
    return float(np.hypot(dx - expected[0], dy - expected[1])) if expected else 0.0


def _like_another(good: dict[str, tuple[float, float, float]], pan: str) -> bool:
    """Whether a lined-up pan's shift lies within ALIGN_AGREE_MM of another lined-up pan's."""
    return any(_agree(good[pan], g) for other, g in good.items() if other != pan)


def _agree(one: tuple[float, float, float], other: tuple[float, float, float]) -> bool:
    """Whether two lined-up pans' shifts (x, dx, dy) lie within ALIGN_AGREE_MM of each other."""
    return float(np.hypot(one[1] - other[1], one[2] - other[2])) <= ALIGN_AGREE_MM


def _shift_between(good: list[tuple[float, float, float]], x: float) -> Shift | None:
    """The shift at ``x`` (mm across the board) from the pans lined up (x, dx, dy): on the line
    through them, the same as the only one, or None without any."""
    if len(good) >= 2:
        xs, dxs, dys = (np.array(v) for v in zip(*good, strict=True))
        fx, fy = np.polyfit(xs, dxs, 1), np.polyfit(xs, dys, 1)
        return float(np.polyval(fx, x)), float(np.polyval(fy, x))
    return (good[0][1], good[0][2]) if good else None


def _locate(
    gray: NDArray[np.float32], levels: dict[int, tuple[NDArray[np.float32], NDArray[np.uint8]]]
) -> tuple[float, tuple[int, int]]:
    """The best correlation in ``gray`` of a template (smoothed, and where its mask is set,
    given at full, half and a quarter of the resolution) and where it lies: searched at a
    quarter, then to the pixel at half (between pixels by a parabola through the scores), and
    scored there at full resolution (smoothed alike, as only there it need be)."""
    half = smooth(scaled(gray, 2), ALIGN_BLUR_PX / 2)
    x, y = best_match(scaled(half, 2), *levels[4])[1]
    half_template, half_mask = levels[2]
    rows, cols = half_template.shape
    x0 = min(max(0, 2 * x - 2), half.shape[1] - cols)
    y0 = min(max(0, 2 * y - 2), half.shape[0] - rows)
    scores = match_scores(half[y0 : y0 + rows + 4, x0 : x0 + cols + 4], half_template, half_mask)
    j, i = (int(k) for k in np.unravel_index(int(np.argmax(scores)), scores.shape))
    fx = round(2 * (x0 + i + _vertex(scores[j, max(0, i - 1) : i + 2])))
    fy = round(2 * (y0 + j + _vertex(scores[max(0, j - 1) : j + 2, i])))
    # The smoothing of a window a little larger than the template reaches every pixel it uses.
    margin = math.ceil(3 * ALIGN_BLUR_PX)
    wx, wy = max(0, fx - margin), max(0, fy - margin)
    template, mask = levels[1]
    window = gray[wy : fy + template.shape[0] + margin, wx : fx + template.shape[1] + margin]
    score = _score_at(smooth(window, ALIGN_BLUR_PX), template, mask, (fx - wx, fy - wy))
    return score, (fx, fy)


def _score_at(
    view: NDArray[np.float32],
    template: NDArray[np.float32],
    mask: NDArray[np.uint8],
    at: tuple[int, int],
) -> float:
    """The correlation of ``template`` (where ``mask`` is set) with ``view`` at top-left
    ``at`` (-1 where it does not fit)."""
    rows, cols = template.shape
    x, y = at
    if not (0 <= x <= view.shape[1] - cols and 0 <= y <= view.shape[0] - rows):
        return -1.0
    inside = mask > 0
    return correlation(view[y : y + rows, x : x + cols][inside], template[inside])


def _vertex(scores: NDArray[np.float32]) -> float:
    """Where between pixels a peak lies, from its score and its two neighbours' (a parabola's
    vertex); none at the edge of the scores."""
    if len(scores) < 3 or min(scores) <= -1.0:
        return 0.0
    left, middle, right = scores
    curvature = left - 2 * middle + right
    return float(np.clip(0.5 * (left - right) / curvature, -0.5, 0.5)) if curvature < 0 else 0.0
