"""Pigment Lab palette board: the chip in every pan slot and the shade card under each pan.

A palette seen by one marker alone, which may place it centimetres off, is first placed by its
print (``pigments_pose``). Each pan is then lined up with its print: a board seen by one or two
of its markers can be misplaced by millimetres far from them. A chip is then read against its
own surroundings, the dark well of its pan, which lies in the same light: an empty slot looks
like the well around it, a chip does not, and a chip's colour is matched with the printed chip
inks at a brightness that may differ from the well's only as much as shadows, highlights and
blur make it. A shade card is known by its marker, or else by its face, and a place without one
by its print showing bare.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.colour import CLIPPED
from companion.games.pigments.model import PanSize
from companion.observation import ComponentRead as Read
from vision.draw import draw_layout
from vision.images import Image
from vision.layout.boards import PAN_ORDER
from vision.layout.catalogue import layouts
from vision.layout.geometry import Circle, Rect
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.scan.colours import channel_max, channel_sum, median_at_least, rgb_to_lab, to_lab
from vision.scan.context import BoardContext
from vision.scan.readers.common import CERTAIN, MIN_SEEN, single_piece
from vision.scan.readers.pigments_pose import PalettePrint, palette_print, placed_by_print
from vision.scan.registration import Sighting

CHIPS = ("Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder")
TIO2 = CHIPS.index("TiO2")

# Lining a pan up with its print: the print's grey levels (chip slots left out) are matched with
# the photo's within this reach; a match weaker than ALIGNED (a hand or a cup over much of the
# pan) takes the shift its lined-up neighbours point to instead.
ALIGN_MARGIN_MM = 4.0
ALIGN_REACH_MM = 12.0
ALIGN_BLUR_PX = 1.5
ALIGNED = 0.5
ALIGN_AGREE_MM = 3.0  # how far one pan's shift may lie from the line through the others'
ALIGN_SURE = 0.8  # a match this good (of a pan no other resembles) is beyond doubt

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
# A chip's middle is one colour up to shading: this share of it within CHROMA_REACH (linear
# chromaticity, which a shadow leaves alone) of its median, or something else lies across it.
CHROMA_REACH = 0.05
ONE_COLOUR = 0.5
# A chip ends inside its ring: its colour (within BLEED_DELTA_E) on more than this share of the
# well around it means something larger lies there.
BLEED_DELTA_E = 12.0
MAX_BLEED = 0.1

# Empty: the middle has the hue (a*b* distance) and about the lightness (log luminance ratio) of
# the well-coloured part of the well around it: a cup's rim or coffee beside the ring must not
# change what the bare well looks like. Darker than that, the well lies in a deeper shadow than
# its surroundings: no chip is both that dark and of the well's slate hue. A chip differs from
# the well around clearly in hue or is much lighter. Between the two is a problem.
EMPTY_AB = 7.0
EMPTY_LOG_Y = (-1.3, 0.65)
CHIP_AB = 11.0
CHIP_LOG_Y = 0.8
# A chip's brightness against its well's: shadows, highlights and blur keep it within this
# factor range of what the well's brightness predicts.
RELATIVE_LIGHT = (0.37, 1.8)
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

# An empty shade card place shows its printed outline and label (edges correlated with the
# print's, both smoothed so that blur does not hide thin lines) and bare board: paper's hue, and
# not much darker than its surroundings (a shadow darkens both alike, a card's marker does not).
PLACE_MARGIN_MM = 3.0
RELATIVE_SMOOTH_MM = 3.0
MARKS_SMOOTH_MM = 0.8
MARKS_REACH_MM = 1.5
# Bare places in plain view correlate 0.36 and up (one, under strong motion blur, 0.32); a place
# holding a card that looks bare (a white cup over it) at most 0.13: the threshold lies between.
MARKS_VISIBLE = 0.25
BARE_INSET = 0.1  # of the place's width: the middle of the place, away from its outline
BARE_AB = 10.0
BARE_RELATIVE = 0.85
BARE_SHARE = 0.85

# A shade card whose marker cannot be read (too small or blurred) is known by its face: the
# card's pose is found with the average shade card face, then every card not seen elsewhere in
# the photo, and the bare place, is compared with what lies there. Accepted only for a clear
# winner: the face must match (plain correlation), and so must what sets it apart from the
# average card (its marker's pattern, its swatch and name).
CARD_REACH_MM = 5.0
CARD_TURN_DEG = 12.0
CARD_TURN_STEP_DEG = 2.0
CARD_SMOOTH_MM = 1.0
CARD_POSES_REFINED = 4  # the poses best at a quarter of the resolution, tried at full
CARD_EDGE_PX = 2  # a card's own rim, left out: there its face meets whatever it lies on
# A card and the paper around it are mostly neutral (a*b* within NEUTRAL_AB): a place less
# neutral than NEUTRAL_SHARE (a hand or a cup over it) shows no card to know.
NEUTRAL_AB = 12.0
NEUTRAL_SHARE = 0.5
CARD_FOUND = 0.5  # the average card face must match at least this well: a card lies there
FACE_MATCH = (0.6, 0.04)  # plain correlation: best at least, margin over the next at least
MARKS_MATCH = (0.35, 0.15)  # correlation of what sets the card apart: best, margin

LUMA_BGR = np.array([0.0722, 0.7152, 0.2126])
# OpenCV's 8-bit CIELAB: L* scaled to 0..255, a* and b* offset by 128.
LAB_SCALE = np.array([100.0 / 255.0, 1.0, 1.0], np.float32)
LAB_OFFSET = np.array([0.0, 128.0, 128.0], np.float32)

Lab = NDArray[np.float32]
Floats = NDArray[np.float64]
Shift = tuple[float, float]
Scalar = TypeVar("Scalar", bound=np.generic)


@dataclass(frozen=True)
class SlotView:
    """A slot's pixels, white-balanced: its middle (Lab and BGR), and the well around its ring."""

    centre: Lab
    centre_bgr: NDArray[np.float32]
    around: Lab
    # The middle as the sensor gave it, and balanced beyond 255 where it is so: only a middle
    # that looks like a chip is checked for clipping, so that is worked out only then.
    centre_raw: NDArray[np.uint8]
    centre_balanced: NDArray[np.float32]


@dataclass(frozen=True)
class PanPixels:
    """Where a pan's well lies in the face (at no shift), and which of its pixels (flat
    indices) each slot is read from: its middle and the well around its ring."""

    origin: tuple[int, int]  # x, y
    size: tuple[int, int]  # rows, cols
    centre: tuple[float, float]  # mm, where the white balance is taken
    slots: dict[str, tuple[NDArray[np.intp], NDArray[np.intp]]]
    used: NDArray[np.intp]  # every pixel some slot reads


@dataclass(frozen=True)
class PanPrint:
    """A pan as printed, to line the photo up with: its box in the face (x0, y0, x1, y1, at no
    shift), and its smoothed grey levels and mask (chip slots left out) at full, half and a
    quarter of the resolution."""

    box: tuple[int, int, int, int]
    levels: dict[int, tuple[NDArray[np.float32], NDArray[np.uint8]]]


@dataclass(frozen=True)
class Guide:
    """What the reader needs from one board's print at one resolution, worked out once: each
    pan's print and slot pixels, and the edges of each shade place's printed marks."""

    pans: dict[str, tuple[PanPrint, PanPixels]]
    marks: dict[str, NDArray[np.float32]]


@dataclass(frozen=True)
class SlotRead:
    chip: str | None
    confidence: float
    problem: str | None = None


@dataclass(frozen=True)
class CardTemplate:
    """The average shade card face turned by ``angle`` (grey levels, on paper where its box has
    no card), at full and at a quarter of the resolution."""

    angle: float
    fine: NDArray[np.float32]
    coarse: NDArray[np.float32]


@dataclass(frozen=True)
class CardFaces:
    """Every shade card's face drawn at one resolution and smoothed: each card's pixels (inside
    its rim) normalised per channel for correlation, likewise what sets it apart from the
    average card, the average itself, and the average turned every way a card may lie."""

    names: tuple[str, ...]
    size: tuple[int, int]  # rows, cols
    plain: NDArray[np.float32]  # cards x (pixels x 3), see _normalised
    apart: NDArray[np.float32]  # likewise
    mean: NDArray[np.float32]  # 3 x pixels
    poses: tuple[CardTemplate, ...]


class PigmentsReader:
    def __init__(self) -> None:
        self.well = rgb_to_lab(INKS["well"])
        self.paper = rgb_to_lab(INKS["paper"])
        self.well_luminance = _luminance(float(self.well[0]))
        self.inks = np.stack([_bgr_linear(chip) for chip in CHIPS])
        self.ink_luminance = self.inks @ LUMA_BGR
        self.cards = tuple(c for c in layouts("pigments") if c.kind == "shade")
        self._faces: dict[float, CardFaces] = {}
        self._guides: dict[tuple[str, float], Guide] = {}
        self._prints: dict[str, PalettePrint] = {}

    def prepare(self, palettes: list[tuple[Layout, Image]], ppm: float) -> None:
        """Draw the shade cards' faces, and each palette's guide and whole print (with its
        printed face at ``ppm``), now rather than on first sight."""
        self._card_faces(ppm)
        for layout, printed in palettes:
            self._guide_of(layout, printed, ppm)
            self._print_of(layout)

    def place(self, image: Image, board: Sighting) -> Sighting:
        """The palette where its print lies, when one marker alone placed it (and may have
        placed it centimetres off); else as its markers placed it."""
        if len(board.marker_ids) != 1:
            return board
        return placed_by_print(image, board, self._print_of(board.layout))

    def _print_of(self, layout: Layout) -> PalettePrint:
        if layout.key not in self._prints:
            self._prints[layout.key] = palette_print(layout)
        return self._prints[layout.key]

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        guide = self._guide(ctx)
        shifts = self._shifts(ctx, guide)
        views = {
            name: _views(ctx, guide.pans[name][1], shift)
            for name, shift in shifts.items()
            if shift is not None
        }
        hues = self._well_hues(views)
        pans = [
            {
                "pan": size.value,
                "chips": self._chips(ctx, views.get(name), hues.get(name), name, size),
                "shade": self._shade(ctx, guide.marks[name], name, shifts[name]),
            }
            for name, size in PAN_ORDER
        ]
        return {"game": "pigments", "pans": pans}

    def _guide(self, ctx: BoardContext) -> Guide:
        return self._guide_of(ctx.board.layout, ctx.printed, ctx.face.ppm)

    def _guide_of(self, layout: Layout, printed: Image, ppm: float) -> Guide:
        key = (layout.key, ppm)
        if key not in self._guides:
            self._guides[key] = _guide(layout, printed, ppm)
        return self._guides[key]

    # Lining pans up with their print.

    def _shifts(self, ctx: BoardContext, guide: Guide) -> dict[str, Shift | None]:
        """Each pan's shift from where the board's markers put it. The error of a board's
        registration changes smoothly across it, so when both end pans line up beyond doubt
        the middle ones lie on the line between them; otherwise every pan is lined up, and one
        that cannot be (much of it hidden) takes the shift its lined-up neighbours point to.
        None: no pan lined up, or a shift beyond the reach of lining up."""
        pans = [pan for pan, _ in PAN_ORDER]
        ends = (pans[0], pans[-1])
        found = {pan: _align(ctx, guide.pans[pan][0]) for pan in ends}
        # An end that lines up only fairly may have matched a hand or a cup half over it: the
        # middle pans are then lined up too, to tell.
        if any(found[pan][2] < ALIGN_SURE for pan in ends):
            found |= {pan: _align(ctx, guide.pans[pan][0]) for pan in pans[1:-1]}
        xs = {pan: _rect(ctx.board.layout, f"pan {pan}").centre[0] for pan in pans}
        good = {
            pan: (xs[pan], dx, dy) for pan, (dx, dy, score) in found.items() if score >= ALIGNED
        }
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
        # pans agree.
        sure = [pan for pan in ends if pan in good and found[pan][2] >= ALIGN_SURE]
        if len(ctx.board.marker_ids) < 2 and not (sure and (len(good) >= 3 or len(sure) == 2)):
            return dict.fromkeys(pans)
        shifts: dict[str, Shift | None] = {}
        for pan in pans:
            shift = good[pan][1:] if pan in good else _shift_between(list(good.values()), xs[pan])
            # Beyond the reach of lining up, the board's registration is too far off to trust.
            near = shift is not None and max(abs(shift[0]), abs(shift[1])) <= ALIGN_REACH_MM
            shifts[pan] = shift if near else None
        return shifts

    # Chips.

    def _well_hues(self, views: dict[str, dict[str, SlotView]]) -> dict[str, Floats]:
        """Each pan's well a*b* as this photo shows it (the median of its well seen around the
        slots): a light's colour that the white balance did not undo shifts it, and so may a
        white balance taken far away. Where that is not near the ink's (a hand or a cup over
        most of the well), the wells' together, or else the ink's own."""
        ink = np.asarray(self.well[1:], np.float64)

        def hue(around: list[Lab], fallback: Floats) -> Floats:
            if sum(len(a) for a in around) < MIN_PIXELS:
                return fallback
            seen = np.asarray(_median(np.concatenate(around))[1:], np.float64)
            return seen if float(np.hypot(*(seen - ink))) <= WELL_CAST_AB else fallback

        board = hue([v.around for pan in views.values() for v in pan.values()], ink)
        return {name: hue([v.around for v in pan.values()], board) for name, pan in views.items()}

    def _chips(
        self,
        ctx: BoardContext,
        views: dict[str, SlotView] | None,
        hue: Floats | None,
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
            elif slot not in views or hue is None:
                read = SlotRead(None, 0.0, "its pan cannot be lined up with the print")
            else:
                read = self._read_slot(views[slot], hue)
            problem = f"{slot}: {read.problem}" if read.problem else None
            ctx.record(Read(slot, read.chip, read.confidence, problem))
            if read.chip is not None and problem is None:
                chips.append(read.chip)
        return chips

    def _read_slot(self, view: SlotView, hue: Floats) -> SlotRead:
        if len(view.centre) < MIN_PIXELS or len(view.around) < MIN_PIXELS:
            return SlotRead(None, 0.0, "too little of it seen")
        well = _well_coloured(view.around, hue)
        well_share = _share(well)
        if well_share < WELL_SHOWS:
            return SlotRead(None, 0.0, "covered (the well around it is hidden)")
        if _one_colour(view.centre_bgr) < ONE_COLOUR:
            return SlotRead(None, 0.0, "covered, or two colours across it")
        middle, around = _median(view.centre), _median(view.around)
        shown = _rows(view.around, np.flatnonzero(well))  # the well-coloured part
        apart, light = _difference(middle, _median(shown))
        if apart <= EMPTY_AB and EMPTY_LOG_Y[0] <= light <= EMPTY_LOG_Y[1]:
            return SlotRead(None, min(CERTAIN, 0.5 + well_share / 2))
        apart, light = _difference(middle, around)
        if apart < CHIP_AB and light < CHIP_LOG_Y:
            return SlotRead(None, 0.0, "neither a chip nor the empty well")
        bleed = np.sqrt(channel_sum((view.around - middle) ** 2)) <= BLEED_DELTA_E
        if _share(bleed) > MAX_BLEED:
            return SlotRead(None, 0.0, "covered (its colour reaches past the slot)")
        # Channels whose median the sensor clipped.
        clipped = median_at_least(view.centre_raw, CLIPPED)
        if clipped.any():
            top = float(np.percentile(shown[:, 0], WELL_TOP))
            bright = _median(view.centre_balanced)
            return self._classify_clipped(bright, clipped, around, top)
        return self._classify(middle, around)

    def _classify(self, middle: Lab, around: Lab) -> SlotRead:
        """The chip ink nearest the middle's colour, each ink taken as bright as the middle (as
        far as the light on the well around allows)."""
        local = _luminance(float(around[0])) / self.well_luminance
        low, high = RELATIVE_LIGHT
        scale = np.clip(
            _luminance(float(middle[0])) / self.ink_luminance, local * low, local * high
        )
        expected = to_lab(np.asarray(_encode(self.inks * scale[:, None]), np.float32))
        distance = np.sqrt(((expected - middle) ** 2).sum(axis=1))
        titanium = _luminance(float(middle[0])) / (self.ink_luminance[TIO2] * local)
        bright = "TiO2" if titanium >= TIO2_AT_LEAST else None
        bright = "binder" if titanium <= BINDER_AT_MOST else bright
        return _nearest_chip(distance, float(middle[0]), at_limit=False, brightness_says=bright)

    def _classify_clipped(
        self, bgr: NDArray[np.float32], clipped: NDArray[np.bool_], around: Lab, top: float
    ) -> SlotRead:
        """The chip ink that explains a middle clipped in some channels: at a brightness the
        well around allows, it reaches the clipped level in each clipped channel and matches
        the rest. An ink that could not be that bright is no candidate at all."""
        seen = _linear(bgr)
        low = _luminance(float(around[0])) / self.well_luminance * RELATIVE_LIGHT[0]
        high = _luminance(top) / self.well_luminance * BRIGHTEST_CHIP
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
        lab = to_lab(np.asarray(_encode(np.vstack([expected, seen]) / down), np.float32))
        middle, lab = lab[-1], lab[:-1]
        distance = np.sqrt(((lab - middle) ** 2).sum(axis=1))
        distance[reach > high] = np.inf
        return _nearest_chip(distance, float(middle[0]), at_limit=True)

    # Shade cards.

    def _shade(
        self, ctx: BoardContext, marks: NDArray[np.float32], name: str, shift: Shift | None
    ) -> str | None:
        place = ctx.board.layout.region(f"shade {name}")
        rect = _rect(ctx.board.layout, place.name)
        if shift is None and len(ctx.board.marker_ids) < 2:
            # Placed by one marker and not lined up: even a card's own marker cannot say which
            # place it lies in.
            why = f"{place.name}: the board cannot be lined up with its print"
            ctx.record(Read(place.name, None, 0.0, why))
            return None
        dx, dy = shift or (0.0, 0.0)
        moved = Rect(rect.x + dx, rect.y + dy, rect.w, rect.h)
        piece, problem = single_piece(ctx.pieces_in(moved, ("shade",)), place.name)
        if problem:
            ctx.record(Read(place.name, None, 0.0, problem))
            return None
        if piece is not None:
            shade = str(piece.layout.content["shade"])
            ctx.record(Read(place.name, shade, CERTAIN))
            return shade
        if shift is not None and self._empty_place(ctx, marks, rect, shift):
            ctx.record(Read(place.name, None, CERTAIN))
            return None
        known = None if shift is None else self._identify(ctx, rect, shift)
        if known is not None:
            ctx.record(Read(place.name, known[0], known[1]))
            return known[0]
        problem = f"{place.name}: covered, or a card whose marker cannot be read"
        ctx.record(Read(place.name, None, 0.0, problem))
        return None

    def _empty_place(
        self, ctx: BoardContext, printed: NDArray[np.float32], rect: Rect, shift: Shift
    ) -> bool:
        """A card place is empty when its printed outline and label show (``printed``: the
        edges of its print, sought a little around where the pan above puts it) and it is bare
        board. Both are judged on the photo divided by its own smoothed brightness, so that a
        shadow across the place changes neither: the print's thin lines stay, and paper in
        shadow is still paper, while a card's dark marker or coloured swatch is not."""
        ppm = ctx.face.ppm
        box = rect.inset(-PLACE_MARGIN_MM - MARKS_REACH_MM)
        seen = _crop(ctx.face.image, Rect(box.x + shift[0], box.y + shift[1], box.w, box.h), ppm)
        inner = round((MARKS_REACH_MM + PLACE_MARGIN_MM + BARE_INSET * rect.w) * ppm)
        if min(seen.shape[:2]) <= 2 * inner:
            return False
        relative = _relative(_gray(seen), ppm)
        edges = _marks(relative, ppm)
        if edges.shape[0] < printed.shape[0] or edges.shape[1] < printed.shape[1]:
            return False
        marks = float(_scores(edges, printed).max())
        if marks < MARKS_VISIBLE:
            return False
        # Every other pixel each way is plenty to tell what share of the place is bare.
        middle = (slice(inner, -inner, 2), slice(inner, -inner, 2))
        lab = _lab(ctx.balance.apply(seen[middle].reshape(-1, 3), rect.centre))
        paper_hue = np.hypot(lab[:, 1] - self.paper[1], lab[:, 2] - self.paper[2]) <= BARE_AB
        lit = relative[middle].reshape(-1) >= BARE_RELATIVE
        bare = _share(paper_hue & lit)
        return bare >= BARE_SHARE

    def _identify(self, ctx: BoardContext, rect: Rect, shift: Shift) -> tuple[str, float] | None:
        """The shade card lying on the place, known by its face, with a confidence; None when
        no card is clearly the one."""
        ppm = ctx.face.ppm
        faces = self._card_faces(ppm)
        elsewhere = {p.layout.content["shade"] for p in ctx.pieces if p.layout.kind == "shade"}
        chosen = [k for k, name in enumerate(faces.names) if name not in elsewhere]
        seen, printed = _crops(ctx, rect.inset(-CARD_REACH_MM), shift)
        rows, cols = faces.size
        if not chosen or seen.shape[0] <= rows or seen.shape[1] <= cols:
            return None
        lab = _lab(ctx.balance.apply(seen[::4, ::4].reshape(-1, 3), rect.centre))
        if float(np.mean(np.hypot(lab[:, 1], lab[:, 2]) <= NEUTRAL_AB)) < NEUTRAL_SHARE:
            return None
        view = _smooth_colour(seen, CARD_SMOOTH_MM * ppm)
        found, angle, corner = _card_pose(view, faces)
        if found < CARD_FOUND:
            return None
        # Everything is compared in the card's own frame: the photo turned back, once.
        centre = ((cols - 1) / 2, (rows - 1) / 2)
        back = np.asarray(cv2.getRotationMatrix2D(centre, angle, 1.0), np.float64)
        back[:, 2] += corner
        patch = _inner(_in_frame(view, back, (cols, rows)))
        bare = _inner(_in_frame(_smooth_colour(printed, CARD_SMOOTH_MM * ppm), back, (cols, rows)))
        # The bare place is one more option: a card must beat it too.
        plain = np.append(_correlations(faces.plain, patch)[chosen], _correlation3(bare, patch))
        rest = patch - _fitted(faces.mean, patch)
        apart = np.append(
            _correlations(faces.apart, rest)[chosen], _correlation3(bare - faces.mean, rest)
        )
        best = _clear_winner(plain, *FACE_MATCH)
        if best is None or best != _clear_winner(apart, *MARKS_MATCH) or best == len(chosen):
            return None
        ranked = np.sort(apart)[::-1]
        return faces.names[chosen[best]], min(CERTAIN, 0.5 + float(ranked[0] - ranked[1]))

    def _card_faces(self, ppm: float) -> CardFaces:
        if ppm not in self._faces:
            self._faces[ppm] = _draw_card_faces(self.cards, ppm)
        return self._faces[ppm]


# Lining up.


def _guide(layout: Layout, printed: NDArray[np.uint8], ppm: float) -> Guide:
    pans = {
        pan: (_pan_print(layout, printed, pan, ppm), _pan_pixels(layout, pan, ppm))
        for pan, _ in PAN_ORDER
    }
    marks = {}
    for pan, _ in PAN_ORDER:
        box = _rect(layout, f"shade {pan}").inset(-PLACE_MARGIN_MM)
        marks[pan] = _marks(_relative(_gray(_crop(printed, box, ppm)), ppm), ppm)
    return Guide(pans, marks)


def _marks(relative: NDArray[np.float32], ppm: float) -> NDArray[np.float32]:
    """The edges of a card place's printed marks, smoothed so that blur does not hide thin
    lines, from its relative brightness; the place's outline and a little around it. Kept at
    half resolution: the smoothing leaves nothing finer, and matching costs a quarter."""
    trim = round(PLACE_MARGIN_MM * ppm) // 2
    return _scaled(_edges(_smooth(relative, MARKS_SMOOTH_MM * ppm))[trim:-trim, trim:-trim], 2)


def _pan_print(layout: Layout, printed: NDArray[np.uint8], pan: str, ppm: float) -> PanPrint:
    outer = _rect(layout, f"pan {pan}").inset(-ALIGN_MARGIN_MM)
    x0, y0 = round(outer.x * ppm), round(outer.y * ppm)
    x1, y1 = round((outer.x + outer.w) * ppm), round((outer.y + outer.h) * ppm)
    # Smoothed (as the photo will be): blur and noise then matter less than the structure.
    template = _smooth(_gray(printed[y0:y1, x0:x1]), ALIGN_BLUR_PX)
    # Chips change what a slot looks like; the well between them and its edges do not.
    mask = np.full(template.shape, 255, np.uint8)
    for slot in _slots(layout, pan):
        centre = (round(slot.cx * ppm) - x0, round(slot.cy * ppm) - y0)
        cv2.circle(mask, centre, round(slot.r * ppm), 0, -1)
    levels = {k: (_scaled(template, k), _scaled_mask(mask, k)) for k in (1, 2, 4)}
    return PanPrint((x0, y0, x1, y1), levels)


def _align(ctx: BoardContext, pan: PanPrint) -> tuple[float, float, float]:
    """The shift (mm) that best lines the pan up with its print, and how well it does. The
    whole reach is searched, past the face's edge too (the edge's pixels repeated): a pan near
    it, cut off from where it truly lies, would match its own slots one pitch away instead."""
    ppm = ctx.face.ppm
    x0, y0, x1, y1 = pan.box
    reach = round(ALIGN_REACH_MM * ppm)
    rows, cols = ctx.face.image.shape[:2]
    sx0, sy0 = max(0, x0 - reach), max(0, y0 - reach)
    sx1, sy1 = min(cols, x1 + reach), min(rows, y1 + reach)
    if sx1 <= sx0 or sy1 <= sy0:
        return 0.0, 0.0, 0.0
    pad = (sy0 - (y0 - reach), (y1 + reach) - sy1, sx0 - (x0 - reach), (x1 + reach) - sx1)
    crop = cv2.copyMakeBorder(ctx.face.image[sy0:sy1, sx0:sx1], *pad, cv2.BORDER_REPLICATE)
    score, (bx, by) = _locate(_gray(np.asarray(crop, np.uint8)), pan.levels)
    return (bx - reach) / ppm, (by - reach) / ppm, score


def _miss(good: dict[str, tuple[float, float, float]], pan: str) -> float:
    """How far (mm) a lined-up pan's shift lies from where the other lined-up pans put it."""
    x, dx, dy = good[pan]
    expected = _shift_between([g for other, g in good.items() if other != pan], x)
    return float(np.hypot(dx - expected[0], dy - expected[1])) if expected else 0.0


def _like_another(good: dict[str, tuple[float, float, float]], pan: str) -> bool:
    """Whether a lined-up pan's shift lies within ALIGN_AGREE_MM of another lined-up pan's."""
    _, dx, dy = good[pan]
    return any(
        float(np.hypot(dx - odx, dy - ody)) <= ALIGN_AGREE_MM
        for other, (_, odx, ody) in good.items()
        if other != pan
    )


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
    half = _smooth(_scaled(gray, 2), ALIGN_BLUR_PX / 2)
    x, y = _best_match(_scaled(half, 2), *levels[4])[1]
    half_template, half_mask = levels[2]
    rows, cols = half_template.shape
    x0 = min(max(0, 2 * x - 2), half.shape[1] - cols)
    y0 = min(max(0, 2 * y - 2), half.shape[0] - rows)
    scores = _scores(half[y0 : y0 + rows + 4, x0 : x0 + cols + 4], half_template, half_mask)
    j, i = (int(k) for k in np.unravel_index(int(np.argmax(scores)), scores.shape))
    fx = round(2 * (x0 + i + _vertex(scores[j, max(0, i - 1) : i + 2])))
    fy = round(2 * (y0 + j + _vertex(scores[max(0, j - 1) : j + 2, i])))
    # The smoothing of a window a little larger than the template reaches every pixel it uses.
    margin = math.ceil(3 * ALIGN_BLUR_PX)
    wx, wy = max(0, fx - margin), max(0, fy - margin)
    template, mask = levels[1]
    window = gray[wy : fy + template.shape[0] + margin, wx : fx + template.shape[1] + margin]
    score = _score_at(_smooth(window, ALIGN_BLUR_PX), template, mask, (fx - wx, fy - wy))
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
    return _correlation(view[y : y + rows, x : x + cols][inside], template[inside])


def _vertex(scores: NDArray[np.float32]) -> float:
    """Where between pixels a peak lies, from its score and its two neighbours' (a parabola's
    vertex); none at the edge of the scores."""
    if len(scores) < 3 or min(scores) <= -1.0:
        return 0.0
    left, middle, right = scores
    curvature = left - 2 * middle + right
    return float(np.clip(0.5 * (left - right) / curvature, -0.5, 0.5)) if curvature < 0 else 0.0


# Slots.


def _pan_pixels(layout: Layout, pan: str, ppm: float) -> PanPixels:
    """Which pixels of the pan's well window each of its slots is read from."""
    well = _rect(layout, f"pan {pan}")
    x0, y0 = math.ceil(well.x * ppm), math.ceil(well.y * ppm)
    cols = math.floor((well.x + well.w) * ppm) + 1 - x0
    rows = math.floor((well.y + well.h) * ppm) + 1 - y0
    xs = (x0 + np.arange(cols, dtype=np.float32))[None, :] / ppm
    ys = (y0 + np.arange(rows, dtype=np.float32))[:, None] / ppm
    regions = [r for r in layout.regions if r.name.startswith(f"{pan} ")]
    squared = [(xs - c.cx) ** 2 + (ys - c.cy) ** 2 for c in (_circle_of(r.shape) for r in regions)]
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
    slots = {name: (place[middle], place[around]) for name, (middle, around) in slots.items()}
    return PanPixels((x0, y0), (rows, cols), well.centre, slots, used)


def _views(ctx: BoardContext, pixels: PanPixels, shift: Shift) -> dict[str, SlotView]:
    """Every slot of the pan, where the lined-up print puts it: its middle, and the well
    around its ring (within the well, away from every other slot)."""
    ppm = ctx.face.ppm
    x0, y0 = pixels.origin[0] + round(shift[0] * ppm), pixels.origin[1] + round(shift[1] * ppm)
    window, seen = _window(ctx, x0, y0, *pixels.size)
    raw = _rows(window.reshape(-1, 3), pixels.used)
    balanced = ctx.balance.balanced(raw, pixels.centre)
    bgr = np.asarray(np.clip(balanced, 0, 255), np.float32)
    lab = _lab(bgr)
    seen = seen[pixels.used]
    views = {}
    for name, (middle, around) in pixels.slots.items():
        middle, around = middle[seen[middle]], around[seen[around]]
        views[name] = SlotView(
            _rows(lab, middle),
            _rows(bgr, middle),
            _rows(lab, around),
            _rows(raw, middle),
            _rows(balanced, middle),
        )
    return views


def _rows(samples: NDArray[Scalar], index: NDArray[np.intp]) -> NDArray[Scalar]:
    """``samples[index]``, several times faster (``np.take``)."""
    return np.take(samples, index, axis=0)


def _nearest_chip(
    distance: NDArray[np.float64],
    lightness: float,
    at_limit: bool,
    brightness_says: str | None = None,
) -> SlotRead:
    """The chip ink at the least Delta E ``distance`` (one per ink) from a middle of L*
    ``lightness``, when near enough and clearly nearer than the next, or, between TiO2 and
    binder, nearer and the one the chip's brightness (``brightness_says``) names."""
    order = np.argsort(distance)
    best, second = int(order[0]), int(order[1])
    if distance[best] > CHIP_REJECT_DELTA_E:
        if at_limit:
            return SlotRead(None, 0.0, "no chip colour (at the sensor's limit)")
        why = f"no chip colour (nearest {CHIPS[best]}, Delta E {distance[best]:.0f})"
        return SlotRead(None, 0.0, why)
    margin = float(distance[second] - distance[best])
    needed = MIN_MARGIN * float(np.clip(lightness / MARGIN_LIGHTNESS, 0.5, 1.0))
    pale = {CHIPS[best], CHIPS[second]} == PALE_PAIR and brightness_says == CHIPS[best]
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


def _well_coloured(lab: Lab, hue: Floats) -> NDArray[np.bool_]:
    """Which of ``lab`` are well-coloured: dark, and of the wells' hue."""
    a_reach, b_reach = WELL_AB
    return np.asarray(
        (np.abs(lab[:, 1] - hue[0]) <= a_reach)
        & (np.abs(lab[:, 2] - hue[1]) <= b_reach)
        & (lab[:, 0] <= WELL_MAX_L)
    )


def _difference(colour: Lab, reference: Lab) -> tuple[float, float]:
    """How far ``colour`` lies from ``reference`` in hue (a*b* distance) and in lightness (the
    log of their luminances' ratio)."""
    apart = float(np.hypot(colour[1] - reference[1], colour[2] - reference[2]))
    # A numpy quotient: against black (L* 0) the ratio is infinite rather than an error.
    light = float(
        np.log(np.float64(_luminance(float(colour[0]))) / _luminance(float(reference[0])))
    )
    return apart, light


def _median(samples: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each column's median (the upper one of an even count), by a partial sort."""
    middle = len(samples) // 2
    return np.asarray(np.partition(samples, middle, axis=0)[middle], np.float32)


def _share(which: NDArray[np.bool_]) -> float:
    """The share of ``which`` that is set (as ``np.mean`` gives it, without its overhead)."""
    return np.count_nonzero(which) / len(which)


def _one_colour(bgr: NDArray[np.float32]) -> float:
    """The share of pixels whose chromaticity (linear light) is that of their median."""
    linear = _linear(bgr)
    chroma = np.asarray(linear / np.maximum(channel_sum(linear), 1e-3)[:, None], np.float32)
    spread = channel_max(np.abs(chroma - _median(chroma)))
    return _share(spread <= CHROMA_REACH)


# Shade cards.


def _draw_card_faces(cards: tuple[Layout, ...], ppm: float) -> CardFaces:
    drawn = [_smooth_colour(draw_layout(card, ppm), CARD_SMOOTH_MM * ppm) for card in cards]
    rows, cols = drawn[0].shape[:2]
    inner = np.stack([_inner(face) for face in drawn])
    mean = inner.mean(axis=0)
    average = np.mean(np.stack(drawn), axis=0).astype(np.float32)
    r, g, b = INKS["paper"]
    steps = np.arange(-CARD_TURN_DEG, CARD_TURN_DEG + 1e-6, CARD_TURN_STEP_DEG)
    poses = []
    for angle in (*steps, *(steps + 180.0)):
        # A turned card lies on paper: that is what shows where its box has no card.
        turned = _gray(_turned(average, float(angle), (b, g, r)))
        poses.append(CardTemplate(float(angle), turned, _scaled(turned, 4)))
    return CardFaces(
        tuple(str(card.content["shade"]) for card in cards),
        (rows, cols),
        _normalised(inner),
        _normalised(inner - mean[None]),
        mean.astype(np.float32),
        tuple(poses),
    )


def _card_pose(view: NDArray[np.float32], faces: CardFaces) -> tuple[float, float, tuple[int, int]]:
    """Where and how turned (degrees, the right way up or upside down) a card lies in ``view``:
    the correlation of the average card face there, its angle and its top-left pixel. Every
    angle is tried at a quarter of the resolution; the best few are then placed to the pixel
    at full resolution, where the best of them is chosen."""
    gray = _gray(view)
    coarse = _scaled(gray, 4)
    scored = sorted(
        ((_best_match(coarse, pose.coarse), pose) for pose in faces.poses),
        key=lambda item: -item[0][0],
    )
    best: tuple[float, float, tuple[int, int]] = (-1.0, 0.0, (0, 0))
    for (_, (x, y)), pose in scored[:CARD_POSES_REFINED]:
        rows, cols = pose.fine.shape
        x0, y0 = max(0, 4 * x - 4), max(0, 4 * y - 4)
        score, (wx, wy) = _best_match(gray[y0 : y0 + rows + 8, x0 : x0 + cols + 8], pose.fine)
        if score > best[0]:
            best = (score, pose.angle, (x0 + wx, y0 + wy))
    return best


def _correlations(normalised: NDArray[np.float32], patch: NDArray[np.float32]) -> Floats:
    """Each card's correlation with ``patch`` (3 x pixels), channel by channel, averaged."""
    # einsum rather than a BLAS product: no thread pool to wake for so small a sum.
    return np.asarray(np.einsum("kp,p->k", normalised, _normalised(patch[None])[0]) / 3.0)


def _correlation3(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    return float(_correlations(_normalised(a[None]), b)[0])


def _normalised(samples: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each sample (samples x 3 x pixels) less its mean, over its length, per channel, laid out
    flat: the dot product of two is the sum of their three channels' correlations."""
    centred = samples - samples.mean(axis=2, keepdims=True)
    length = np.sqrt(np.einsum("scp,scp->sc", centred, centred))[:, :, None]
    flat = (centred / np.maximum(length, 1e-6)).reshape(len(samples), -1)
    return np.ascontiguousarray(flat, np.float32)


def _fitted(model: NDArray[np.float32], seen: NDArray[np.float32]) -> NDArray[np.float32]:
    """Per channel, ``model`` (3 x pixels) with the gain and offset that best fit ``seen``."""
    model_mean, seen_mean = model.mean(axis=1, keepdims=True), seen.mean(axis=1, keepdims=True)
    centred = model - model_mean
    covariance = np.einsum("cp,cp->c", centred, seen - seen_mean)
    gain = covariance / np.maximum(np.einsum("cp,cp->c", centred, centred), 1e-6)
    return np.asarray(centred * gain[:, None] + seen_mean, np.float32)


def _clear_winner(scores: NDArray[np.float64], least: float, margin: float) -> int | None:
    order = np.argsort(scores)[::-1]
    best, second = float(scores[order[0]]), float(scores[order[1]])
    return int(order[0]) if best >= least and best - second >= margin else None


def _inner(face: NDArray[np.float32]) -> NDArray[np.float32]:
    """A card face's pixels inside its rim, as 3 x pixels (one row per channel)."""
    edge = CARD_EDGE_PX
    return np.ascontiguousarray(face[edge:-edge, edge:-edge].reshape(-1, 3).T, np.float32)


def _in_frame(
    image: NDArray[np.float32], back: Floats, size: tuple[int, int]
) -> NDArray[np.float32]:
    """What ``back`` maps each pixel of a frame of ``size`` to in ``image``, as that frame."""
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return np.asarray(cv2.warpAffine(image, back, size, flags=flags), np.float32)


def _turned(
    image: NDArray[np.float32], degrees: float, fill: tuple[int, int, int]
) -> NDArray[np.float32]:
    """``image`` turned about its centre (counter-clockwise), same size, ``fill`` outside."""
    rows, cols = image.shape[:2]
    matrix = cv2.getRotationMatrix2D(((cols - 1) / 2, (rows - 1) / 2), degrees, 1.0)
    turned = cv2.warpAffine(image, matrix, (cols, rows), flags=cv2.INTER_LINEAR, borderValue=fill)
    return np.asarray(turned, np.float32)


# Pixels.


def _crops(
    ctx: BoardContext, box: Rect, shift: Shift
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """The photo over ``box`` moved by ``shift``, and the print over ``box``, the same size."""
    ppm = ctx.face.ppm
    seen = _crop(ctx.face.image, Rect(box.x + shift[0], box.y + shift[1], box.w, box.h), ppm)
    printed = _crop(ctx.printed, box, ppm)
    rows, cols = min(seen.shape[0], printed.shape[0]), min(seen.shape[1], printed.shape[1])
    return seen[:rows, :cols], printed[:rows, :cols]


def _crop(image: NDArray[np.uint8], rect: Rect, ppm: float) -> NDArray[np.uint8]:
    x0, y0 = max(0, int(rect.x * ppm)), max(0, int(rect.y * ppm))
    x1 = min(image.shape[1], int((rect.x + rect.w) * ppm))
    y1 = min(image.shape[0], int((rect.y + rect.h) * ppm))
    return image[y0:y1, x0:x1]


def _best_match(
    view: NDArray[np.float32],
    template: NDArray[np.float32],
    mask: NDArray[np.uint8] | None = None,
) -> tuple[float, tuple[int, int]]:
    """The best correlation of ``template`` in ``view`` and its top-left pixel."""
    if template.shape[0] > view.shape[0] or template.shape[1] > view.shape[1]:
        return -1.0, (0, 0)
    _, score, _, at = cv2.minMaxLoc(_scores(view, template, mask))
    return float(score), (int(at[0]), int(at[1]))


def _scores(
    view: NDArray[np.float32],
    template: NDArray[np.float32],
    mask: NDArray[np.uint8] | None = None,
) -> NDArray[np.float32]:
    """The correlation of ``template`` (where ``mask`` is set) at every place in ``view``."""
    if mask is None:
        scores = cv2.matchTemplate(view, template, cv2.TM_CCOEFF_NORMED)
    else:
        scores = cv2.matchTemplate(view, template, cv2.TM_CCOEFF_NORMED, mask=mask)
    return np.asarray(np.where(np.isfinite(scores), scores, -1.0), np.float32)


def _scaled(image: NDArray[np.float32], factor: int) -> NDArray[np.float32]:
    """``image`` at 1/``factor`` of its resolution (each side rounded down)."""
    if factor == 1:
        return image
    size = (image.shape[1] // factor, image.shape[0] // factor)
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.float32)


def _scaled_mask(mask: NDArray[np.uint8], factor: int) -> NDArray[np.uint8]:
    if factor == 1:
        return mask
    size = (mask.shape[1] // factor, mask.shape[0] // factor)
    return np.asarray(cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST), np.uint8)


def _relative(gray: NDArray[np.float32], ppm: float) -> NDArray[np.float32]:
    """Brightness against the smoothed brightness around: a shadow's slow change cancels. So
    wide a smoothing loses nothing done at a quarter of the resolution, and costs far less."""
    small = _smooth(_scaled(gray, 4), RELATIVE_SMOOTH_MM * ppm / 4)
    around = cv2.resize(small, (gray.shape[1], gray.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.asarray(gray / np.maximum(around, 1.0), np.float32)


def _correlation(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    a, b = a - a.mean(), b - b.mean()
    denominator = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / denominator if denominator > 0 else 0.0


def _edges(gray: NDArray[np.float32]) -> NDArray[np.float32]:
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(cv2.magnitude(gx, gy), np.float32)


def _gray(image: NDArray[Any]) -> NDArray[np.float32]:
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.float32)


def _smooth(gray: NDArray[np.float32], sigma: float) -> NDArray[np.float32]:
    return np.asarray(cv2.GaussianBlur(gray, (0, 0), sigma), np.float32)


def _smooth_colour(image: NDArray[np.uint8], sigma: float) -> NDArray[np.float32]:
    return np.asarray(cv2.GaussianBlur(image.astype(np.float32), (0, 0), sigma), np.float32)


# Colour.


def _lab(bgr: NDArray[np.float32]) -> Lab:
    """BGR levels (N x 3, 0..255) to CIELAB, through 8 bits: OpenCV converts those by table,
    several times faster, and half a level is far below any difference read here."""
    levels = np.clip(np.rint(bgr), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(levels, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    return np.asarray(lab * LAB_SCALE - LAB_OFFSET, np.float32)


def _linear(bgr: NDArray[np.float32]) -> NDArray[np.float32]:
    """sRGB levels (0..255, or beyond) to linear light (0..1, or beyond)."""
    c = np.maximum(bgr / 255.0, 0.0)
    return np.asarray(np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4), np.float32)


def _encode(linear: Floats) -> Floats:
    """Linear light (0..1) to sRGB levels (0..255)."""
    c = np.clip(linear, 0.0, 1.0)
    return np.asarray(np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055) * 255.0)


def _luminance(lightness: float) -> float:
    """CIE Y (0..1) from L*."""
    return ((lightness + 16.0) / 116.0) ** 3 if lightness > 8.0 else lightness / 903.3


def _bgr_linear(name: str) -> Floats:
    r, g, b = INKS[name]
    return np.asarray(_linear(np.array([b, g, r], np.float32)), np.float64)


# Layout.


def _rect(layout: Layout, name: str) -> Rect:
    shape = layout.region(name).shape
    assert isinstance(shape, Rect)
    return shape


def _circle_of(shape: object) -> Circle:
    assert isinstance(shape, Circle)
    return shape


def _slots(layout: Layout, pan: str) -> list[Circle]:
    return [_circle_of(r.shape) for r in layout.regions if r.name.startswith(f"{pan} ")]
