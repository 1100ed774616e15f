"""A cup's rim over an Isle of Colors sheet.

A cup's inside (its coffee, or its shaded inner wall) is found over the sheet as a smooth
surface (``isle_over``), and it is round. Its rim rings it, a wall's thickness wide and one
colour all round, and is easily missed: a ring a few millimetres wide is not smooth over a
window as wide, and a white rim is as plain as paper. The rim stands above the table, parallel
to it, so the sheet's view (the table's plane) shows it as a circle too: the camera maps one
plane to the other parallel to it by a scaling about the point below the camera.

A hand is found as a smooth surface too, and may be as round; but what lies around it (paper
and hatching, lit and in its shadow) is no ring of one colour. A cup at the photo's edge shows
only part of its rim, and is judged on what of it is in view; so is a hand over a corner, round
where it shows, with bare margin around it as plain as a rim: a ring seen only in part must be of
another hue than the paper's.

What is found of a cup's inside may be joined to something beside it (a hand touching it, a
part of the side found with it): its outline then follows the circle only in part. A circle
at least half of which the outline traces is the inside's, if a ring of one colour lies around
it.

What was found follows the inside's edge only roughly: a part of the rim found with it bulges
its outline, and a circle fitted to that lies off the edge by more than the rim is wide, so
that the ring sampled beside it is part rim, part coffee. The circle is fitted again to the
edge itself, where the light rises from the inside's to the rim's: a rim is lit more brightly
than the coffee or the shaded inner wall it rings. A hand is darker towards its edge, so no
such rise lies inside one; beyond its edge lies its shadow, then the paper, where the light does
rise, but only after falling below the hand's. The light rises from a cup's inside to its rim
without falling first.

Below the rim, the cup's side reaches down to the table, leaning one way from the rim (towards
the point below the camera): the sheet's view shows the cup as the hull of two circles, its rim
and its base, which is convex. What is found of the side may be only part of it (the lower part
of a white side, in the cup's own shadow, looks like paper); all that lies between the rim and
the parts of the side found is the cup's too.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.scan.colours import column_median
from vision.scan.readers.isle_sheet import (
    SHEET_PPM,
    Floats,
    Mask,
    disc,
    log_planes,
    paper_hue_distance,
)

LEAST_OPENING = 300.0  # mm^2 of a surface found before it may be a cup's inside
RADII = (20.0, 70.0)  # mm: a cup's opening, as the table's plane shows it
FITS = 2.5  # mm: its outline lies this close to the circle fitted to it...
ROUND = 0.8  # ...at this share of its points (a hand's outline bulges at the fingers)
# ...or, where it does not, this share of the circle is traced by the part of it that does: the
# circle through the most outline points of those through three points a third, a quarter or
# an eighth of the outline apart, starting from CANDIDATES points spaced evenly along it. On
# 1,400 hard tuning renders, cells read wrong fell from 33 to 27 and two more boards were read
# exactly (five gained, three lost where a rim found reaches a cell beside the cup).
TRACED = 0.5
CANDIDATES = 60
CLEAR_MM = 2.0  # outline points this close to the view's edge or to unseen paper are cut
# The inside's edge: along RAYS rays from the middle of that circle, where the light (blurred
# EDGE_SIGMA_MM) rises most steeply from where it first rises EDGE_RISE (log units) above the
# inside's to EDGE_AFTER_MM beyond (not as far as the rim's own edge, a wall's thickness out),
# searched within EDGE_REACH of the radius either way. The circle through three of those points
# that the most lie within EDGE_FITS of, refitted to those, if they are at least EDGE_FOUND of
# the rays. On 2,400 hard tuning renders, cells read wrong fell from 22 to 16 and four more
# boards were read exactly (eleven gained, seven lost where the rim found, or the side found
# with it, reaches a cell beside the cup).
RAYS = 90
EDGE_SIGMA_MM = 1.0
EDGE_RISE = 0.15
EDGE_AFTER_MM = 3.0
EDGE_REACH = 0.25
EDGE_FITS = 1.5  # mm
EDGE_FOUND = 0.5
# Where the light falls EDGE_RISE below the inside's before it rises along DIPPED of the rays it
# rises along, or more, what was found is a hand and the rise its shadow's edge: no cup. On 150
# hard tuning renders, every rim found had at most 1 ray in 90 that dipped; hands, most of theirs.
DIPPED = 0.25
# The rim: a wall about an eighth of the radius thick (its radius 1 / 0.88 of the inside's);
# its side is sought as far as a pixel or two of blur beyond it.
WALL = 1.0 / 0.88
BLUR_MM = 2.0
INSIDE = 0.7  # of the radius: the inside's colour is taken this far in, clear of its edge
# Sampled in RING_SECTORS sectors of its middle (RING_INSET clear of either edge), of which at
# least LEAST_SECTORS in view: their median colours (log units) all but a few within
# RING_SPREAD of theirs, which differs from the inside's by RING_STEP at least.
RING_INSET = 1.5  # mm
RING_SECTORS = 24
LEAST_SECTORS = 13
# Where the photo's edge (or unseen paper) cuts the circle, the outline need trace only TRACED of
# what of it is in view, the inside's edge is found along EDGE_FOUND of the rays in view, and the
# ring is judged on the sectors in view, at least CUT_SECTORS of them; but a circle traced over
# less than TRACED of the whole, or a ring in fewer than LEAST_SECTORS sectors, is a rim only
# where its hue differs from the paper's by RIM_HUE (log units) or more: a hand over a corner is
# ringed by the margin's paper or its own shadow, of the paper's hue (a white rim so cut is not
# told from them). On 4,400 hard tuning renders, 9 boards were read exactly that were not before
# (cups at the sheet's edge whose rims were read as cells of their colour), 2 were lost (a rim or
# a cup's side found a little too large, over a cell beside it), and cells read wrong fell from 22
# to 11.
CUT_SECTORS = 6
RIM_HUE = 0.15
LEAST_SECTOR_PX = 5
RING_SPREAD = 0.2
SPREAD_SHARE = 80.0  # percentile of the sectors
RING_STEP = 0.15
# The side: found surfaces of the rim's hue (within SIDE_HUE in log units: a hand touching the
# cup is of another), at least SIDE_WIDTH_MM wide (a hand's blurred edge can pass through the
# rim's hue in a thin band), reaching the rim's blurred edge, within SIDE_REACH radii of its
# middle, on the side they lean to and within a radius of that line (a cup's side is no wider
# than its rim).
# The hull of those and the rim, less SIDE_TRIM_MM all round (the blur around what was found),
# is the cup's.
SIDE_HUE = 0.15
SIDE_WIDTH_MM = 2.0
SIDE_REACH = 2.0
SIDE_TRIM_MM = 2.0


def cup_rims(things: Mask, seen: Mask, image: Floats, white: Floats) -> Mask:
    """Where the rims of the cups whose insides are among ``things`` (what was found over the
    sheet) lie, their insides and all between them and what was found of their sides with them;
    ``seen``: the sheet's pixels in the photo; ``white``: the paper's colour (per channel)."""
    rims = np.zeros(things.shape, bool)
    cut = np.ones(things.shape, np.uint8)
    cut[1:-1, 1:-1] = 0
    cut |= (~seen).astype(np.uint8)
    clear = round(2 * CLEAR_MM * SHEET_PPM) | 1
    near_cut = cv2.dilate(cut, np.ones((clear, clear), np.uint8)) > 0
    usable = seen & ~near_cut
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        things.astype(np.uint8), connectivity=8
    )
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < LEAST_OPENING * SHEET_PPM * SHEET_PPM:
            continue
        outline = _round_outline((labels == label).astype(np.uint8), near_cut)
        if outline is None:
            continue
        circle, in_part = outline
        edge = _inside_edge(image, usable, circle)
        if edge is None:
            continue
        x, y, radius = edge
        ring = _ring_colour(image, usable, (x, y, radius), white, in_part)
        if ring is not None:
            cv2.circle(rims.view(np.uint8), (round(x), round(y)), round(radius * WALL), 1, -1)
            rims |= _cup_body(things, image, ring, (x, y), radius * WALL)
    return rims


def _cup_body(
    things: Mask, image: Floats, ring: Floats, centre: tuple[float, float], rim: float
) -> Mask:
    """The hull of a cup's rim (``centre`` and radius ``rim`` in px, of colour ``ring`` in log
    units) and what was found of its side among ``things``, trimmed of the blur around them."""
    body = np.zeros(things.shape, bool)
    reach = SIDE_REACH * rim
    window, rows, cols, dx, dy, apart = _around(things.shape, centre, reach)
    blue, green, red = log_planes(image[window])
    alike = (np.abs(blue - green - (ring[0] - ring[1])) <= SIDE_HUE) & (
        np.abs(red - green - (ring[2] - ring[1])) <= SIDE_HUE
    )
    side = (things[window] & alike).astype(np.uint8)
    opened = cv2.morphologyEx(side, cv2.MORPH_OPEN, disc(SIDE_WIDTH_MM)) > 0
    top = apart <= rim
    edge = apart <= rim + BLUR_MM * SHEET_PPM
    reached = (opened & (apart <= reach)) | edge
    _, parts = cv2.connectedComponents(reached.astype(np.uint8), connectivity=8)
    touching = np.unique(parts[edge])
    side = np.isin(parts, touching[touching > 0]) & ~top
    if not side.any():
        return body
    lean = np.array([dx[side].mean(), dy[side].mean()])
    if not np.hypot(*lean):
        return body
    lean /= np.hypot(*lean)
    side &= (dx * lean[0] + dy * lean[1] >= 0) & (np.abs(dx * lean[1] - dy * lean[0]) <= rim)
    points = np.column_stack([cols[side | top], rows[side | top]]).astype(np.int32)
    hull = np.zeros(things.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
    return np.asarray(cv2.erode(hull, disc(2 * SIDE_TRIM_MM)) > 0)


def _around(
    shape: tuple[int, ...], centre: tuple[float, float], reach: float
) -> tuple[tuple[slice, slice], NDArray[np.intp], NDArray[np.intp], Floats, Floats, Floats]:
    """The window of an image of ``shape`` that holds the disc ``reach`` px about ``centre``
    (a pixel to spare), its pixels' rows and columns, and their offsets and distance from it."""
    h, w = shape[:2]
    x, y = centre
    x0, y0 = max(0, int(x - reach) - 1), max(0, int(y - reach) - 1)
    x1, y1 = min(w, int(x + reach) + 2), min(h, int(y + reach) + 2)
    rows, cols = np.mgrid[y0:y1, x0:x1]
    dx, dy = cols - x, rows - y
    return (slice(y0, y1), slice(x0, x1)), rows, cols, dx, dy, np.hypot(dx, dy)


def _round_outline(
    part: np.ndarray, near_cut: Mask
) -> tuple[tuple[float, float, float], bool] | None:
    """The circle (x, y, radius in px) a cup's size that the outline of ``part``, where it is
    not cut by the view (``near_cut``), follows, or else that it traces over at least TRACED of
    what of the circle lies in view (that of those through three of its points that the most lie
    on, refitted to them); and whether it traces less than TRACED of the whole circle. None if
    there is none."""
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    points = np.vstack([c.reshape(-1, 2) for c in contours]).astype(np.float64)
    points = points[~near_cut[points[:, 1].astype(int), points[:, 0].astype(int)]]
    if len(points) < 2 * RADII[0] * SHEET_PPM:
        return None
    circle = _fitted(points)
    on = _on(points, circle)
    follows = bool(_sized(circle[2])) and on.mean() >= ROUND
    if not follows:
        n = len(points)
        traced = _most_on(points, max(1, n // CANDIDATES), (n // 3, n // 4, n // 8), FITS)
        if traced is None or not _sized(traced[2]):
            return None
        circle, on = traced, _on(points, traced)
    share = on.sum() / (2.0 * np.pi * circle[2])
    if not follows and share < TRACED * _in_view(circle, near_cut):
        return None
    return circle, bool(share < TRACED)


def _in_view(circle: tuple[float, float, float], near_cut: Mask) -> float:
    """What share of ``circle``'s circumference (x, y, radius in px) lies in the view, clear of
    its cut (``near_cut``)."""
    x, y, radius = circle
    angles = np.linspace(0.0, 2.0 * np.pi, RAYS, endpoint=False)
    xs = np.round(x + radius * np.cos(angles)).astype(np.intp)
    ys = np.round(y + radius * np.sin(angles)).astype(np.intp)
    h, w = near_cut.shape
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    return float((~near_cut[ys[inside], xs[inside]]).sum()) / RAYS


def _most_on(
    points: Floats, every: int, aparts: tuple[int, ...], within: float
) -> tuple[float, float, float] | None:
    """Of the circles a cup's size through three of ``points`` (in order round a circle), from
    every ``every``-th one on, each of ``aparts`` apart, the one the most points lie within
    ``within`` mm of, refitted to those; None if there is none."""
    n = len(points)
    starts = np.repeat(np.arange(0, n, every), len(aparts))
    apart = np.tile(aparts, len(starts) // len(aparts))
    x, y, radius = _through(
        points[starts], points[(starts + apart) % n], points[(starts + 2 * apart) % n]
    )
    on = _on(points, (x, y, radius), within).sum(axis=1)
    on[~_sized(radius)] = 0
    best = int(np.argmax(on))
    if not on[best]:
        return None
    return _fitted(
        points[_on(points, (float(x[best]), float(y[best]), float(radius[best])), within)]
    )


def _inside_edge(
    image: Floats, usable: Mask, circle: tuple[float, float, float]
) -> tuple[float, float, float] | None:
    """The circle (x, y, radius in px) of the edge of a cup's inside whose found outline follows
    ``circle``, where the light rises from the inside's to the rim's (in ``usable`` pixels of
    ``image``); ``circle`` itself where too little of that edge shows; None where the light falls
    below the inside's before it rises, as beyond a hand into its shadow."""
    x, y, radius = circle
    window, rows, cols, _, _, apart = _around(usable.shape, (x, y), (1.0 + EDGE_REACH) * radius)
    near = usable[window]
    blurred = cv2.GaussianBlur(image[window], (0, 0), EDGE_SIGMA_MM * SHEET_PPM)
    # Linear light, not log: blur mixes light, and a mix's steepest change is at the edge.
    light = np.asarray(blurred, np.float32).mean(axis=2)
    inside = light[near & (apart <= INSIDE * radius)]
    if inside.size < LEAST_SECTOR_PX:
        return circle
    level = float(np.median(inside))
    step = 0.5  # px along each ray
    reach = np.arange((1.0 - EDGE_REACH) * radius, (1.0 + EDGE_REACH) * radius, step)
    angles = np.linspace(0.0, 2.0 * np.pi, RAYS, endpoint=False)
    along_x = (x - cols[0, 0] + np.outer(np.cos(angles), reach)).astype(np.float32)
    along_y = (y - rows[0, 0] + np.outer(np.sin(angles), reach)).astype(np.float32)
    profile = cv2.remap(light, along_x, along_y, cv2.INTER_LINEAR, borderValue=float("nan"))
    seen = cv2.remap(near.astype(np.uint8), along_x, along_y, cv2.INTER_NEAREST, borderValue=0)
    # Seen all the way out to where the light has risen: nothing unseen hides an earlier edge.
    seen_out = np.cumprod(seen, axis=1) > 0
    risen = profile >= level * np.exp(EDGE_RISE)
    first = np.argmax(risen, axis=1)
    rays = np.flatnonzero(risen.any(axis=1) & (first > 0) & seen_out[np.arange(RAYS), first])
    span = np.arange(len(reach))[None, :]
    lowest = np.where(span < first[:, None], profile, np.inf).min(axis=1)[rays]
    if len(rays) and (lowest < level * np.exp(-EDGE_RISE)).mean() >= DIPPED:
        return None
    # The rays that meet the circle in view; no fewer than the least share of the ring judged.
    shown = max(int(seen[:, len(reach) // 2].sum()), CUT_SECTORS * RAYS // RING_SECTORS)
    if len(rays) < EDGE_FOUND * shown:
        return circle
    # The steepest rise from as far before the first risen as the blur reaches back to
    # EDGE_AFTER_MM after it, between samples by the parabola through the three about it.
    start = first[rays, None] - round(2.0 * EDGE_SIGMA_MM * SHEET_PPM / step)
    end = first[rays, None] + round(EDGE_AFTER_MM * SHEET_PPM / step)
    slope = np.gradient(profile[rays], axis=1)
    searched = (span >= start) & (span <= end) & np.isfinite(slope)
    at = np.clip(np.argmax(np.where(searched, slope, -np.inf), axis=1), 1, len(reach) - 2)
    before, peak, after = (slope[np.arange(len(rays)), at + k] for k in (-1, 0, 1))
    curve = before - 2.0 * peak + after
    peaked = curve < 0  # and not nan
    offset = np.zeros(len(rays))
    offset[peaked] = 0.5 * (before - after)[peaked] / curve[peaked]
    out = reach[at] + step * np.clip(offset, -1.0, 1.0)
    points = np.column_stack([x + np.cos(angles[rays]) * out, y + np.sin(angles[rays]) * out])
    n = len(points)
    fitted = _most_on(points, 1, (n // 3, n // 4), EDGE_FITS)
    if fitted is None or _on(points, fitted, EDGE_FITS).sum() < EDGE_FOUND * shown:
        return circle
    return fitted if _sized(fitted[2]) else circle


def _fitted(points: Floats) -> tuple[float, float, float]:
    """The circle (x, y, radius) through ``points``, by least squares."""
    xs, ys = points[:, 0], points[:, 1]
    # x^2 + y^2 = 2ax + 2by + c: in one solve.
    (a2, b2, c), *_ = np.linalg.lstsq(
        np.column_stack([xs, ys, np.ones_like(xs)]), xs * xs + ys * ys, rcond=None
    )
    x, y = a2 / 2.0, b2 / 2.0
    return float(x), float(y), float(np.sqrt(max(c + x * x + y * y, 0.0)))


def _through(a: Floats, b: Floats, c: Floats) -> tuple[Floats, Floats, Floats]:
    """The circles (centres' x and y, radii) each through a point of ``a``, ``b`` and ``c``
    (N x 2 each); of radius infinite where the three lie in a line."""
    (x1, y1), (x2, y2), (x3, y3) = a.T, b.T, c.T
    d = 2.0 * (x1 * (y2 - y3) + x2 * (y3 - y1) + x3 * (y1 - y2))
    d = np.where(np.abs(d) < 1e-6, np.nan, d)
    s1, s2, s3 = x1 * x1 + y1 * y1, x2 * x2 + y2 * y2, x3 * x3 + y3 * y3
    x = (s1 * (y2 - y3) + s2 * (y3 - y1) + s3 * (y1 - y2)) / d
    y = (s1 * (x3 - x2) + s2 * (x1 - x3) + s3 * (x2 - x1)) / d
    radius = np.nan_to_num(np.hypot(x1 - x, y1 - y), nan=np.inf)
    return np.nan_to_num(x), np.nan_to_num(y), radius


def _sized(radius: Floats | float) -> Mask:
    """Whether circles of ``radius`` (px) are a cup's opening in size."""
    return np.asarray((radius >= RADII[0] * SHEET_PPM) & (radius <= RADII[1] * SHEET_PPM))


def _on(
    points: Floats,
    circles: tuple[float, float, float] | tuple[Floats, Floats, Floats],
    within: float = FITS,
) -> NDArray[np.bool_]:
    """Which of ``points`` lie within ``within`` mm of a circle (x, y, radius), or of each of
    several (arrays of them: one row of the result per circle)."""
    x, y, radius = (np.asarray(v, np.float64)[..., None] for v in circles)
    return np.asarray(
        np.abs(np.hypot(points[:, 0] - x, points[:, 1] - y) - radius) <= within * SHEET_PPM
    )


def _ring_colour(
    image: Floats,
    usable: Mask,
    circle: tuple[float, float, float],
    white: Floats,
    in_part: bool,
) -> Floats | None:
    """The colour (log units) of the ring of one colour, other than the inside's, that lies a
    wall's thickness wide around ``circle`` (x, y, radius in px), where ``usable``; None where
    no such ring lies there. Where less than TRACED of the circle was traced (``in_part``: the
    view may cut it), or too little of the ring is in view, one of the paper's hue (``white``:
    its colour) is none: it may be the margin around a hand over a corner."""
    x, y, radius = circle
    outer = radius * WALL
    window, _, _, dx, dy, apart = _around(usable.shape, (x, y), outer)
    if not apart.size:
        return None
    logs = np.dstack(log_planes(image[window]))
    near = usable[window]
    inset = RING_INSET * SHEET_PPM
    inside = near & (apart <= INSIDE * radius)
    ring = near & (apart >= radius + inset) & (apart <= outer - inset)
    sector = ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * RING_SECTORS).astype(int)
    sector = np.minimum(sector, RING_SECTORS - 1)[ring]
    colours = logs[ring]
    sizes = np.bincount(sector, minlength=RING_SECTORS)
    kept = np.flatnonzero(sizes >= LEAST_SECTOR_PX)
    if len(kept) < CUT_SECTORS or inside.sum() < LEAST_SECTOR_PX:
        return None
    medians = np.array([column_median(colours[sector == k]) for k in kept])
    middle = np.median(medians, axis=0)
    if in_part or len(kept) < LEAST_SECTORS:
        hues = (middle[:1] - middle[1], middle[2:] - middle[1])
        if float(paper_hue_distance(hues, white)[0]) < RIM_HUE:
            return None
    spread = float(np.percentile(np.abs(medians - middle).max(axis=1), SPREAD_SHARE))
    step = float(np.abs(middle - np.median(logs[inside], axis=0)).max())
    return middle if spread <= RING_SPREAD and step >= RING_STEP else None
