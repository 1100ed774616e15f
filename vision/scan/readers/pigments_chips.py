"""Pigment Lab reader: the chip in each pan slot, read against the dark well of its pan around
it and matched with the printed chip inks."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration.colour import CLIPPED
from companion.colour import lightness_to_y, linear_to_srgb
from companion.games.pigments.model import PanSize
from companion.observation import ComponentRead as Read
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.scan.colours import (
    channel_max,
    channel_sum,
    lab_8bit,
    median_at_least,
    rgb_to_lab,
    to_lab,
)
from vision.scan.context import BoardContext
from vision.scan.readers.common import CERTAIN, MIN_SEEN
from vision.scan.readers.pigments_pixels import (
    LUMA_BGR,
    Floats,
    Lab,
    Shift,
    bgr_linear,
    circle_of,
    linear_light,
    median,
    region_rect,
    share,
    take_rows,
)

CHIPS = ("Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder")
TIO2 = CHIPS.index("TiO2")

# Where a slot is read: its middle (a chip is 16 mm in an 18 mm ring and may lie 1 mm off), and
# the well just outside its ring, away from every other slot.
CENTRE_MM = 4.95
AROUND_MM = (10.5, 12.5)
MIN_PIXELS = 12

# The well around a slot shows when at least this share of it is well-coloured: dark, and of the
# well's slate hue (a hand, a cup or coffee is not) as the photo shows the wells, when that is
# within WELL_CAST_AB of the ink's.
WELL_AB = (8.0, 10.0)  # a*, b* reach from the wells' hue
WELL_CAST_AB = 12.0
WELL_MAX_L = 65.0
WELL_SHOWS = 0.5
# The wells are printed alike, and a shadow only darkens: a pan whose well-coloured pixels show
# this much lighter (L*, medians) than the other pans' is under something pale of the wells'
# hue (a grey cup's inside), which would read as bare wells. On 2,000 hard renders (seeds
# 9000-10999), pans in plain view showed at most 20.6 lighter, a pan with one slot in view 23;
# the three pans whose hidden slots were read wrongly so, 25.9 to 31.0.
WELL_LIGHTER = 25.0
# A pan in a bright light shows its wells lighter than WELL_MAX_L (L* 65-67 on two hard renders,
# 33 as printed), and much of the well around a slot would seem hidden. The well shows up to
# WELL_LIFT lighter than the pan's median well-coloured pixel: taken below WELL_MAX_L, that median
# is the wells' own, which a pale thing over a few slots does not lift. (Every other test takes
# the well's pixels below WELL_MAX_L still.)
WELL_LIFT = 12.0
# A chip's middle is one colour up to shading: this share of it within CHROMA_REACH (linear
# chromaticity, which a shadow leaves alone) of its median, or something else lies across it.
CHROMA_REACH = 0.05
ONE_COLOUR = 0.5
# And a chip is lit alike up to a shadow's edge: its brighter pixels (LIGHT_SPREAD percentiles)
# within ONE_LIGHT times the luminance of its darker ones. On 1,500 hard renders, chips in plain
# view measured at most 4.5; a white cup's rim across a bare well, of the well's hue in its
# light, measured 10 or more (and was read as titanium white). A bare binder slot, its pale
# printed dot on the dark well, is told by its likeness to the well first.
LIGHT_SPREAD = (10.0, 90.0)
ONE_LIGHT = 6.0
# A chip ends inside its ring: its colour (within BLEED_DELTA_E) on more than this share of the
# well around it means something larger lies there, unless all of that colour lies along the
# well's edge, which blur and the print's alignment let the pan's pale rim reach. On 1,500 hard
# renders, the pale chips refused for their rim's colour showed none of it beyond RIM_MM of the
# edge; everything that covered a slot and reached past it showed some there (and on another
# render, a white cup whose rim met the well's edge as little as 1.8 % of the well). The well's
# own colour is not the chip's: a binder chip, nearly as dark as the well, lies within
# BLEED_DELTA_E of some of its pixels (on 2,500 hard renders, 4 binder chips in plain view were
# refused for them; each of the 30 slots the test keeps from a wrong read is still refused).
BLEED_DELTA_E = 12.0
MAX_BLEED = 0.1
RIM_MM = 1.5

# Empty: the middle has the hue (a*b* distance) and about the lightness (log luminance ratio) of
# the well-coloured part of the well around it: a cup's rim or coffee beside the ring must not
# change what the bare well looks like. Darker than that, the well lies in a deeper shadow than
# its surroundings: no chip is both that dark and of the well's slate hue. A chip differs from
# the well around clearly in hue or is much lighter. Between the two is a problem. On 4,000 hard
# renders (seeds 8000-11999), the medians of 20,368 empty slots in plain view lay up to 6.1 from
# their well's but one at 7.07 (a*b* in 8-bit steps: (5, 5)), chips in plain view 11.4 and more;
# the only chips between 7 and 9 lay under something that hides their well as well.
EMPTY_AB = 7.5
EMPTY_LOG_Y = (-1.3, 0.65)
CHIP_AB = 11.0
CHIP_LOG_Y = 0.8
# A chip's brightness against its well's: shadows, highlights and blur keep it within this
# factor range of what the well's brightness predicts.
RELATIVE_LIGHT = (0.37, 1.8)
# The chip may lie in the light of any part of the well around, not only of its median: a cup's
# shadow across part of the well may cover the chip. Its darker and brighter parts
# (percentiles of the well-coloured pixels' L*) widen the range. On validation seed 60047 a TiO2
# chip in a cup's shadow, its well lit but for a part as dark, was read binder (0.62, no
# problem) against the median's light alone; widened, it reads TiO2, and of 780 slots read as
# or refused between TiO2 and binder (train and validation, as rendered), only it changed.
LIT_RANGE = (10.0, 90.0)
CHIP_REJECT_DELTA_E = 22.0
# A chip the sensor clipped in some channel (a white chip, or a light one overexposed) shows only
# that it was at least that bright there: an ink explains it only if, at the chip's brightness,
# it would have been clipped there too. The brightness is then bounded by the best-lit part of
# the well around (its WELL_TOP percentile, clear of the chip's own shadow), against which chips
# on hard renders measure at most 1.23 times what the well predicts.
WELL_TOP = 80.0
BRIGHTEST_CHIP = 1.3
# The nearest chip ink must beat the next by this much Delta E; a dark chip (below L* 60) shows
# less colour, and all its distances shrink with its lightness, so its margin may too (to half).
MIN_MARGIN = 10.0
MARGIN_LIGHTNESS = 60.0
# TiO2 and binder differ little in colour once each is taken as bright as the chip (a warm cast
# or blur leaves the margin short), but binder is less than half as bright. Against what the
# well around predicts for TiO2, chips in plain view on 400 hard renders measured 0.44-1.34 for
# TiO2 and 0.15-0.63 for binder (a chip lit while its well lies in shadow, or the reverse,
# spreads them); under a hand's or cup's edge, TiO2 fell to 0.26. When the colour is too close
# to call between the two, a brightness beyond the other's reach names the nearer one.
PALE_PAIR = frozenset({"TiO2", "binder"})
TIO2_AT_LEAST = 0.75
BINDER_AT_MOST = 0.2
# Close as they are, their colours still fall apart consistently where the sensor did not clip
# the chip: on 4,656 unclipped pale chips in plain view on hard renders (seeds 8000-11999),
# binder lay at least 3.0 Delta E nearer binder than TiO2, and TiO2 was never nearer binder (its
# least leads 0.2, 1.3, 2.2). A lead of PALE_MARGIN names the nearer of the two: TiO2's lies
# 4 Delta E clear of every binder chip. (Clipped, a binder lit brighter is as white as TiO2:
# there the colour alone names neither.)
PALE_MARGIN = {"TiO2": 1.0, "binder": 3.0}


@dataclass(frozen=True)
class SlotView:
    """A slot's pixels, white-balanced: its middle (Lab and BGR), and the well around its ring."""

    centre: Lab
    centre_bgr: NDArray[np.float32]
    around: Lab
    inner: NDArray[np.bool_]  # which of ``around`` lie at least RIM_MM inside the well's edge
    # The middle as the sensor gave it, and balanced beyond 255 where it is so: only a middle
    # that looks like a chip is checked for clipping, so that is worked out only then.
    centre_raw: NDArray[np.uint8]
    centre_balanced: NDArray[np.float32]


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
class WellLook:
    """A pan's well as this photo shows it: its a*b*, and how light (L*) a pixel of that hue
    may be and still be the well showing."""

    hue: Floats
    lightest: float


@dataclass(frozen=True)
class SlotRead:
    chip: str | None
    confidence: float
    problem: str | None = None


class ChipReader:
    """Reads the chip in each slot: the well's and the chip inks' colours, worked out once."""

    def __init__(self) -> None:
        self.well = rgb_to_lab(INKS["well"])
        self.well_luminance = lightness_to_y(float(self.well[0]))
        self.inks = np.stack([bgr_linear(chip) for chip in CHIPS])
        self.ink_luminance = self.inks @ LUMA_BGR

    def wells(self, views: dict[str, dict[str, SlotView]]) -> dict[str, WellLook | None]:
        """Each pan's well as this photo shows it. Its a*b*: a light's colour that the white
        balance did not undo shifts it, and so may a white balance taken far away. It is the
        median of the pixels around the slots that are dark and within WELL_CAST_AB of the ink's
        hue, so that a hand or a cup beside some slots, far from it in hue, does not pull it
        away. Where too few such pixels show, the wells' together, or else the ink's own. Its
        lightest: WELL_LIFT above their median L*, at least WELL_MAX_L. None for a pan whose
        well-coloured pixels show more than WELL_LIGHTER lighter than the other pans': its
        wells are hidden under something pale of their hue."""
        ink = np.asarray(self.well[1:], np.float64)

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
            else:
                read = self._read_slot(views[slot], well)
            problem = f"{slot}: {read.problem}" if read.problem else None
            ctx.record(Read(slot, read.chip, read.confidence, problem))
            if read.chip is not None and problem is None:
                chips.append(read.chip)
        return chips

    def _read_slot(self, view: SlotView, look: WellLook) -> SlotRead:
        if len(view.centre) < MIN_PIXELS or len(view.around) < MIN_PIXELS:
            return SlotRead(None, 0.0, "too little of it seen")
        shows = _well_coloured(view.around, look.hue, look.lightest)
        well = shows & (view.around[:, 0] <= WELL_MAX_L)  # lightest is never below it
        well_share = share(shows)
        if well_share < WELL_SHOWS or np.count_nonzero(well) < MIN_PIXELS:
            return SlotRead(None, 0.0, "covered (the well around it is hidden)")
        if _one_colour(view.centre_bgr) < ONE_COLOUR:
            return SlotRead(None, 0.0, "covered, or two colours across it")
        middle, around = median(view.centre), median(view.around)
        shown = take_rows(view.around, np.flatnonzero(well))  # the well-coloured part
        apart, light = _difference(middle, median(shown))
        if apart <= EMPTY_AB and EMPTY_LOG_Y[0] <= light <= EMPTY_LOG_Y[1]:
            return SlotRead(None, min(CERTAIN, 0.5 + well_share / 2))
        apart, light = _difference(middle, around)
        if apart < CHIP_AB and light < CHIP_LOG_Y:
            return SlotRead(None, 0.0, "neither a chip nor the empty well")
        bleed = (np.sqrt(channel_sum((view.around - middle) ** 2)) <= BLEED_DELTA_E) & ~well
        inner = bleed[view.inner]
        if share(bleed) > MAX_BLEED and (len(inner) < MIN_PIXELS or inner.any()):
            return SlotRead(None, 0.0, "covered (its colour reaches past the slot)")
        dark, lit = (
            lightness_to_y(float(q)) for q in np.percentile(view.centre[:, 0], LIGHT_SPREAD)
        )
        if lit > ONE_LIGHT * dark:
            return SlotRead(None, 0.0, "covered, or two colours across it")
        # Channels whose median the sensor clipped.
        clipped = median_at_least(view.centre_raw, CLIPPED)
        bright = median(view.centre_balanced)
        if clipped.any() or bright.max() > 255.0:
            top = float(np.percentile(shown[:, 0], WELL_TOP))
            return self._classify_clipped(bright, clipped, around, top)
        darker, brighter = (float(q) for q in np.percentile(shown[:, 0], LIT_RANGE))
        return self._classify(middle, around, (darker, brighter))

    def _classify(self, middle: Lab, around: Lab, lit: tuple[float, float]) -> SlotRead:
        """The chip ink nearest the middle's colour, each ink taken as bright as the middle (as
        far as the light on the well around allows: ``lit``, the L* of its darker and brighter
        well-coloured parts)."""
        local = lightness_to_y(float(around[0])) / self.well_luminance
        darker, brighter = (lightness_to_y(v) / self.well_luminance for v in lit)
        seen = lightness_to_y(float(middle[0]))
        low, high = RELATIVE_LIGHT
        scale = np.clip(
            seen / self.ink_luminance, min(local, darker) * low, max(local, brighter) * high
        )
        expected = to_lab(np.asarray(linear_to_srgb(self.inks * scale[:, None]), np.float32))
        distance = np.sqrt(((expected - middle) ** 2).sum(axis=1))
        titanium = seen / (self.ink_luminance[TIO2] * local)
        bright = "TiO2" if titanium >= TIO2_AT_LEAST else None
        bright = "binder" if titanium <= BINDER_AT_MOST else bright
        return nearest_chip(distance, float(middle[0]), at_limit=False, brightness_says=bright)

    def _classify_clipped(
        self, bgr: NDArray[np.float32], clipped: NDArray[np.bool_], around: Lab, top: float
    ) -> SlotRead:
        """The chip ink that explains a middle clipped in some channels: at a brightness the
        well around allows, it reaches the clipped level in each clipped channel and matches
        the rest. An ink that could not be that bright is no candidate at all."""
        seen = linear_light(bgr)
        low = lightness_to_y(float(around[0])) / self.well_luminance * RELATIVE_LIGHT[0]
        high = lightness_to_y(top) / self.well_luminance * BRIGHTEST_CHIP
        # The least brightness at which each ink is clipped wherever the middle is.
        reach = np.where(clipped, seen / self.inks, 0.0).max(axis=1)
        free = ~clipped
        fit = (self.inks[:, free] @ seen[free]) / np.maximum(
            (self.inks[:, free] ** 2).sum(axis=1), 1e-9
        )
        scale = np.clip(np.maximum(fit, reach), low, high)
        expected = np.where(clipped, seen, self.inks * scale[:, None])
        # Compared as if a little less exposed where the balance takes the middle beyond white.
        down = max(1.0, float(seen.max()))
        lab = to_lab(np.asarray(linear_to_srgb(np.vstack([expected, seen]) / down), np.float32))
        middle, lab = lab[-1], lab[:-1]
        distance = np.sqrt(((lab - middle) ** 2).sum(axis=1))
        distance[reach > high] = np.inf
        return nearest_chip(distance, float(middle[0]), at_limit=True)


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


def nearest_chip(
    distance: NDArray[np.float64],
    lightness: float,
    at_limit: bool,
    brightness_says: str | None = None,
) -> SlotRead:
    """The chip ink at the least Delta E ``distance`` (one per ink) from a middle of L*
    ``lightness``, when near enough and clearly nearer than the next, or, between TiO2 and
    binder, nearer and the one the chip's brightness (``brightness_says``) names, or nearer by
    its PALE_MARGIN unclipped where the brightness names neither."""
    order = np.argsort(distance)
    best, second = int(order[0]), int(order[1])
    if distance[best] > CHIP_REJECT_DELTA_E:
        if at_limit:
            return SlotRead(None, 0.0, "no chip colour (at the sensor's limit)")
        why = f"no chip colour (nearest {CHIPS[best]}, Delta E {distance[best]:.0f})"
        return SlotRead(None, 0.0, why)
    margin = float(distance[second] - distance[best])
    needed = MIN_MARGIN * float(np.clip(lightness / MARGIN_LIGHTNESS, 0.5, 1.0))
    pair = {CHIPS[best], CHIPS[second]} == PALE_PAIR
    says = brightness_says
    clear = says is None and not at_limit and margin >= PALE_MARGIN.get(CHIPS[best], np.inf)
    pale = pair and (says == CHIPS[best] or clear)
    if margin < needed and not pale:
        limit = ", at the sensor's limit" if at_limit else ""
        return SlotRead(None, 0.0, f"ambiguous chip ({CHIPS[best]}/{CHIPS[second]}{limit})")
    return SlotRead(CHIPS[best], min(CERTAIN, 0.5 + margin / 40.0))


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


def _well_coloured(lab: Lab, hue: Floats, lightest: float = WELL_MAX_L) -> NDArray[np.bool_]:
    """Which of ``lab`` are well-coloured: dark (L* at most ``lightest``), and of the wells'
    hue."""
    a_reach, b_reach = WELL_AB
    return np.asarray(
        (np.abs(lab[:, 1] - hue[0]) <= a_reach)
        & (np.abs(lab[:, 2] - hue[1]) <= b_reach)
        & (lab[:, 0] <= lightest)
    )


def _difference(colour: Lab, reference: Lab) -> tuple[float, float]:
    """How far ``colour`` lies from ``reference`` in hue (a*b* distance) and in lightness (the
    log of their luminances' ratio)."""
    apart = float(np.hypot(colour[1] - reference[1], colour[2] - reference[2]))
    # A numpy quotient: against black (L* 0) the ratio is infinite rather than an error.
    light = float(
        np.log(np.float64(lightness_to_y(float(colour[0]))) / lightness_to_y(float(reference[0])))
    )
    return apart, light


def _one_colour(bgr: NDArray[np.float32]) -> float:
    """The share of pixels whose chromaticity (linear light) is that of their median."""
    linear = linear_light(bgr)
    chroma = np.asarray(linear / np.maximum(channel_sum(linear), 1e-3)[:, None], np.float32)
    spread = channel_max(np.abs(chroma - median(chroma)))
    return share(spread <= CHROMA_REACH)
