"""A board seen by one or two of its markers, placed by its paper's straight edges as well.

One or two markers at a sheet's corners place it well near them and poorly at its far side: a
small square hardly shows how the plane recedes (an Isle sheet's far corner lay 430 px from
where one marker put it). The paper's edges against the table show where all of it lies, even
where a cup or a hand covers the markers at its corners. Each side of the board's outline is
searched across, along lines a few millimetres apart, for steps from the brighter paper to the
darker table; the steps that line up make the side. The homography is then fitted to the
markers seen and to the points on every side found, each of which must lie on its side's
printed line. Searched again from that fit, sides the first guess put too far off are found
too. A side counts only where most of its search lines agree on one straight line: where the
table is as bright as the paper, or a hand lies along the edge, it is not found, and a board
with too few sides found stays as its markers placed it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.images import Image
from vision.layout.model import Layout
from vision.scan.homography import normalised
from vision.scan.refine import uncertainty_mm
from vision.scan.registration import Homography, Sighting

Array = NDArray[np.float64]

SPACING_MM = 4.0  # between the lines searched across a side
CLEAR_MM = 6.0  # no line is searched this near a marker: its black print makes steps of its own
FIRST_REACH = 0.3  # at most, searched this share of the board's longer side (px) either side...
UNSURE = 4.0  # ...and at first this many times as far as the board's fit says it may be off
NEAR_PX = 6.0  # ...and this far either side of where a side already found lies
NEAR_STEP_PX, FAR_STEP_PX = 0.5, 1.0  # sampling along a search line
SMOOTH_PX = 1.5  # each search line is smoothed this much along it, against noise
LEAST_STEP = 4.0  # grey levels per px: a fainter step is not an edge
ON_LINE_PX = 2.0  # a step this near a side's line lies on it (a lens bends the edge a little)
SIDE_SHARE = 0.4  # a side is found where this share of its search lines agree on a line...
LEAST_ON_SIDE = 8  # ...and at least this many
STEPS_PER_LINE = 4  # the steepest steps kept on each search line
TRIALS = 200  # lines tried per side, each through two steps on different search lines
ROUNDS = 4
SETTLED_PX = 0.5  # the search stops once no corner of the board moves further than this
MARKER_PX = 2.0  # the fit must keep the centres of the markers seen this near where seen...
SIDE_PX = 1.5  # ...and the points of each side this near its line (RMS)
# Where all four sides were found, they alone fix the sheet, and a marker's detected centre may
# lie further off (motion blur, a cup's rim over part of it): two hard renders whose fits left a
# marker 2.3 px off had every cell read right.
ALL_SIDES_MARKER_PX = 3.0
SINGULAR = 1e12  # a fitted map (px -> mm) this ill-conditioned folds the board away
LEAST_SIDES = 3  # sides found to place a board, besides its markers
# All four sides found may disagree with the markers where one is a line that is not the paper's
# edge: with two markers or more seen far apart, the three that agree with them place the board.
# One marker alone, small and blurred, fixes too little: on a hard render, three sides that put
# it 0.4 px from where it was seen placed the sheet so that 24 cells read wrong.
ANCHORING_MARKERS = 2


@dataclass(frozen=True)
class _Sides:
    """The sides of a board's outline, each on a line in the board's mm (``axis`` 0 for x =
    ``at``, 1 for y = ``at``), and the points searched across them: where each lies (mm),
    which way is off the board there, and which side it is on (sorted)."""

    axis: tuple[int, ...]
    at: tuple[float, ...]
    samples: Array  # N x 2
    outward: Array  # N x 2
    side: NDArray[np.intp]  # N

    def of(self, side: int) -> Array:
        return np.asarray(self.samples[self.side == side], np.float64)


def _sides(layout: Layout) -> _Sides:
    w, h = layout.size
    grown = [m.rect.inset(-CLEAR_MM) for m in layout.markers]
    clear = np.array([(r.x, r.y, r.x + r.w, r.y + r.h) for r in grown]).reshape(-1, 4)
    edges = ((1, 0.0, (0.0, -1.0)), (0, w, (1.0, 0.0)), (1, h, (0.0, 1.0)), (0, 0.0, (-1.0, 0.0)))
    samples, outward, side = [], [], []
    for k, (axis, at, off) in enumerate(edges):
        along = np.arange(SPACING_MM / 2, h if axis == 0 else w, SPACING_MM)
        points = np.zeros((len(along), 2))
        points[:, axis] = at
        points[:, 1 - axis] = along
        near = (
            (points[:, None, 0] >= clear[None, :, 0])
            & (points[:, None, 0] <= clear[None, :, 2])
            & (points[:, None, 1] >= clear[None, :, 1])
            & (points[:, None, 1] <= clear[None, :, 3])
        ).any(axis=1)
        samples.append(points[~near])
        outward.append(np.tile(off, (int((~near).sum()), 1)))
        side.append(np.full(int((~near).sum()), k))
    return _Sides(
        tuple(e[0] for e in edges),
        tuple(float(e[1]) for e in edges),
        np.concatenate(samples),
        np.concatenate(outward),
        np.concatenate(side).astype(np.intp),
    )


def _project(homography: Homography, points: Array) -> Array:
    return np.asarray(
        cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography), np.float64
    ).reshape(-1, 2)


def _steps(
    image: Image, homography: Homography, sides: _Sides, reach: Array
) -> tuple[Array, NDArray[np.intp], Array]:
    """The steepest steps from bright to dark going off the board, along each search line
    within its side's ``reach`` (px) of where ``homography`` puts it: the steps (px), the
    search line each lies on (sorted), and how steep each is (grey levels per px)."""
    at = _project(homography, sides.samples)
    normal = _project(homography, sides.samples + sides.outward) - at
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-9)
    reaches = reach[sides.side]
    # Far searches are sampled more coarsely: the near ones that follow place the side finely.
    step = NEAR_STEP_PX if reaches.max() <= NEAR_PX else FAR_STEP_PX
    offsets = np.arange(-reaches.max(), reaches.max() + step / 2, step)
    xs = (at[:, None, 0] + offsets[None] * normal[:, None, 0]).astype(np.float32)
    ys = (at[:, None, 1] + offsets[None] * normal[:, None, 1]).astype(np.float32)
    colour = cv2.remap(image, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    grey = colour.reshape(*xs.shape, -1).mean(axis=2, dtype=np.float32)
    grey = cv2.GaussianBlur(grey, (0, 1), sigmaX=SMOOTH_PX / step, sigmaY=0.0)
    h, w = image.shape[:2]
    searched = (
        (xs >= 0)
        & (ys >= 0)
        & (xs <= w - 1)
        & (ys <= h - 1)
        & (np.abs(offsets)[None] <= reaches[:, None])
    )
    # Darkening per px going off the board, centred between the samples compared.
    fall = (grey[:, :-2] - grey[:, 2:]) / (2 * step)
    fall[~(searched[:, :-2] & searched[:, 2:])] = 0.0
    peak = np.zeros_like(fall, bool)
    peak[:, 1:-1] = (fall[:, 1:-1] > fall[:, :-2]) & (fall[:, 1:-1] >= fall[:, 2:])
    # Table texture and print make fainter steps than the paper's edge.
    fall = np.where(peak & (fall >= LEAST_STEP), fall, 0.0)
    keep = np.argpartition(-fall, STEPS_PER_LINE, axis=1)[:, :STEPS_PER_LINE]
    lines, rank = np.nonzero(np.take_along_axis(fall, keep, axis=1) > 0)
    offset = offsets[keep[lines, rank] + 1]
    steepness = fall[lines, keep[lines, rank]].astype(np.float64)
    return at[lines] + offset[:, None] * normal[lines], lines.astype(np.intp), steepness


def _side_points(
    steps: Array, lines: NDArray[np.intp], steepness: Array, searched: int
) -> Array | None:
    """The steps that lie on one straight line, one per search line, when enough search lines
    agree on it (else None): of the lines through two steps tried, the one whose search lines'
    steepest steps near it are steepest in all. Paper against the table makes steeper steps
    than the table's own texture, or a bar lying straight on it. ``lines`` is sorted."""
    if len(np.unique(lines)) < 2:
        return None
    # Seeded: the same photo is always placed the same way.
    pairs = np.random.default_rng(0).integers(0, len(steps), (TRIALS, 2))
    pairs = pairs[lines[pairs[:, 0]] != lines[pairs[:, 1]]]
    if len(pairs) == 0:
        return None
    direction = steps[pairs[:, 1]] - steps[pairs[:, 0]]
    normal = np.stack([-direction[:, 1], direction[:, 0]], axis=1)
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    offset = np.einsum("tk,tk->t", normal, steps[pairs[:, 0]])
    near = np.abs(normal @ steps.T - offset[:, None]) <= ON_LINE_PX
    starts = np.flatnonzero(np.r_[True, lines[1:] != lines[:-1]])
    best = int(np.argmax(np.maximum.reduceat(near * steepness, starts, axis=1).sum(axis=1)))
    agreeing = np.count_nonzero(np.logical_or.reduceat(near[best], starts))
    if agreeing < max(LEAST_ON_SIDE, SIDE_SHARE * searched):
        return None
    on, on_lines = steps[near[best]], lines[near[best]]
    centre = on.mean(axis=0)
    direction = np.linalg.svd(on - centre)[2][0]
    distance = np.abs((on - centre) @ np.array([-direction[1], direction[0]]))
    # Where two steps on one search line lie near the line, the nearer one.
    order = np.lexsort((distance, on_lines))
    first = np.r_[True, on_lines[order][1:] != on_lines[order][:-1]]
    return np.asarray(on[order[first]], np.float64)


def _normaliser(points: Array) -> Array:
    """The similarity that centres ``points`` with a mean distance of sqrt(2) from 0."""
    centre = points.mean(axis=0)
    scale = np.sqrt(2) / max(float(np.linalg.norm(points - centre, axis=1).mean()), 1e-9)
    return np.array([[scale, 0, -scale * centre[0]], [0, scale, -scale * centre[1]], [0, 0, 1]])


def _fit(
    marker_mm: Array, marker_px: Array, corners: Array, sides: _Sides, found: dict[int, Array]
) -> Homography | None:
    """The homography (mm -> px) that best keeps ``marker_mm`` at ``marker_px`` and puts each
    found side's points on its line: fitted as its inverse, in which each point on a side is
    one linear condition, and each marker corner two (a direct linear transform, normalised by
    ``corners``, the board's outline in mm); None when the points leave it undetermined."""
    to_px = _normaliser(np.concatenate([marker_px, *found.values()]))
    to_mm = _normaliser(corners)
    p, m = _lifted(to_px, marker_px), _lifted(to_mm, marker_mm)
    zeros = np.zeros_like(p)
    rows = [
        np.hstack([p, zeros, -m[:, :1] * p]),
        np.hstack([zeros, p, -m[:, 1:2] * p]),
    ]
    for k, points in found.items():
        axis = sides.axis[k]
        line = np.zeros(3)
        line[axis], line[2] = sides.at[k], 1.0
        at = (to_mm @ line)[axis]
        p = _lifted(to_px, points)
        row = np.zeros((len(p), 9))
        row[:, 3 * axis : 3 * axis + 3] = p
        row[:, 6:] = -at * p
        rows.append(row)
    inverse = np.linalg.inv(to_mm) @ np.linalg.svd(np.vstack(rows))[2][-1].reshape(3, 3) @ to_px
    if not np.linalg.cond(inverse) < SINGULAR:
        return None
    return normalised(np.linalg.inv(inverse))


def _lifted(normaliser: Array, points: Array) -> Array:
    """``points`` normalised, in homogeneous coordinates."""
    return np.asarray(np.hstack([points, np.ones((len(points), 1))]) @ normaliser.T, np.float64)


def placed_by_outline(image: Image, board: Sighting) -> Sighting:
    """``board`` placed by its markers and its paper's edges together, when at least
    LEAST_SIDES sides of its outline are found and the fit keeps its markers where they were
    seen; else as it was."""
    layout = board.layout
    sides = _sides(layout)
    marker_mm = np.array(
        [c for m in layout.markers if m.id in board.marker_ids for c in m.rect.corners()],
        np.float64,
    ).reshape(-1, 2)
    marker_px = board.to_image(marker_mm)
    corners = np.array(layout.outline.corners(), np.float64)
    reach = _first_reach(board, corners)
    homography, found = board.homography, {}
    for _ in range(ROUNDS):
        near = np.array([k in found for k in range(len(reach))])
        steps, lines, steepness = _steps(image, homography, sides, np.where(near, NEAR_PX, reach))
        now = {}
        for k in range(len(sides.axis)):
            on = sides.side[lines] == k
            searched = int(np.sum(sides.side == k))
            points = _side_points(steps[on], lines[on], steepness[on], searched)
            if points is not None:
                now[k] = points
        if not now:
            return board
        placed = _fit(marker_mm, marker_px, corners, sides, now)
        if placed is None:
            return board
        moved = np.linalg.norm(_project(placed, corners) - _project(homography, corners), axis=1)
        homography, found = placed, now
        if moved.max() <= SETTLED_PX:
            break
    if (
        len(found) == len(sides.axis)
        and len(board.marker_ids) >= ANCHORING_MARKERS
        and not _agrees(homography, marker_mm, marker_px, sides, found)
    ):
        homography, found = _one_side_left_out(
            homography, marker_mm, marker_px, corners, sides, found
        )
    if len(found) < LEAST_SIDES or not _agrees(homography, marker_mm, marker_px, sides, found):
        return board
    return replace(board, homography=homography, covariance=None, outline_sides=len(found))


def _one_side_left_out(
    homography: Homography,
    marker_mm: Array,
    marker_px: Array,
    corners: Array,
    sides: _Sides,
    found: dict[int, Array],
) -> tuple[Homography, dict[int, Array]]:
    """The fit to the markers and all but one of the ``found`` sides that agrees with them
    and keeps the markers nearest where they were seen, with the sides it was fitted to;
    ``homography``, the fit to them all, with them all where none agrees."""
    best: tuple[float, Homography, dict[int, Array]] | None = None
    for left_out in found:
        rest = {k: points for k, points in found.items() if k != left_out}
        fitted = _fit(marker_mm, marker_px, corners, sides, rest)
        if fitted is None or not _agrees(fitted, marker_mm, marker_px, sides, rest):
            continue
        off = _marker_offset(fitted, marker_mm, marker_px)
        if best is None or off < best[0]:
            best = (off, fitted, rest)
    if best is None:
        return homography, found
    return best[1], best[2]


def _first_reach(board: Sighting, corners: Array) -> Array:
    """How far (px) either side of where ``board`` puts each side of its outline (each from
    one corner to the next) to search for it: UNSURE times as far as its corners may be off,
    where the board's fit says so (``vision.scan.refine``), within FIRST_REACH of its size. A
    search no wider than needed meets fewer straight things that are not the paper's edge."""
    longest = float(np.ptp(board.to_image(corners), axis=0).max())
    if board.covariance is None:
        return np.full(len(corners), FIRST_REACH * longest)
    ppm = board.pixels_per_mm()
    off = np.array([uncertainty_mm(board, (x, y)) * ppm for x, y in corners])
    reach = np.clip(UNSURE * np.maximum(off, np.roll(off, -1)), NEAR_PX, FIRST_REACH * longest)
    return np.asarray(reach, np.float64)


def _marker_offset(homography: Homography, marker_mm: Array, marker_px: Array) -> float:
    """How far (px) ``homography`` puts the furthest marker's centre from where it was seen:
    blur pulls a marker's detected corners towards its centre, but leaves the centre."""
    seen = _project(homography, marker_mm).reshape(-1, 4, 2).mean(axis=1)
    return float(np.linalg.norm(seen - marker_px.reshape(-1, 4, 2).mean(axis=1), axis=1).max())


def _agrees(
    homography: Homography,
    marker_mm: Array,
    marker_px: Array,
    sides: _Sides,
    found: dict[int, Array],
) -> bool:
    """Whether ``homography`` keeps the markers where they were seen (MARKER_PX, or
    ALL_SIDES_MARKER_PX where every side was found) and every found side's points on its line:
    a line that is not the paper's edge (a hand's, a shadow's) bends it."""
    # Written so that a NaN (a fit that folds the board away) never agrees.
    limit = ALL_SIDES_MARKER_PX if len(found) == len(sides.axis) else MARKER_PX
    if not _marker_offset(homography, marker_mm, marker_px) <= limit:
        return False
    for k, points in found.items():
        start, end = _project(homography, sides.of(k)[[0, -1]])
        direction = (end - start) / np.linalg.norm(end - start)
        off = (points - start) @ np.array([-direction[1], direction[0]])
        if not float(np.sqrt(np.mean(off**2))) <= SIDE_PX:
            return False
    return True
