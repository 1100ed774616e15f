"""Pigment Lab reader: the chip in each pan slot, decided by a fitted model from what is measured
of the slot against the dark well of its pan around it (``chip_features``).

The model (``vision/fitted/chips.json``, retrained by ``atelier train chips``) gives the
probability of each answer: the slot empty, each chip, or covered by something that is neither.
The likeliest is taken when its probability reaches the threshold the model was shipped with,
chosen on validation boards; below it, or when the likeliest is "covered", the slot is refused.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from companion.games.pigments.model import PanSize
from companion.observation import ComponentRead as Read
from vision.fitted.model_file import FittedModel, load
from vision.layout.model import Layout
from vision.scan.colours import lab_8bit
from vision.scan.context import BoardContext
from vision.scan.readers.chip_features import (
    CHIPS,
    FEATURES,
    WELL_MAX_L,
    ChipMeasure,
    SlotFeatures,
    SlotView,
    WellLook,
)
from vision.scan.readers.common import MIN_SEEN
from vision.scan.readers.pigments_pixels import (
    Lab,
    Shift,
    circle_of,
    median,
    region_rect,
    take_rows,
)

# Where a slot is read: its middle (a chip is 16 mm in an 18 mm ring and may lie 1 mm off), and
# the well just outside its ring, away from every other slot.
CENTRE_MM = 4.95
AROUND_MM = (10.5, 12.5)
MIN_PIXELS = 12
RIM_MM = 1.5  # how far inside the well's edge the pan's pale rim may reach

# The wells' look in this photo is taken from the pixels around the slots within WELL_CAST_AB
# (a*b*) of the ink's hue and dark (``chip_features.WELL_MAX_L``): a light's colour that the white
# balance did not undo shifts it, and a hand or a cup beside some slots, far from it in hue, does
# not pull it away.
WELL_CAST_AB = 12.0
# The wells are printed alike, and a shadow only darkens: a pan whose well-coloured pixels show
# this much lighter (L*, medians) than the other pans' is under something pale of the wells'
# hue (a grey cup's inside), which would read as bare wells. On 2,000 hard renders (seeds
# 9000-10999), pans in plain view showed at most 20.6 lighter, a pan with one slot in view 23;
# the three pans whose hidden slots were read wrongly so, 25.9 to 31.0.
WELL_LIGHTER = 25.0
# A pan in a bright light shows its wells lighter than WELL_MAX_L (L* 65-67 on two hard renders,
# 33 as printed): the well shows up to WELL_LIFT lighter than the pan's median well-coloured
# pixel, which a pale thing over a few slots does not lift.
WELL_LIFT = 12.0

MODEL_FILE = Path(__file__).resolve().parents[2] / "fitted" / "chips.json"
EMPTY = "empty"
COVERED = "covered"
CLASSES = (EMPTY, *CHIPS, COVERED)


@dataclass(frozen=True)
class PanPixels:
    """Where a pan's well lies in the face (at no shift), and which of its pixels (flat
    indices) each slot is read from: its middle, the well around its ring, and which of the
    latter lie clear of the well's edge."""

    origin: tuple[int, int]  # x, y
    size: tuple[int, int]  # rows, cols
    centre: tuple[float, float]  # mm, where the white balance is taken
    slots: dict[str, tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.bool_]]]
    used: NDArray[np.intp]  # every pixel some slot reads


@dataclass(frozen=True)
class SlotRead:
    chip: str | None
    confidence: float
    problem: str | None = None
    candidates: tuple[str | None, ...] = ()  # the likeliest answers of an unsure read


class ChipReader:
    """Reads the chip in each slot with the fitted model; ``observe``, if given, is shown every
    slot's features (to gather samples for fitting)."""

    def __init__(
        self,
        fitted: FittedModel | None = None,
        observe: Callable[[str, SlotFeatures], None] | None = None,
    ) -> None:
        self.fitted = fitted or load(MODEL_FILE, CLASSES, FEATURES)
        self.observe = observe
        self.measure = ChipMeasure()

    def wells(self, views: dict[str, dict[str, SlotView]]) -> dict[str, WellLook | None]:
        """Each pan's well as this photo shows it. Its a*b*: a light's colour that the white
        balance did not undo shifts it, and so may a white balance taken far away. It is the
        median of the pixels around the slots that are dark and within WELL_CAST_AB of the ink's
        hue, so that a hand or a cup beside some slots, far from it in hue, does not pull it
        away. Where too few such pixels show, the wells' together, or else the ink's own. Its
        lightest: WELL_LIFT above their median L*, at least WELL_MAX_L. None for a pan whose
        well-coloured pixels show more than WELL_LIGHTER lighter than the other pans': its
        wells are hidden under something pale of their hue."""
        ink = np.asarray(self.measure.well[1:], np.float64)

        def well_like(around: list[Lab]) -> Lab:
            seen = np.concatenate([np.zeros((0, 3), np.float32), *around])
            near = (np.hypot(seen[:, 1] - ink[0], seen[:, 2] - ink[1]) <= WELL_CAST_AB) & (
                seen[:, 0] <= WELL_MAX_L
            )
            return np.asarray(seen[near])

        pans = {name: well_like([v.around for v in pan.values()]) for name, pan in views.items()}
        every = np.concatenate([np.zeros((0, 3), np.float32), *pans.values()])
        board = np.asarray(median(every)[1:], np.float64) if len(every) >= MIN_PIXELS else ink
        # Each pan's median well-coloured pixel (L*, a*, b*), where enough of them show.
        middles = {name: median(like) for name, like in pans.items() if len(like) >= MIN_PIXELS}

        def look(name: str) -> WellLook | None:
            if name not in middles:
                return WellLook(board, WELL_MAX_L)
            lightness = float(middles[name][0])
            others = [float(m[0]) for other, m in middles.items() if other != name]
            if others and lightness - statistics.median(others) > WELL_LIGHTER:
                return None
            hue = np.asarray(middles[name][1:], np.float64)
            return WellLook(hue, max(WELL_MAX_L, lightness + WELL_LIFT))

        return {name: look(name) for name in pans}

    def chips(
        self,
        ctx: BoardContext,
        views: dict[str, SlotView] | None,
        well: WellLook | None,
        name: str,
        size: PanSize,
    ) -> list[str]:
        slots = [f"{name} window {i}" for i in range(1, size.windows + 1)]
        slots += [f"{name} binder {i}" for i in range(1, size.binder_slots + 1)]
        views = views or {}
        chips: list[str] = []
        for slot in slots:
            region = ctx.board.layout.region(slot)
            if ctx.face.coverage(region.shape) < MIN_SEEN:
                read = SlotRead(None, 0.0, "outside the photo")
            elif slot not in views:
                read = SlotRead(None, 0.0, "its pan cannot be lined up with the print")
            elif well is None:
                read = SlotRead(None, 0.0, "covered (its well shows lighter than the others')")
            elif not _enough(views[slot]):
                read = SlotRead(None, 0.0, "too little of it seen")
            else:
                features = self.measure.measure(views[slot], well)
                if self.observe is not None:
                    self.observe(slot, features)
                read = self.decide(features)
            problem = f"{slot}: {read.problem}" if read.problem else None
            ctx.record(Read(slot, read.chip, read.confidence, problem, read.candidates))
            if read.chip is not None and problem is None:
                chips.append(read.chip)
        return chips

    def decide(self, features: SlotFeatures) -> SlotRead:
        """The likeliest answer when the model is sure enough of it, else a refusal that names
        the two likeliest."""
        sample = features.vector()
        chances = self.fitted.model.probabilities(sample)[0]
        order = np.argsort(-chances, kind="stable")
        best, second = (CLASSES[int(k)] for k in order[:2])
        chance = float(chances[order[0]])
        if best == COVERED:
            return SlotRead(None, 0.0, "covered (neither a chip nor the bare well)")
        if not self.fitted.accepts(sample, best):
            return SlotRead(None, 0.0, f"covered, or {_unlike(best)}")
        if chance < self.fitted.refuse_below:
            # Rounded down: a chance shown as the threshold would seem to have reached it.
            shown = math.floor(round(chance * 100, 6)) / 100
            return SlotRead(
                None,
                0.0,
                f"unsure ({_named(best)} {shown:.2f}, or {_named(second)})",
                tuple(None if answer == EMPTY else answer for answer in (best, second)),
            )
        return SlotRead(None if best == EMPTY else best, chance)


def pan_pixels(layout: Layout, pan: str, ppm: float) -> PanPixels:
    """Which pixels of the pan's well window each of its slots is read from."""
    well = region_rect(layout, f"pan {pan}")
    x0, y0 = math.ceil(well.x * ppm), math.ceil(well.y * ppm)
    cols = math.floor((well.x + well.w) * ppm) + 1 - x0
    rows = math.floor((well.y + well.h) * ppm) + 1 - y0
    xs = (x0 + np.arange(cols, dtype=np.float32))[None, :] / ppm
    ys = (y0 + np.arange(rows, dtype=np.float32))[:, None] / ppm
    from_edge = np.minimum(
        np.minimum(xs - well.x, well.x + well.w - xs), np.minimum(ys - well.y, well.y + well.h - ys)
    ).reshape(-1)
    regions = [r for r in layout.regions if r.name.startswith(f"{pan} ")]
    squared = [(xs - c.cx) ** 2 + (ys - c.cy) ** 2 for c in (circle_of(r.shape) for r in regions)]
    slots = {}
    for k, region in enumerate(regions):
        own = squared[k].reshape(-1)
        others = np.full(own.shape, np.inf, np.float32)
        for other in squared[:k] + squared[k + 1 :]:
            others = np.minimum(others, other.reshape(-1))
        middle = np.flatnonzero(own <= CENTRE_MM**2)
        around = np.flatnonzero(
            (own >= AROUND_MM[0] ** 2) & (own <= AROUND_MM[1] ** 2) & (others > AROUND_MM[0] ** 2)
        )
        slots[region.name] = (middle, around)
    used = np.unique(np.concatenate([np.concatenate(pair) for pair in slots.values()]))
    # Each slot's pixels as positions among the used ones, which alone are converted.
    place = np.full(rows * cols, -1, np.intp)
    place[used] = np.arange(len(used))
    return PanPixels(
        (x0, y0),
        (rows, cols),
        well.centre,
        {
            name: (place[middle], place[around], from_edge[around] >= RIM_MM)
            for name, (middle, around) in slots.items()
        },
        used,
    )


def slot_views(ctx: BoardContext, pixels: PanPixels, shift: Shift) -> dict[str, SlotView]:
    """Every slot of the pan, where the lined-up print puts it: its middle, and the well
    around its ring (within the well, away from every other slot)."""
    ppm = ctx.face.ppm
    x0, y0 = pixels.origin[0] + round(shift[0] * ppm), pixels.origin[1] + round(shift[1] * ppm)
    window, seen = _window(ctx, x0, y0, *pixels.size)
    raw = take_rows(window.reshape(-1, 3), pixels.used)
    balanced = ctx.balance.balanced(raw, pixels.centre)
    bgr = np.asarray(np.clip(balanced, 0, 255), np.float32)
    lab = lab_8bit(bgr)
    seen = seen[pixels.used]
    views = {}
    for name, (middle, around, inner) in pixels.slots.items():
        shown = seen[around]
        middle, around, inner = middle[seen[middle]], around[shown], inner[shown]
        views[name] = SlotView(
            take_rows(lab, middle),
            take_rows(bgr, middle),
            take_rows(lab, around),
            inner,
            take_rows(raw, middle),
            take_rows(balanced, middle),
        )
    return views


def _named(answer: str) -> str:
    return "the empty well" if answer == EMPTY else answer


def _unlike(answer: str) -> str:
    return "unlike the bare wells seen" if answer == EMPTY else f"unlike any {answer} chip seen"


def _enough(view: SlotView) -> bool:
    return len(view.centre) >= MIN_PIXELS and len(view.around) >= MIN_PIXELS


def _window(
    ctx: BoardContext, x0: int, y0: int, rows: int, cols: int
) -> tuple[NDArray[np.uint8], NDArray[np.bool_]]:
    """The face's pixels in a window (black outside the face), and which of them the camera
    saw, flat."""
    image = ctx.face.image
    window = np.zeros((rows, cols, 3), np.uint8)
    seen = np.zeros((rows, cols), bool)
    ax0, ay0 = max(0, x0), max(0, y0)
    ax1, ay1 = min(image.shape[1], x0 + cols), min(image.shape[0], y0 + rows)
    if ax1 > ax0 and ay1 > ay0:
        inside = (slice(ay0 - y0, ay1 - y0), slice(ax0 - x0, ax1 - x0))
        window[inside] = image[ay0:ay1, ax0:ax1]
        mask = ctx.face.seen_mask
        seen[inside] = True if mask is None else mask[ay0:ay1, ax0:ax1]
    return window, seen.reshape(-1)
