"""Isle of Colors sheet: the pencil colour of every hex cell, or empty.

A cell is hatched by hand: strokes of uneven pressure leave paper between them, and ink darkens
the paper it lies on. Against the white of the paper around it, a pixel with ink of pressure
``a`` keeps ``1 - a * d`` of the light in each channel, ``d`` being how much a full stroke of
that pencil absorbs there. The sheet is read against that model, at 1 mm per pixel:

1. **Where the cells are.** Markers that are small, blurred or partly hidden place the sheet only
   roughly (a cell or more off at the far side when one or two show), so the sheet is aligned
   on its own grid: the photo's colour edges are matched, patch by patch, with the printed
   hexagons, and the map that the agreeing patches follow (RANSAC) moves every cell to where
   it shows. The patches the markers placed well agree first; the grid is matched again from
   where they put it, so that the rest comes within reach. The markers themselves stay where
   they put the sheet: patches match only where pencil colours show, and may tilt the map
   where none does.
2. **The paper's white**, channel against channel, from the bare margin around the island. A
   channel the sensor clips on bright paper is measured where the paper is darker (a vignetted
   corner, a shadow), but never where it is darker than any cell is read (a hand or a cup in the
   margin); where it is clipped on all of the margin's lit paper, it is measured on the sheet's
   paper in shadow (of the paper's hue in the other channels, the pixels' least cluster of it
   at or above the bound the clipped paper sets: light strokes and a hand lie beyond), and
   failing that only the bound is known, and that channel counts for less. Light of two
   colours turns the paper's hue across the sheet: each channel's ratio is followed as a plane
   fitted over the margin's lit paper, clipped blocks only bounding it. How bright
   the paper is at each point (light gradient, vignetting, shadows) is followed in 4 mm blocks
   wherever bare paper shows (paper clipped in every channel is at least as bright as the
   sensor's limit: it counts as that bright), and filled in between; where it is filled
   in, a shadow's edge may pass between the cell and the nearest paper, so a cell there may be
   lit as brightly as the brightest paper nearby, and as darkly as the darkest.
3. **Each cell's fit.** For each pencil, the cell's pixels are fitted as paper, lit a little
   brighter or darker than the paper around it (evenly, or in a ramp across the cell: a
   shadow's edge), carrying ink of any pressure; clipped channels only bound the fit. Each
   pencil is the players' own as the sheet's key shows it, or as the cells clearly inked with
   it show it across the sheet's light.
4. **Each cell's reading.** A fitted model decides from what the fits and the sheet around
   the cell measure (``isle_features``, ``isle_cells``): bare paper, a pencil, or covered, with
   a calibrated probability; below the model file's threshold the cell is refused.
5. **What lies over the sheet.** Hands and cups have pencil colours too: they are found by where
   they reach (the bare margin), by being smooth where hatching is not, and by hiding the
   printed outlines (see ``isle_over``). A cell under one is covered, whatever colour it shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from itertools import pairwise
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.observation import ComponentRead as Read
from vision.fitted.model_file import FittedModel
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.scan.colours import channel_sum, column_median
from vision.scan.context import BoardContext
from vision.scan.outline import placed_by_outline
from vision.scan.readers.common import MIN_SEEN
from vision.scan.readers.isle_bright import (
    CARD_SLACK,
    calibrated,
    cell_means,
    known_white,
    unseen_strokes,
)
from vision.scan.readers.isle_cells import decided, shipped, sure_enough
from vision.scan.readers.isle_dots import (
    bare_where_seen,
    dot_depths,
    saturated_share,
    without_dots,
)
from vision.scan.readers.isle_features import PENCILS, Matrix, SheetContext, cell_features
from vision.scan.readers.isle_key import angle_deg, better_rows, pencils_from_cells, read_key
from vision.scan.readers.isle_over import (
    covered_cells,
    covering,
    edge_contrast,
    outline_contrast,
    smooth_objects,
    smooth_surface,
)
from vision.scan.readers.isle_rims import cup_rims
from vision.scan.readers.isle_sheet import (
    BOUND_SLACK,
    COARSE_PPM,
    EDGE_BLUR_MM,
    SHEET_PPM,
    Floats,
    Mask,
    SheetMaps,
    coarse,
    disc,
    log_planes,
    sheet_maps,
)
from vision.scan.readers.reader import BoardReader, Printed, ReaderEntry
from vision.scan.rectify import rectify

Homography = NDArray[np.float64]

CLIPPED = 248.0  # a raw channel this bright may be the sensor's limit rather than the light
# Alignment on the printed grid: patches of the sheet (smaller ones to refine with when too few
# of those agree: where few cells are coloured, a small patch may still hold one), how far each
# may be off (mm, a first and a refining match), and how closely the patches that agree follow
# one map (mm).
PATCHES, SMALLER_PATCHES = (4, 3), (5, 4)
PATCH_OVERLAP = 1.25  # each patch reaches this far into its neighbours
GRID_SHOWN = 0.05  # a patch whose printed grid is fainter than this has no cell to align on
MATCHED = 0.2  # correlation below which a patch's edges do not show its grid
SEARCH_MM = (9.0, 3.0)
AGREE_MM = (1.0, 0.6)
BLURRED_AGREE_MM = 0.8  # refined patches that blur scatters, when none agree more closely
# Patches that agree: on a first placing (affine, as few patches match where the markers place
# the sheet far off), and on the refined one; a homography once this many patches match.
LEAST_NEAR, LEAST_PATCHES = 3, 6
FOR_HOMOGRAPHY = 8
# First matches reach only so far: the grid is searched again from where they placed it, up to
# this many times, while that moves a cell more than half the reach (more lay beyond it).
COARSE_ROUNDS = 3
SETTLED_MM = 0.5 * SEARCH_MM[0]
MOST_CORRECTION_MM = 30.0  # beyond this, a match is not the sheet's own grid
# Two markers place a sheet too loosely to read it where its grid cannot confirm them; nor where
# the grid the patches agree on drags them more than this from where they placed it. On 1,500
# hard renders such sheets' markers moved at most 1.7 mm, but 4.2 mm where the patches matched a
# grid a cell off (its cells read 14 mm off). Three markers place a sheet well enough to read it
# even so, and a good grid may move them further (6.9 mm once, every cell read right). Where
# few markers and the grid disagree, the paper's edges may still place the sheet to a pixel
# (``vision.scan.outline``): only then, so that a sheet the grid lines up is read as before.
FEW_MARKERS = 3
ANCHORED_MM = 3.0
EDGE_CAP = 4.0  # times the mean edge strength: an outline over the sheet must not dominate
# The paper's white: each channel against the one clipped least, in bins of brightness; a bin
# with no more than this share clipped gives the ratio. A ratio only bounded counts for less.
LIGHT_BINS = 8
MARGIN_STEP = 3  # every third margin pixel is plenty
MOST_CLIPPED = 0.25
BRIGHTEST_SHARE = 99.0  # percentile of the margin's brightness taken as its brightest paper
BOUNDED_WEIGHT = 0.35
# The paper is of one hue at every brightness: a darker bin's ratio is not the paper's where more
# than MOST_CLIPPED of a brighter bin is below the limit and this much less warm (log units): a
# hand over a quarter of the margin, measured below the limit that clipped the paper, was taken
# for it, 0.25 warmer in green, and every cell was read as if under a cooler light (brown as
# blue).
WARMER = 0.12
# A channel clipped on all the margin's lit paper is measured on the sheet's paper in shadow: in a
# cluster of LEAST_SHADED pixels sampled (every MARGIN_STEP-th: about half a cell), at most
# SHADED_ABOVE above the bound the clipped paper sets (log units). Of 3,400 hard tuning renders,
# 499 were bounded so: the paper lay up to 0.17 above the bound, and the cluster found within
# 0.04 of it; where light red strokes or a hand outnumbered the paper, the cluster least red lay
# 0.5 above the bound and more.
LEAST_SHADED = 50
SHADED_ABOVE = 0.25
# Light of two colours (a warm lamp on one side, a window on the other) turns the paper's hue
# smoothly across the sheet: taken as one hue, a bare cell on one side is fitted against a white
# of the wrong hue and reads as ink, and its paper no longer looks like paper. Each channel
# against the reference is fitted as a plane in the sheet's mm over the margin, measured in
# blocks of HUE_BLOCK px (at least LEAST_IN_BLOCK pixels sampled), where it has at least
# LEAST_HUE_BLOCKS blocks below the sensor's limit. A block clipped in the channel only bounds
# the plane: where the paper clips, its white is only known to be at least the limit, and a hue
# measured elsewhere must not carry it far beyond (on seed 60006 in two-colour light, the one
# hue put a bare cell's red white at 347 where its paper read 250, and it read as blue). Blocks
# off the plane by more than TUKEY times the blocks' spread (a hand, a cup) do not count, and
# the plane is held level beyond the blocks that count.
HUE_BLOCK = 10
LEAST_IN_BLOCK = 12
LEAST_HUE_BLOCKS = 8
HUE_MM = 100.0  # the planes' slopes are per this many mm
# A block is lit as paper at least HUE_LIT as brightly as any within HUE_NEAR_MM (all channels
# together): a hand is darker (0.63 to 0.74 of the paper beside it on hard renders).
HUE_LIT, HUE_NEAR_MM = 0.8, 60.0
TUKEY = 4.685
HUE_ROUNDS = 10
DARKEST_PAPER = 40.0
BLOCK = 4  # px: the paper's brightness is followed in blocks this size
NEUTRAL = 0.04  # log units: how far from the paper's hue a pixel may be and still be paper
PAPER_PATCH_MM = 5.0  # bare paper shows at least this wide
# Where no bare paper shows, the paper's brightness is a guess from the paper nearest: a cell
# there may be lit as brightly as the brightest paper within this reach (a shadow only darkens).
AROUND_MM = 40.0
RIM_MM = 8.0  # a cup's rim and side about its smooth inside, a hand's edge: rough, unseen
# The fit: pressure beyond full ink (overlapping strokes), how much brighter or darker than the
# paper around a cell may be lit, and how firmly it is held to that paper unless it shows more.
MOST_INK = 1.25
DARKEST_CELL, BRIGHTEST_CELL = 0.3, 1.12
PAPER_PRIOR, SLOPE_PRIOR = 0.01, 0.01
INKED = 0.25  # a pixel with at least this pressure is inked
# A cell clearly inked with a pencil (what shows the players' own pencil in the light across the
# sheet): its mean pressure and share of inked pixels those of a filled cell, and its pencil
# fitting it this many times better than the next (misfits taken with NOISE_FLOOR, what sensor
# noise leaves in every cell).
FILLED_INK, FILLED_SHARE = 0.15, 0.25
CLEARLY_BEST = 1.5
NOISE_FLOOR = 2e-4
# Where no paper nearby shows otherwise, a cell may be lit this much darker than its paper.
SHADED_CELL = 0.7
# A cell's printed outline shows where it shows at least this share as clearly as on the cells
# read as a pencil (of which at least LEAST_NAMED): a shadow darkens outline and paper alike, a
# cup or a hand hides the outline.
SHADOW_OUTLINE = 0.5
LEAST_NAMED = 5
TIED_PIXELS = 4.0  # neighbouring pixels that the photo's blur and its JPEG vary together


def _bgr(name: str) -> Floats:
    r, g, b = INKS[name]
    return np.array([b, g, r], np.float32)


PAPER = _bgr("paper")
# How much of the light a full stroke of each pencil absorbs, per channel, on paper.
ABSORB = np.stack([1.0 - _bgr(c) / PAPER for c in PENCILS])


@dataclass(frozen=True)
class PaperLight:
    """The paper's white as the camera sees it, each channel against the one clipped least,
    and how much each channel counts (less where clipping only bounds it); and how its hue
    turns across the sheet (``hue``, see ``hue_planes``; None where it is one hue all over)."""

    white: Floats
    weight: Floats
    hue: Floats | None = None

    def across(self, shape: tuple[int, int]) -> Floats:
        """The paper's white at every pixel of a sheet of ``shape`` (h x w x 3), its
        brightness that of the reference channel."""
        if self.hue is None:
            return np.broadcast_to(self.white, (*shape, 3)).astype(np.float32)
        h, w = shape
        x, y = (
            _across(np.arange(w, dtype=np.float32), w),
            _across(np.arange(h, dtype=np.float32), h),
        )
        white = np.empty((h, w, 3), np.float32)
        for c, (middle, slope_x, slope_y, x0, x1, y0, y1) in enumerate(self.hue):
            # Held beyond the blocks it was fitted on: a slope measured on one side of the sheet
            # says nothing of the far side.
            along = slope_x * np.clip(x, x0, x1)[None, :] + slope_y * np.clip(y, y0, y1)[:, None]
            white[:, :, c] = np.exp(middle + along)
        return white


@dataclass(frozen=True)
class PaperMap:
    """The paper's white at every pixel (BGR, beyond 255 where the sensor clips), and how much
    brighter and darker than it a cell there may be lit (at least BRIGHTEST_CELL, at most
    SHADED_CELL; beyond them where the white is a guess and brighter or darker paper shows
    nearby)."""

    white: Floats
    brightest: Floats
    darkest: Floats


@dataclass(frozen=True)
class CellFit:
    """Per pencil and cell (K x C): the mean pressure, the share of inked pixels, how the cell
    is lit against the paper around it, the mean misfit, and how evenly the ink covers it (the
    least inked third of the cell against the most inked one); and the misfit of the cell's mean
    colour, with how much of it the pixels' scatter alone leaves (hatching, blur and the JPEG's
    coarse colour scatter a cell's pixels about its pencil's line, but hardly move their mean);
    and the misfit of its pixels' hue alone (see ``hue_misfit``)."""

    ink: Floats
    inked: Floats
    light: Floats
    misfit: Floats
    evenness: Floats
    mean_misfit: Floats
    mean_noise: Floats
    hue_misfit: Floats


def _scaled(homography: Homography, ppm: float = SHEET_PPM) -> Homography:
    """A homography between the sheet's mm planes, as one between their pixels at ``ppm``."""
    scale = np.diag([ppm, ppm, 1.0])
    return np.asarray(scale @ homography @ np.linalg.inv(scale), np.float64)


def _colour_edges(image: Floats) -> Floats:
    """Where the hue changes (blue and red against green, in log units: unchanged by shade):
    the boundaries between cells of different pencils, and a hand's or a cup's outline, capped
    so that it cannot outweigh them."""
    blue, green, red = log_planes(image)
    # Both hues as the channels of one image: each filter runs once over both.
    hues = cv2.merge([blue - green, red - green])
    smooth = cv2.GaussianBlur(hues, (0, 0), 0.5 * EDGE_BLUR_MM * SHEET_PPM)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = cv2.magnitude(gx, gy)
    strength = magnitude[..., 0] + magnitude[..., 1]
    strength = np.minimum(strength, EDGE_CAP * strength.mean())
    return np.asarray(cv2.GaussianBlur(strength, (0, 0), EDGE_BLUR_MM * SHEET_PPM), np.float32)


def _offset(window: Floats, template: Floats, reach: int) -> tuple[float, float] | None:
    """The shift (px) that best lays ``template`` over the middle of ``window`` (the template's
    place with ``reach`` more on every side), to a fraction of a pixel; None when nothing in the
    window resembles it."""
    score = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
    cv2.patchNaNs(score, 0.0)  # in place: a flat window correlates with nothing
    _, best, _, (x, y) = cv2.minMaxLoc(score)
    if best < MATCHED or x in (0, 2 * reach) or y in (0, 2 * reach):
        return None  # nothing there, or the best lies at the edge of reach: maybe beyond it

    def vertex(before: float, at: float, after: float) -> float:
        curve = before - 2 * at + after
        return 0.5 * (before - after) / curve if curve < 0 else 0.0

    dy = vertex(score[y - 1, x], score[y, x], score[y + 1, x])
    dx = vertex(score[y, x - 1], score[y, x], score[y, x + 1])
    return x - reach + dx, y - reach + dy


def _patch_matches(
    edges: Floats, grid: Floats, reach_mm: float, ppm: float, patches: tuple[int, int] = PATCHES
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each patch's centre on the printed sheet, and where its grid shows in the photo (mm);
    ``edges`` and ``grid`` are at ``ppm``, cut into ``patches`` across and down."""
    h, w = edges.shape
    nx, ny = patches
    pw, ph = int(PATCH_OVERLAP * w / nx), int(PATCH_OVERLAP * h / ny)
    reach = round(reach_mm * ppm)
    padded = np.asarray(
        cv2.copyMakeBorder(edges, reach, reach, reach, reach, cv2.BORDER_REPLICATE), np.float32
    )
    sources, targets = [], []
    for j in range(ny):
        for i in range(nx):
            x0 = min(max(int((i + 0.5) * w / nx - pw / 2), 0), w - pw)
            y0 = min(max(int((j + 0.5) * h / ny - ph / 2), 0), h - ph)
            template = grid[y0 : y0 + ph, x0 : x0 + pw]
            if template.max() < GRID_SHOWN:
                continue  # no cell there to align on
            window = padded[y0 : y0 + ph + 2 * reach, x0 : x0 + pw + 2 * reach]
            found = _offset(window, template, reach)
            if found is None:
                continue
            dx, dy = found
            sources.append((x0 + pw / 2, y0 + ph / 2))
            targets.append((x0 + pw / 2 + dx, y0 + ph / 2 + dy))
    return np.array(sources) / ppm, np.array(targets) / ppm


def _shifts(homography: Homography, points: NDArray[np.float64]) -> NDArray[np.float64]:
    """How ``homography`` moves each of ``points`` (N x 2)."""
    return np.asarray(cv2.perspectiveTransform(points[None], homography)[0] - points, np.float64)


def _moved(homography: Homography, points: NDArray[np.float64]) -> float:
    """How far ``homography`` moves the furthest moved of ``points``, along x or y."""
    return float(np.abs(_shifts(homography, points)).max())


def _farthest(homography: Homography, points: NDArray[np.float64]) -> float:
    """The longest way ``homography`` moves any of ``points`` (0 when there are none)."""
    if len(points) == 0:
        return 0.0
    return float(np.linalg.norm(_shifts(homography, points), axis=1).max())


def _agreeing(
    matches: tuple[NDArray[np.float64], NDArray[np.float64]], agree: float, least: int
) -> tuple[Homography, NDArray[np.bool_]] | None:
    """The map that most patches follow within ``agree`` mm (affine while fewer than
    FOR_HOMOGRAPHY patches match) and which patches follow it, or None when fewer than
    ``least`` of them, or than half, agree on one, or when they leave it undetermined (patches
    in a line fix no map across it, and the fit comes back infinite)."""
    sources, targets = matches
    if len(sources) < least:
        return None
    if len(sources) < FOR_HOMOGRAPHY:
        affine, inliers = cv2.estimateAffine2D(
            sources, targets, method=cv2.RANSAC, ransacReprojThreshold=agree
        )
        found = None if affine is None else np.vstack([affine, (0.0, 0.0, 1.0)])
    else:
        found, inliers = cv2.findHomography(sources, targets, cv2.RANSAC, agree)
    if (
        found is None
        or not np.isfinite(found).all()
        or int(inliers.sum()) < max(least, len(sources) // 2)
    ):
        return None
    return np.asarray(found, np.float64), inliers.ravel().astype(bool)


def grid_alignment(
    image: Floats, maps: SheetMaps, anchors: NDArray[np.float64]
) -> Homography | None:
    """Where the sheet's cells really lie in the face: the map from the printed sheet's mm to
    the face's (None when too few patches agree on one). Matches at 2 mm reach far, and are
    made again from where the patches that agree placed the grid while that moves it far: where
    few markers show, the sheet may be placed well near them and a cell or more off at the far
    side. A match at 1 mm, from where those placed the grid, refines it (in smaller patches if
    too few agree); the map is then fitted to the patches that agree and to ``anchors``, the
    centres of the markers the sheet was placed by (sheet mm), kept where they placed it.
    Patches match only where pencil colours show, so on their own they may tilt the map where
    none shows: a marker, small and blurred, places the sheet poorly far from it but itself
    well."""
    # The key's colours are no cells to align on: its printed outlines are not in the grid.
    edges = np.where(maps.key_area, np.float32(0.0), _colour_edges(image))
    small = coarse(edges)
    total = np.eye(3)
    for rounds in range(COARSE_ROUNDS):
        grid = maps.coarse_grid
        if rounds:
            warp = _scaled(total, COARSE_PPM)
            grid = np.asarray(cv2.warpPerspective(grid, warp, small.shape[::-1]), np.float32)
        matches = _patch_matches(small, grid, SEARCH_MM[0], COARSE_PPM)
        agreed = _agreeing(matches, AGREE_MM[0], LEAST_NEAR)
        if agreed is None:
            return None
        total = agreed[0] @ total
        if _moved(agreed[0], maps.centres) <= SETTLED_MM:
            break
    grid = np.asarray(cv2.warpPerspective(maps.grid, _scaled(total), edges.shape[::-1]), np.float32)
    # The cells' dots are not aligned on either (their dark pixels' hue is the sensor's noise):
    # where the coarse match puts them, with the reach of their blurred edges, they take no part
    # in the fine one.
    dots = cv2.warpPerspective(maps.dots.astype(np.uint8), _scaled(total), edges.shape[::-1])
    edges = np.where(cv2.dilate(dots, disc(4 * EDGE_BLUR_MM)) > 0, np.float32(0.0), edges)
    for patches in (PATCHES, SMALLER_PATCHES):
        sources, targets = _patch_matches(edges, grid, SEARCH_MM[1], SHEET_PPM, patches)
        # As closely as the patches agree: a looser agreement, which blur may leave, also admits
        # a map a little off (enough to tip a cell's colour where the sensor clipped it).
        agreed = _agreeing((sources, targets), AGREE_MM[1], LEAST_PATCHES)
        if agreed is None:
            agreed = _agreeing((sources, targets), BLURRED_AGREE_MM, LEAST_PATCHES)
        if agreed is not None:
            break
    if agreed is None:
        return None
    follow = agreed[1]
    printed = cv2.perspectiveTransform(sources[follow][None], np.linalg.inv(total))[0]
    fitted, _ = cv2.findHomography(
        np.concatenate([printed, anchors]), np.concatenate([targets[follow], anchors]), 0
    )
    if fitted is None:
        return None
    total = np.asarray(fitted, np.float64)
    return total if _moved(total, maps.centres) <= MOST_CORRECTION_MM else None


def _warped(image: Floats, correction: Homography) -> Floats:
    """``image`` resampled so that the sheet's cells sit where the printed sheet has them."""
    h, w = image.shape[:2]
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return np.asarray(
        cv2.warpPerspective(
            image, _scaled(correction), (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE
        ),
        np.float32,
    )


def _percentile(ordered: Floats, share: float) -> np.floating[Any]:
    """The ``share`` percentile of ``ordered`` (sorted) as np.percentile gives it of the values
    unsorted, to the bit: for a Python float ``share`` in float32, for a numpy one in float64.
    A sort of so few values costs several times less than np.percentile, and serves many."""
    n = len(ordered)
    at = (n - 1) * (share / 100)
    below = min(int(np.floor(at)), n - 1)
    fraction = at - below
    low, high = ordered[below], ordered[min(below + 1, n - 1)]
    rise = high - low
    # numpy interpolates from the nearer end.
    value: np.floating[Any] = (
        high - rise * (1 - fraction) if fraction >= 0.5 else low + rise * fraction
    )
    return value


def _ratio(
    values: Floats, level: Floats, clipped: Mask, channel: int, reference: int, among: Mask
) -> tuple[float | None, float | None, float]:
    """log(channel / reference) of the paper, a lower bound where clipping hides it, and the
    least brightness (``level``) the paper was found at.

    Pixels are binned by the brightness around them (``level``, not their own: a pixel's noise
    would pick those that read too bright into the brightest bin). In a bin where few pixels
    are clipped in ``channel``, the median over all of them (clipped ones counting as brighter
    than any) is unbiased; the brightest such bin is the paper's (a hand or a cup is darker),
    unless a brighter bin, clipped more, holds many pixels far less warm than it: the paper is
    of one hue at every brightness, so that bin is something warmer (a hand whose darker pixels
    escape the clipping that hides the paper's hue). Where every bin of the paper is clipped,
    only a lower bound is known.
    """
    usable = among & (values[:, reference] > DARKEST_PAPER) & ~clipped[:, reference]
    base, other, over = values[usable, reference], values[usable, channel], clipped[usable, channel]
    if len(base) < 4 * LIGHT_BINS:
        return None, None, 0.0
    ratio = np.log(np.maximum(other, 1.0) / base)
    around = level[usable]
    ordered = np.sort(around)
    edges = [_percentile(ordered, share) for share in np.linspace(0.0, 100.0, LIGHT_BINS + 1)]
    bins = [(around >= lo) & (around <= hi) for lo, hi in pairwise(edges)]
    bins = [inside for inside in bins if inside.sum() >= 4]
    paper_from = 0.0
    for index in reversed(range(len(bins))):  # the brightest first
        inside = bins[index]
        if over[inside].mean() <= MOST_CLIPPED:
            found = float(column_median(np.where(over[inside], np.inf, ratio[inside])))
            brighter = bins[index + 1 :]
            if not any(
                (~over[i] & (ratio[i] < found - WARMER)).mean() > MOST_CLIPPED for i in brighter
            ):
                return found, None, 0.0
            bins = brighter
            paper_from = float(around[brighter[0]].min())
            break
    floors = [column_median(np.where(over[i], np.log(CLIPPED / base[i]), ratio[i])) for i in bins]
    return None, (float(max(floors)) if floors else None), paper_from


def paper_light(image: Floats, clipped: Mask, margin: Mask, sheet: Mask) -> PaperLight | None:
    """The paper's white from the bare margin (None when no paper there is below the sensor's
    limit in any channel); a channel clipped on all of the margin's lit paper, from the paper
    of ``sheet`` in shadow where it is not clipped."""
    picked = np.flatnonzero(margin)[::MARGIN_STEP]
    values, over = image.reshape(-1, 3)[picked], clipped.reshape(-1, 3)[picked]
    if len(values) == 0:
        return None
    reference, first, second = (int(c) for c in np.argsort(over.mean(axis=0), kind="stable"))
    level = np.asarray(cv2.blur(image[:, :, reference], (3, 3)), np.float32).ravel()[picked]
    white = np.ones(3, np.float32)
    weight = np.ones(3, np.float32)
    # Paper lit darker than DARKEST_CELL of the brightest in the margin is not read anywhere:
    # so dark a thing there is a hand or a cup, whatever its hue (a red cup is as grey as paper
    # in blue and green).
    least = DARKEST_CELL * float(_percentile(np.sort(level), BRIGHTEST_SHARE))
    lit = level >= least
    ratio, bound, paper_from = _ratio(values, level, over, first, reference, lit)
    # The last channel among the pixels that match the first in hue (a hand is warmer than
    # paper, whatever its brightness), when the first is measured; else among those as bright
    # as the paper the first was bounded by.
    among = lit & (level >= paper_from)
    if ratio is not None:
        hue = np.log(np.maximum(values[:, first], 1.0) / np.maximum(values[:, reference], 1.0))
        among = lit & (np.abs(hue - ratio) < 2 * NEUTRAL)
    elif bound is not None:
        ratio, weight[first] = bound, BOUNDED_WEIGHT
    else:
        return None
    other, bound, _ = _ratio(values, level, over, second, reference, among)
    if other is None:
        if bound is None:
            return None
        other, weight[second] = bound, BOUNDED_WEIGHT
        if weight[first] >= 1.0:
            channels = (reference, first, second)
            shaded = _shaded_ratio(image, clipped, sheet, channels, (ratio, other), least)
            if shaded is not None and shaded > other:
                # Measured, it counts as fully as any: its clipped pixels only bound the fit.
                other, weight[second] = shaded, 1.0
    white[first], white[second] = np.exp(ratio), np.exp(other)
    xs, ys = picked % image.shape[1], picked // image.shape[1]
    paper = lit & (level >= paper_from)
    planes = hue_planes((xs, ys), image.shape[:2], values, over, paper, reference, white)
    return PaperLight(white, weight, planes)


def _across(at: NDArray[Any], size: int) -> NDArray[Any]:
    """Where ``at`` (px along one side of ``size``) lies from the sheet's middle, in HUE_MM."""
    return (at - size / 2) / (HUE_MM * SHEET_PPM)


def hue_planes(
    at: tuple[NDArray[np.intp], NDArray[np.intp]],
    shape: tuple[int, int],
    values: Floats,
    over: Mask,
    paper: Mask,
    reference: int,
    white: Floats,
) -> Floats | None:
    """Per channel (3 x 7), log(channel / reference) of the paper as a plane across the sheet:
    its value at the middle, how it changes per HUE_MM across and down, and the box it was
    fitted in (see ``_censored_plane``); the reference's plane is nought, and a channel
    measured in too few blocks keeps ``white``'s ratio all over.
    ``at``: where each sampled margin pixel (``values``, clipped ``over``) lies (x, y);
    ``paper``: which of them may be paper (lit). None where no channel has a plane."""
    columns = -(-shape[1] // HUE_BLOCK)
    blocks = -(-shape[0] // HUE_BLOCK) * columns
    every = (at[1] // HUE_BLOCK) * columns + at[0] // HUE_BLOCK
    usable = paper & ~over[:, reference] & (values[:, reference] > DARKEST_PAPER)
    usable &= _lit_blocks(every[paper], channel_sum(values[paper]), blocks, columns)[every]
    x, y = at[0][usable], at[1][usable]
    block = every[usable]
    base = values[usable, reference]
    planes = np.zeros((3, 7), np.float32)
    planes[:, 0] = np.log(white)
    fitted = False
    for c in range(3):
        if c == reference:
            continue
        ratio = np.log(np.maximum(values[usable, c], 1.0) / base)
        clip = over[usable, c]
        found = _hue_blocks(block, ratio, clip, np.log(CLIPPED / base), (x, y), shape)
        if found is None:
            continue
        planes[c] = _censored_plane(*found)
        fitted = True
    return planes if fitted else None


def _lit_blocks(block: NDArray[np.intp], total: Floats, blocks: int, columns: int) -> Mask:
    """Per block (``blocks`` of them, ``columns`` across), whether its paper (``total``: each
    pixel's channels summed, clipped ones included) is lit at least HUE_LIT as brightly as any
    block within HUE_NEAR_MM. A hand or a cup in the margin is darker than the paper beside it,
    and of another hue: its blocks would turn the plane (the light of two colours changes the
    paper's brightness only slowly). Darker in all channels together: it may be as bright in
    the reference, and the paper beside it clipped there."""
    count = np.bincount(block, minlength=blocks)
    kept = np.flatnonzero(count >= LEAST_IN_BLOCK)
    bright = _block_medians(block, total, blocks)[kept]
    row, column = np.divmod(kept, columns)
    apart = np.hypot(row[:, None] - row[None, :], column[:, None] - column[None, :])
    near = apart * HUE_BLOCK <= HUE_NEAR_MM * SHEET_PPM
    lit = np.zeros(len(count), bool)
    lit[kept] = bright >= HUE_LIT * np.where(near, bright[None, :], 0.0).max(axis=1)
    return lit


def _hue_blocks(
    block: NDArray[np.intp],
    ratio: Floats,
    clip: Mask,
    floor: Floats,
    at: tuple[NDArray[np.intp], NDArray[np.intp]],
    shape: tuple[int, int],
) -> tuple[Floats, Floats, Mask] | None:
    """Per block of the margin with LEAST_IN_BLOCK pixels, lit as paper: the basis of the
    plane at its middle (B x 3), its paper's log ratio, and whether that is only a lower bound
    (clipped on half of the block or more: where the limit lies above its clipped pixels'
    reference). None where fewer than LEAST_HUE_BLOCKS are measured."""
    count = np.bincount(block)
    kept = np.flatnonzero(count >= LEAST_IN_BLOCK)
    n = count[kept]
    h, w = shape
    mid_x = np.bincount(block, at[0].astype(np.float64))[kept] / n
    mid_y = np.bincount(block, at[1].astype(np.float64))[kept] / n
    bounded = 2 * np.bincount(block, clip)[kept] >= n
    if (~bounded).sum() < LEAST_HUE_BLOCKS:
        return None
    # Clipped pixels are brighter than any: the median of a block clipped on less than half of
    # it is its paper's. A bound is the clipped pixels' alone (the rest may be a hand's edge).
    measured = _block_medians(block, np.where(clip, np.inf, ratio), len(count))
    floored = _block_medians(block[clip], floor[clip], len(count))
    values = np.where(bounded, floored[kept], measured[kept])
    basis = np.stack([np.ones(len(kept)), _across(mid_x, w), _across(mid_y, h)], axis=1)
    return basis.astype(np.float32), values.astype(np.float32), bounded


def _block_medians(block: NDArray[np.intp], values: Floats, blocks: int = 0) -> Floats:
    """Each block's median of ``values`` (at least ``blocks`` of them; nought where a block
    has none)."""
    count = np.bincount(block, minlength=blocks)
    if not len(values):
        return np.zeros(len(count), np.float32)
    order = np.lexsort((values, block))
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    ordered = values[order]
    low = ordered[np.minimum(start + (count - 1) // 2, len(values) - 1)]
    high = ordered[np.minimum(start + count // 2, len(values) - 1)]
    return np.asarray(np.where(count > 0, (low + high) / 2, 0.0), np.float32)


def _censored_plane(basis: Floats, values: Floats, bounded: Mask) -> Floats:
    """The plane (3) through the blocks' ``values`` (``basis``: B x 3), robustly (Tukey's
    weights: a hand or a cup off the plane does not count), and above those only ``bounded``;
    and the box (4: least and most across, then down) of the blocks that count."""
    plane = np.array([float(np.median(values[~bounded])), 0.0, 0.0])
    for _ in range(HUE_ROUNDS):
        left = values - basis @ plane
        # A bound counts only where the plane falls below it.
        binding = ~bounded | (left > 0)
        spread = max(1.4826 * float(np.median(np.abs(left[~bounded]))), NEUTRAL / 2)
        u = left / (TUKEY * spread)
        # A bound the plane falls below always counts: what the sensor clips is at least so
        # bright, whatever lies off the plane (the paper beside a hand as bright in the
        # reference, measured where the paper is clipped).
        weights = np.where(bounded, 1.0, np.where(np.abs(u) < 1.0, (1.0 - u * u) ** 2, 0.0))
        weights = np.where(binding, weights, 0.0)
        normal = (basis * weights[:, None]).T @ basis + 1e-6 * np.eye(3)
        plane = np.linalg.solve(normal, (basis * weights[:, None]).T @ values)
    counted = basis[weights > 0]
    box = [counted[:, 1].min(), counted[:, 1].max(), counted[:, 2].min(), counted[:, 2].max()]
    return np.concatenate([plane, box]).astype(np.float32)


def _shaded_ratio(
    image: Floats,
    clipped: Mask,
    sheet: Mask,
    channels: tuple[int, int, int],
    measured: tuple[float, float],
    least: float,
) -> float | None:
    """log(channel / reference) of the paper (``channels``: the reference, one measured, and
    the channel wanted; ``measured``: the measured one's ratio, and the wanted one's bound),
    from the pixels of ``sheet`` clipped in no channel, of the paper's hue in the measured one
    and lit at least ``least`` in the reference: the paper in shadow. Its ratios cluster within
    NEUTRAL, at the bound or up to SHADED_ABOVE above it; light strokes of a pencil of the
    paper's hue in the measured channel, or a hand, lie further above (redder, in the red that a
    warm light clips; on a sheet of red cells, more of them than of the paper). The least
    cluster of at least LEAST_SHADED pixels is the paper's; None when there is none."""
    reference, first, second = channels
    ratio, bound = measured
    picked = np.flatnonzero(sheet)[::MARGIN_STEP]
    values, over = image.reshape(-1, 3)[picked], clipped.reshape(-1, 3)[picked]
    base = np.maximum(values[:, reference], 1.0)
    hue = np.log(np.maximum(values[:, first], 1.0) / base)
    usable = ~over.any(axis=1) & (base >= max(least, DARKEST_PAPER))
    usable &= np.abs(hue - ratio) < NEUTRAL
    ratios = np.sort(np.log(np.maximum(values[usable, second], 1.0) / base[usable]))
    ratios = ratios[(ratios >= bound - NEUTRAL) & (ratios <= bound + SHADED_ABOVE)]
    within = np.searchsorted(ratios, ratios + NEUTRAL, side="right") - np.arange(len(ratios))
    clusters = np.flatnonzero(within >= LEAST_SHADED)
    if not len(clusters):
        return None
    # The densest window of those starting within NEUTRAL of the least.
    start = int(clusters[0])
    end = int(np.searchsorted(ratios, ratios[start] + NEUTRAL, side="right"))
    at = start + int(np.argmax(within[start:end]))
    return float(np.median(ratios[at : at + within[at]]))


def _blocks(values: NDArray[Any]) -> NDArray[Any]:
    """``values`` cut into BLOCK x BLOCK blocks: rows x columns x pixels."""
    rows, cols = values.shape[0] // BLOCK, values.shape[1] // BLOCK
    cut = values[: rows * BLOCK, : cols * BLOCK]
    return cut.reshape(rows, BLOCK, cols, BLOCK).transpose(0, 2, 1, 3).reshape(rows, cols, -1)


def paper_map(
    image: Floats, clipped: Mask, seen: Mask, light: PaperLight, unprinted: Mask
) -> PaperMap | None:
    """The paper's white at every pixel: its brightness followed block by block wherever bare
    paper shows, filled in between (None when no bare paper shows anywhere)."""
    h, w = image.shape[:2]
    across = light.across((h, w))
    planes = [image[:, :, c] / across[:, :, c] for c in range(3)]
    unclipped = ~clipped
    usable = [
        unclipped[:, :, c] if light.weight[c] >= 1.0 else np.zeros((h, w), bool) for c in range(3)
    ]
    measured = np.add(usable[0], usable[1], dtype=np.float32) + usable[2]
    level = planes[0] * usable[0] + planes[1] * usable[1] + planes[2] * usable[2]
    level /= np.maximum(measured, 1.0)
    # Paper clipped in every channel is at least as bright as the sensor's limit: filled in from
    # darker paper instead, a cell there would read as lit beyond the paper around.
    saturated = clipped[:, :, 0] & clipped[:, :, 1] & clipped[:, :, 2]  # all(axis=2) is slow
    level[saturated] = CLIPPED / across.min(axis=2)[saturated]
    # Paper: one brightness in every channel measured; bright enough in the clipped ones; about
    # as bright in a channel whose white is only bounded (that bound is seldom far off).
    paper = ((measured > 0) | saturated) & seen & unprinted
    for c, plane in enumerate(planes):
        spread = NEUTRAL + (BOUND_SLACK if light.weight[c] < 1.0 else 0.0)
        ratio = plane / np.maximum(level, 1e-3)
        alike = (ratio > np.exp(-spread)) & (ratio < np.exp(spread))
        paper &= np.where(clipped[:, :, c], level * across[:, :, c] >= 0.97 * CLIPPED, alike)
    # Bare paper shows in patches (an empty cell, the margin); two inks blurred together at a
    # cell's edge can look grey too, but only along a thin line.
    paper = cv2.morphologyEx(paper.astype(np.uint8), cv2.MORPH_OPEN, disc(PAPER_PATCH_MM)) > 0
    size = BLOCK * BLOCK
    rows, cols = h // BLOCK, w // BLOCK
    count = _blocks(paper).sum(axis=2)
    if not (count >= size // 4).any():
        return None
    # The upper part of the paper in a block: grid lines and noise pull the rest down.
    enough = count >= size // 4
    ordered = np.sort(_blocks(np.where(paper, level, -1.0))[enough], axis=1)
    at = (count[enough] - 1) * 4 // 5  # among the paper's pixels, ahead of the -1 fill
    brightness = np.zeros((rows, cols), np.float32)
    brightness[enough] = ordered[np.arange(len(at)), size - count[enough] + at]
    known = enough.astype(np.float32)
    filled, have = brightness.copy(), known.copy()
    for sigma in (1.0, 2.0, 4.0, 8.0, 16.0):
        total = cv2.GaussianBlur(brightness, (0, 0), sigma)
        weight = cv2.GaussianBlur(known, (0, 0), sigma)
        gap = (have == 0) & (weight > 1e-3)
        filled[gap] = total[gap] / weight[gap]
        have[gap] = 1.0
    filled[have == 0] = float(np.median(brightness[known > 0]))
    # Filled in from a shadow's paper, a lit cell would read as lit beyond the paper around.
    reach = round(2.0 * AROUND_MM * SHEET_PPM / BLOCK) | 1  # blocks across
    round_reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    around = cv2.dilate(brightness, round_reach)  # nought where no paper shows
    headroom = np.where(known > 0, 1.0, np.maximum(around / np.maximum(filled, 1e-3), 1.0))
    # Filled in from lit paper, a cell in a shadow would read as in a deep one.
    darker = cv2.erode(np.where(known > 0, brightness, float(brightness.max())), round_reach)
    footroom = np.where(known > 0, 1.0, np.minimum(darker / np.maximum(filled, 1e-3), 1.0))

    def full(blocks: Floats) -> Floats:
        grown = cv2.resize(blocks, (cols * BLOCK, rows * BLOCK), interpolation=cv2.INTER_LINEAR)
        return np.asarray(
            cv2.copyMakeBorder(
                grown, 0, h - rows * BLOCK, 0, w - cols * BLOCK, cv2.BORDER_REPLICATE
            ),
            np.float32,
        )

    white = full(filled)[:, :, None] * across
    return PaperMap(
        np.asarray(white, np.float32),
        BRIGHTEST_CELL * full(headroom.astype(np.float32)),
        SHADED_CELL * full(footroom.astype(np.float32)),
    )


def fit_cells(
    pixels: Floats,
    clipped: Mask,
    white: Floats,
    owner: NDArray[np.intp],
    offsets: Floats,
    count: int,
    weight: Floats,
    brightest: Floats,
    absorb: Floats | None = None,
) -> CellFit:
    """Every cell's fit by every pencil (``brightest``: per pixel, how much brighter than
    ``white`` it may be lit).

    Pixel p of a cell is ``beta_p * W_p - lam_p * W_p * d``: the paper's white W_p, lit brighter
    or darker by beta_p (a plane across the cell: a shadow's soft edge), less the ink lam_p of
    the pencil d. With lam_p eliminated per pixel, beta's plane is a small least squares problem
    per cell, held to 1 (the paper around) unless the cell shows otherwise. Clipped channels
    take no part, and count against a fit that predicts them darker than they read. ``absorb``:
    each pencil's full stroke (K x 3), as the sheet's key shows it; the printed pencils' where
    not given.
    """
    absorb = ABSORB if absorb is None else absorb
    basis = np.concatenate([np.ones((len(pixels), 1), np.float32), offsets], axis=1)
    w = np.where(clipped, 0.0, 1.0).astype(np.float32) * weight[None, :]
    sums = _ink_sums(pixels, white, w, absorb)
    beta = _light(sums, white, owner, basis, count, brightest)
    kinds = len(absorb)
    # Noise scatters a bare cell's ink both ways: its mean is taken before the negative ink,
    # which the fit itself cannot use, is cut off.
    signed = sums.signed(beta)
    lam = np.maximum(signed, 0.0)
    n = np.maximum(np.bincount(owner, minlength=count), 1)

    def mean(values: NDArray[Any]) -> Floats:
        return np.asarray(
            np.stack([np.bincount(owner, values[:, k], count) for k in range(kinds)]) / n,
            np.float32,
        )

    # The misfit, channel by channel (N x K each: cheaper than N x K x 3 at once), and that of
    # the cell's mean colour.
    misfit = np.zeros_like(beta)
    mean_misfit = np.zeros((kinds, count), np.float32)
    for c in range(3):
        lit = beta * white[:, c, None]
        predicted = lit - lam * (white[:, c, None] * absorb[:, c])
        error = np.where(
            clipped[:, c, None],
            # Only known to be at least as bright as it reads: the grid's alignment moves
            # pixels, mixing clipped light with the unclipped light beside it.
            np.minimum(0.0, predicted - np.minimum(pixels[:, c, None], CLIPPED)),
            pixels[:, c, None] - predicted,
        )
        relative = error * weight[c] / np.maximum(lit, 1.0)
        misfit += relative * relative
        mean_misfit += mean(relative) ** 2
    inked = (lam / beta >= INKED).astype(np.float32)
    pixel_misfit = mean(misfit)
    # What the pixels' scatter about their mean leaves in it: over as many as vary apart.
    mean_noise = np.maximum(pixel_misfit - mean_misfit, 0.0) * np.float32(TIED_PIXELS) / n

    # Hatching covers the whole cell; the edge of a hand or a cup across it leaves a side bare.
    third = (np.floor((np.arctan2(offsets[:, 1], offsets[:, 0]) + np.pi) * 1.5 / np.pi) % 3).astype(
        np.intp
    )
    slot = owner * 3 + third
    size = np.maximum(np.bincount(slot, minlength=3 * count), 1).reshape(count, 3)
    shares = np.stack(
        [np.bincount(slot, inked[:, k], 3 * count).reshape(count, 3) / size for k in range(kinds)]
    )
    evenness = shares.min(axis=2) / np.maximum(shares.max(axis=2), 1e-6)
    return CellFit(
        mean(signed / beta),
        mean(inked),
        mean(beta),
        pixel_misfit,
        evenness.astype(np.float32),
        mean_misfit,
        np.asarray(mean_noise, np.float32),
        hue_misfit(pixels, clipped, white, owner, count, absorb),
    )


@dataclass(frozen=True)
class _InkSums:
    """Per pixel and pencil (N x K), over the channels measured, with v = W * d: v.v, v.W and
    v.o; what is left of the pixel and of the white once the ink's direction is taken out; and
    where the pencil leaves anything to take out."""

    vv: Floats
    vw: Floats
    vo: Floats
    num: Floats
    den: Floats
    some: Mask

    def signed(self, beta: Floats) -> Floats:
        """Each pixel's ink by each pencil (N x K), lit ``beta``, less than none where it is
        brighter than the paper so lit, and at most MOST_INK."""
        vv_safe = np.where(self.some, self.vv, 1.0)
        return np.asarray(
            np.minimum(
                np.where(self.some, (beta * self.vw - self.vo) / vv_safe, 0.0), MOST_INK * beta
            )
        )


def _ink_sums(pixels: Floats, white: Floats, w: Floats, absorb: Floats) -> _InkSums:
    """The sums with the channels weighted ``w`` (N x 3) for every pencil alike."""
    ww_c = w * white * white
    wo_c = w * white * pixels
    ww, wow = channel_sum(ww_c), channel_sum(wo_c)
    vv, vw, vo = (
        np.asarray(sums, np.float32)
        for sums in (ww_c @ (absorb * absorb).T, ww_c @ absorb.T, wo_c @ absorb.T)
    )
    return _left(ww[:, None], wow[:, None], vv, vw, vo)


def _left(ww: Floats, wow: Floats, vv: Floats, vw: Floats, vo: Floats) -> _InkSums:
    """The sums, with what is left once each pencil's direction is taken out (``ww``: W.W,
    ``wow``: W.o, per pixel)."""
    some = vv > 1e-9
    vv_safe = np.where(some, vv, 1.0)
    num = np.where(some, wow - vo * vw / vv_safe, 0.0)
    den = np.where(some, ww - vw * vw / vv_safe, 0.0)
    return _InkSums(vv, vw, vo, num, den, some)


def _light(
    sums: _InkSums,
    white: Floats,
    owner: NDArray[np.intp],
    basis: Floats,
    count: int,
    brightest: Floats,
) -> Floats:
    """Per pixel and pencil (N x K), how brightly it is lit: each cell's plane, fitted to the
    light the pencil leaves, held to the paper around unless the cell shows otherwise."""
    held = np.bincount(owner, channel_sum(white * white), count)
    kinds = sums.vv.shape[1]
    normal = np.zeros((kinds, count, 3, 3))
    rhs = np.zeros((kinds, count, 3))
    pairs = [(i, j, basis[:, i] * basis[:, j]) for i in range(3) for j in range(i, 3)]
    for k in range(kinds):
        for i in range(3):
            rhs[k, :, i] = np.bincount(owner, basis[:, i] * sums.num[:, k], count)
        for i, j, product in pairs:
            normal[k, :, i, j] = normal[k, :, j, i] = np.bincount(
                owner, product * sums.den[:, k], count
            )
    normal[:, :, 0, 0] += PAPER_PRIOR * held
    rhs[:, :, 0] += PAPER_PRIOR * held
    normal[:, :, 1, 1] += SLOPE_PRIOR * held
    normal[:, :, 2, 2] += SLOPE_PRIOR * held
    plane = np.linalg.solve(normal + 1e-9 * np.eye(3), rhs[..., None])[..., 0]  # K x C x 3
    return np.asarray(
        np.clip(np.einsum("nj,knj->nk", basis, plane[:, owner]), DARKEST_CELL, brightest[:, None])
    )


def hue_misfit(
    pixels: Floats,
    clipped: Mask,
    white: Floats,
    owner: NDArray[np.intp],
    count: int,
    absorb: Floats | None = None,
) -> Floats:
    """Per pencil and cell (K x C), the mean misfit of the cell's pixels with the light free
    pixel by pixel: what is left of each pixel against its paper once the share common to all
    three channels (the light) is taken out, less the most of it a stroke of the pencil
    explains. A shadow's sharp edge across a cell bends the light no plane follows; it leaves
    every pixel's hue as it was. Pixels with a clipped channel have no hue to fit."""
    usable = ~clipped.any(axis=1)
    ratio = pixels[usable] / np.maximum(white[usable], 1.0)
    hue = ratio - ratio.mean(axis=1, keepdims=True)
    absorb = ABSORB if absorb is None else absorb
    direction = absorb - absorb.mean(axis=1, keepdims=True)
    length = (direction * direction).sum(axis=1)
    # A stroke darkens along the pencil's direction: a hue the other way is none of its ink.
    along = np.minimum(hue @ direction.T, 0.0)
    left = (hue * hue).sum(axis=1)[:, None] - along * along / length
    kept = owner[usable]
    n = np.maximum(np.bincount(kept, minlength=count), 1)
    return np.asarray(
        np.stack([np.bincount(kept, left[:, k], count) for k in range(len(absorb))]) / n,
        np.float32,
    )


def clearly_inked(fit: CellFit) -> list[str | None]:
    """Per cell, the pencil that fits it CLEARLY_BEST times better than any other, where it is
    inked as a filled cell is (however well that pencil fits); None elsewhere."""
    order = np.argsort(fit.misfit, axis=0)
    cells = np.arange(fit.misfit.shape[1])
    best, runner = order[0], order[1]
    margin = (fit.misfit[runner, cells] + NOISE_FLOOR) / (fit.misfit[best, cells] + NOISE_FLOOR)
    filled = (fit.ink[best, cells] >= FILLED_INK) & (fit.inked[best, cells] >= FILLED_SHARE)
    return [
        PENCILS[b] if ok else None
        for b, ok in zip(best.tolist(), (filled & (margin >= CLEARLY_BEST)).tolist(), strict=True)
    ]


# A pencil turned less than this from the one it would replace changes no cell's reading: it is
# not tried (the key shows the printed pencils within 1-5 degrees under the renderer's light).
SAME_DEG = 2.0
# Printed pencils this close in hue (degrees between what their strokes absorb: red and brown
# 15, green and brown 20, the rest 35 and more) are those a player's own pencil of one may look
# like the other.
NEIGHBOUR_DEG = 21.0
NEIGHBOURS = tuple(
    tuple(j != k and angle_deg(ABSORB[j], ABSORB[k]) <= NEIGHBOUR_DEG for k in range(len(PENCILS)))
    for j in range(len(PENCILS))
)


def unknown_neighbour(read: Read, known: Sequence[bool]) -> Read:
    """``read``, unless it names a pencil with a neighbour in hue that the sheet does not show
    (``known``: per pencil, its key measured or cells of it clearly inked): a player's own
    pencil of that colour may look like the one read. So too where the sheet shows nowhere the
    pencil read, and it has a neighbour in hue: that neighbour's own pencil, a shade towards it,
    may be what looks like it."""
    if read.value is None or read.problem:
        return read
    named = PENCILS.index(str(read.value))
    neighbours = [p for k, p in enumerate(PENCILS) if NEIGHBOURS[named][k]]
    hidden = [p for p in neighbours if not known[PENCILS.index(p)]]
    if hidden:
        why = f"{read.component}: {read.value}, unless a {hidden[0]} pencil looks like it (no key)"
    elif neighbours and not known[named]:
        why = (
            f"{read.component}: {read.value}, unless a {neighbours[0]} pencil looks like it "
            f"(no {read.value} shown)"
        )
    else:
        return read
    return Read(read.component, None, 0.0, why)


def tried_instead(
    absorb: Floats,
    fit: CellFit,
    other: Floats,
    plain: Mask,
    fitted: Callable[[Floats], CellFit],
) -> tuple[Floats, CellFit]:
    """Each pencil of ``other`` (K x 3) that turns SAME_DEG or more from ``absorb``'s tried in
    its place, and kept where the cells clear of everything found (``plain``) fit it better
    (see ``better_rows``); with the fit that goes with the pencils kept (``fit`` itself when
    none is). Each pencil's fit is its own: only those tried are fitted (``fitted``: the cells'
    fit by any pencils)."""
    turned = [k for k in range(len(absorb)) if angle_deg(absorb[k], other[k]) >= SAME_DEG]
    if not turned:
        return absorb, fit
    extra = fitted(other[turned])

    def with_rows(rows: list[int], picked: list[int]) -> CellFit:
        """``fit`` with its ``rows`` taken from ``extra``'s rows ``picked``."""
        values = []
        for f in fields(CellFit):
            out = getattr(fit, f.name).copy()
            out[rows] = getattr(extra, f.name)[picked]
            values.append(out)
        return CellFit(*values)

    everywhere = range(len(turned))
    better = better_rows(fit.misfit, with_rows(turned, list(everywhere)).misfit, plain)
    picked = [i for i in everywhere if better[turned[i]]]
    if not picked:
        return absorb, fit
    rows = [turned[i] for i in picked]
    kept = absorb.copy()
    kept[rows] = other[rows]
    return kept, with_rows(rows, picked)


def outlined_cells(contrast: Floats, reads: list[Read]) -> Mask:
    """Per cell, whether its printed outline shows as clearly as a shadow lets it (``contrast``:
    how much each cell's outline shows)."""
    named = np.array([read.value is not None for read in reads])
    if named.sum() < LEAST_NAMED:
        return np.zeros(len(reads), bool)
    return np.asarray(contrast >= SHADOW_OUTLINE * float(np.median(contrast[named])), bool)


class IsleReader(BoardReader):
    """Reads every cell of an Isle sheet with the fitted cell model; ``observe``, if given, is
    shown every sheet's cell names and features as measured (to collect them for fitting)."""

    def __init__(
        self,
        fitted: FittedModel | None = None,
        observe: Callable[[tuple[str, ...], Matrix], None] | None = None,
    ) -> None:
        self._maps: dict[str, SheetMaps] = {}
        self.fitted = fitted or shipped()
        self.observe = observe

    def prepare(self, boards: Sequence[Printed], ppm: float) -> None:
        """Build every sheet's maps now rather than on first sight."""
        for layout, _ in boards:
            self.maps(layout)

    def maps(self, layout: Layout) -> SheetMaps:
        if layout.key not in self._maps:
            self._maps[layout.key] = sheet_maps(layout)
        return self._maps[layout.key]

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        layout = ctx.board.layout
        maps = self.maps(layout)
        cells: list[list[Any]] = []
        result = {"game": "isle", "island": layout.content["island"], "cells": cells}
        face = ctx.face
        if face.ppm != SHEET_PPM or face.image.shape[:2] != maps.shape:
            face = rectify(ctx.image, ctx.board, SHEET_PPM)
        markers = {marker.id: marker for marker in layout.markers}
        anchors = np.array(
            [markers[i].rect.centre for i in ctx.board.marker_ids], np.float64
        ).reshape(-1, 2)
        image = face.image.astype(np.float32)
        correction = grid_alignment(image, maps, anchors)
        if len(ctx.board.marker_ids) < FEW_MARKERS and (
            correction is None or _farthest(correction, anchors) > ANCHORED_MM
        ):
            placed = placed_by_outline(ctx.image, ctx.board)
            if not placed.outline_sides:
                for place in maps.names:
                    problem = f"{place}: the sheet's grid cannot be lined up"
                    ctx.record(Read(place, None, 0.0, problem))
                return result
            face = rectify(ctx.image, placed, SHEET_PPM)
            image = face.image.astype(np.float32)
            correction = grid_alignment(image, maps, anchors)
            if correction is not None and _farthest(correction, anchors) > ANCHORED_MM:
                correction = None  # a grid a cell off: the edges place the sheet better
        clipped = (face.image >= CLIPPED).astype(np.float32)
        seen = (
            np.ones(maps.shape, np.float32)
            if face.seen_mask is None
            else face.seen_mask.astype(np.float32)
        )
        if correction is not None:
            image, clipped = _warped(image, correction), _warped(clipped, correction)
            if face.seen_mask is not None:
                seen = _warped(seen, correction)
        # The dots are measured, then taken out: every other measure reads the cells as printed
        # without them.
        depth = dot_depths(image, maps)
        image, clipped = without_dots(image, clipped, maps.dots)
        colour = None
        if ctx.balance.correction is not None:
            image, colour = calibrated(image, ctx.balance.correction)
        for cell, read in zip(
            maps.cells,
            self._cells(maps, image, clipped > 0, seen > 0.999, colour, depth),
            strict=True,
        ):
            ctx.record(read)
            if read.value is not None:
                cells.append([*cell, read.value])
        return result

    def _cells(
        self,
        maps: SheetMaps,
        image: Floats,
        clipped: Mask,
        seen: Mask,
        colour: Floats | None,
        depth: Floats,
    ) -> list[Read]:
        """``colour``: the paper's colour at the reference card's light, in a calibrated photo;
        ``depth``: how clearly each cell's printed dot shows (``isle_dots``)."""
        light = paper_light(image, clipped, maps.margin & seen, maps.unprinted & seen)
        guessed = np.zeros(3, bool)  # channels of the white taken from the card
        if light is not None and colour is not None:
            guessed = light.weight < 1.0
            light = PaperLight(*known_white(light.white, light.weight, colour))
        paper = None if light is None else paper_map(image, clipped, seen, light, maps.unprinted)
        if (light is None or paper is None) and colour is not None:
            # No paper shows below the sensor's limit: its white is the paper's colour as the
            # card shows it (see ``isle_bright``).
            guessed = np.ones(3, bool)
            light = PaperLight(colour / colour.max(), np.ones(3, np.float32))
            white = np.broadcast_to(colour, (*maps.shape, 3)).astype(np.float32)
            paper = PaperMap(
                white,
                np.full(maps.shape, BRIGHTEST_CELL, np.float32),
                np.full(maps.shape, SHADED_CELL, np.float32),
            )
        if light is None or paper is None:
            return [
                Read(p, None, 0.0, f"{p}: overexposed (no paper to measure)") for p in maps.names
            ]
        count = len(maps.names)
        ys, xs = maps.spots
        shown = seen[ys, xs]
        ys, xs, owner = ys[shown], xs[shown], maps.owner[shown]
        pixels, over, whites = image[ys, xs], clipped[ys, xs], paper.white[ys, xs]
        edges = edge_contrast(image, maps)
        contrast = outline_contrast(edges)
        smooth = smooth_surface(image, clipped, seen, maps)
        reaching = covering(image, clipped, paper.white, light.weight < 1.0, seen, maps, smooth)
        things = reaching | smooth_objects(
            image, clipped, seen, light.white, maps, smooth, reaching
        )
        rims = cup_rims(things, seen, image, light.white)
        things |= rims
        # The players' own pencils, as the sheet's key shows them under this light.
        usable = seen & ~clipped.any(axis=2) & ~things
        key = read_key(image, paper.white, usable, maps.key_spots, ABSORB)
        # Beside a hand or a cup, what looks lit beyond the paper around may be the thing itself
        # (lit, while its shadow darkens the paper the white was measured on).
        beside = (
            cv2.dilate(things.astype(np.uint8), disc(2.0 * RIM_MM))[ys, xs] > 0
            if things.any()
            else np.zeros(len(ys), bool)
        )
        near = np.bincount(owner, beside, count) > 0
        clear = np.bincount(owner, things[ys, xs], count) == 0
        brightest = np.where(near[owner], BRIGHTEST_CELL, paper.brightest[ys, xs])
        offsets = maps.offsets[shown]

        def fitted(absorb: Floats) -> CellFit:
            return fit_cells(
                pixels, over, whites, owner, offsets, count, light.weight, brightest, absorb=absorb
            )

        # Each pencil as the key shows it where the cells clear of everything found fit it better
        # than the printed pencil: a key under a hand or in a shadow shows another colour.
        absorb, fit = tried_instead(ABSORB, fitted(ABSORB), key.absorb, clear, fitted)
        shown_count = np.bincount(owner, minlength=count)
        printed_count = np.bincount(maps.owner, minlength=count)
        visible = shown_count >= MIN_SEEN * printed_count
        # Where the paper's white is a guess, a cell with nothing near it may be lit as brightly
        # or as darkly as the paper nearby: a shadow's edge may pass between them.
        darkest = np.where(near[owner], SHADED_CELL, paper.darkest[ys, xs])
        size = np.maximum(shown_count, 1)
        dim, bright = (np.bincount(owner, limit, count) / size for limit in (darkest, brightest))
        # The cells inked clearly with each pencil in plain view show it in the light across the
        # sheet (those its own pencil, unlike the printed one, fits too poorly to be read
        # included): where they fit what they show better, the sheet is read again with it.
        own = pencils_from_cells(
            clearly_inked(fit), PENCILS, pixels, over, whites, owner, clear, absorb
        )
        absorb, fit = tried_instead(absorb, fit, own, clear, fitted)
        bounded = light.weight < 1.0
        # A white only bounded may be off: the cells are fitted with it lower too.
        lower = (
            fit_cells(
                pixels,
                over,
                whites * np.where(bounded, np.exp(-BOUND_SLACK), 1.0).astype(np.float32),
                owner,
                offsets,
                count,
                light.weight,
                brightest,
                absorb=absorb,
            )
            if bounded.any()
            else fit
        )
        saturated = saturated_share(over, owner, count)
        inked = [v if clear[c] else None for c, v in enumerate(clearly_inked(fit))]
        known = [key.measured[p] or pencil in inked for p, pencil in enumerate(PENCILS)]
        features = cell_features(
            fit,
            lower,
            SheetContext(
                dim.astype(np.float32),
                bright.astype(np.float32),
                contrast,
                edges.min(axis=1),
                depth,
                saturated,
                (np.bincount(owner, over.any(axis=1), count) / size).astype(np.float32),
                near,
                clear,
                (np.bincount(owner, things[ys, xs], count) / size).astype(np.float32),
                (size / np.maximum(printed_count, 1)).astype(np.float32),
                bool(guessed.any()),
                bool(bounded.any()),
                np.array(known),
                np.array([angle_deg(absorb[k], ABSORB[k]) for k in range(len(PENCILS))]),
            ),
        )
        if self.observe is not None:
            self.observe(maps.names, features)
        reads, chances = decided(maps.names, features, self.fitted)
        outlined = outlined_cells(contrast, reads)
        # The sheet may be lit brighter than the card (see ``isle_bright``).
        lit = cell_means(whites, owner, count) * (CARD_SLACK if guessed.all() else 1.0)
        reads = unseen_strokes(reads, lit, maps.centres, absorb)
        # A pencil that neither its key nor a cell clearly inked with it shows may look like a
        # neighbour's: what is read as that neighbour may be it.
        reads = [unknown_neighbour(read, known) for read in reads]
        under = covered_cells(
            things, reaching, rims, image, clipped, maps, reads, edges, outlined, smooth
        )
        found = [
            Read(place, None, 0.0, f"{place}: outside the photo")
            if not visible[k]
            else Read(place, None, 0.0, f"{place}: covered")
            if under[k]
            else reads[k]
            for k, place in enumerate(maps.names)
        ]
        # Whether the sheet shows its dots is judged on the cells read bare; what the model is
        # not sure enough of is refused last, so that every measure above saw its likeliest
        # reading whatever the threshold.
        return [
            sure_enough(read, chances[k], self.fitted.refuse_below)
            for k, read in enumerate(bare_where_seen(found, depth, saturated))
        ]


# The reader measures the paper's white itself, channel by channel where the sensor clips, and
# refuses only what clipping leaves unreadable.
ENTRIES = (ReaderEntry("isle", "sheet", IsleReader, SHEET_PPM, refused_when_overexposed=False),)
