"""A Pigment Lab palette seen by one of its markers, placed by its print.

One small marker fixes where a board lies and how it turns, but hardly how its plane recedes: a
few tenths of a pixel on its corners move the far end of the board by centimetres. Most of that
error is the board's perspective (how its scale changes across it), two numbers the marker
cannot tell; the rest is the marker's own turn and scale, known to a few per cent. So the print
is sought over a grid of perspectives that keep the marker where it was seen, and the best few
are refined by a robust Gauss-Newton fit of the whole homography, coarse then fine.

The photo is compared with the print after each is divided by its own smoothed brightness, so
that light falling unevenly and soft shadows change little; a hand or a cup over part of the
board is outvoted by the rest of it. Chip slots and card places are left out of the print: what
lies on them is not printed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.draw import draw_layout
from vision.images import Image
from vision.layout.geometry import Circle, Rect
from vision.layout.model import Layout
from vision.scan.homography import (
    by_entry,
    entries,
    homogeneous,
    local_map,
    matrix,
    normalised,
    scale_shift,
    through,
)
from vision.scan.readers.pigments_pixels import correlation, grey_levels, smooth
from vision.scan.registration import Sighting

# The print is compared with the photo at about a pixel per millimetre: the board's structure
# (wells, markers, its outline) is far coarser than that.
TABLE_MM = 12.0  # a band of table around the board, darker than its paper...
TABLE_LEVEL = 0.6  # ...by this much, as most tables are: the board's outline is matched too
RELATIVE_MM = 15.0  # brightness is taken against its surroundings smoothed this wide
FINE_MM = 1.5  # smoothing for the final fit
COARSE_MM = 4.0  # smoothing for the search and the first fit: errors of centimetres still show
SPARSE_MM = 4.0  # the print is sampled this far apart for the search and the coarse fit...
DENSE_MM = 2.0  # ...and this far apart for the fine fit
CARD_MARGIN_MM = 5.0  # a card may lie this far off its place
# Perspectives: how fast (per mm) the board's scale may change across it, at most, in steps.
PERSPECTIVE_REACH = 0.0025
PERSPECTIVE_STEPS = 21
STARTS = 3  # the best distinct perspectives of the search, each refined
DISTINCT_STEPS = 2  # perspectives this many steps apart or more are distinct starts
FIT_ITERATIONS = 20
SETTLED = 1e-3  # a fit whose cost falls by less than this share in a step has settled
LEVEL_SPREAD = 0.1  # the spread of relative brightness between photo and print, where they match
HUBER = 1.345  # residuals beyond this many spreads (something over the print) count less
MARKER_PX = 1.0  # how far the seen marker's corners may stray, as weighed against the print
# A placement is taken only when it matches the print at least this well (correlation), better
# than where the marker alone put the board by BETTER, and keeps the marker within MARKER_MM.
MIN_MATCH = 0.5
BETTER = 0.05
MARKER_MM = 2.5
MIN_INSIDE = 0.5  # a placement putting less of the print than this inside the photo is not one
# A marker that could not be decoded is seen where the placed board puts it when its print (with
# its quiet ring, both smoothed as blur would) matches there at least MARKER_FOUND, within
# MARKER_CENTRED_MM of its place (sought MARKER_SEARCH_MM around), and better than each of the
# board's other markers by MARKER_APART: what sets a marker apart is its pattern.
MARKER_PPM = 3.0
MARKER_SMOOTH_MM = 1.0
MARKER_SEARCH_MM = 3.0
MARKER_CENTRED_MM = 2.0
MARKER_FOUND = 0.7
MARKER_APART = 0.15

Floats = NDArray[np.float64]
Levels = NDArray[np.float32]


@dataclass(frozen=True)
class Samples:
    """Points of the print (mm, N x 2) and its relative brightness there, smoothed finely and
    coarsely."""

    points: Floats
    fine: Floats
    coarse: Floats


@dataclass(frozen=True)
class PalettePrint:
    """A palette's print, sampled sparsely (to search) and densely (to fit), and each of its
    markers with its quiet ring as printed (grey levels at MARKER_PPM, smoothed)."""

    sparse: Samples
    dense: Samples
    markers: dict[int, Levels]


@dataclass(frozen=True)
class Smoothed:
    """The photo's relative brightness at one smoothing, and its gradients (per pixel)."""

    level: Levels
    dx: Levels
    dy: Levels


@dataclass(frozen=True)
class Photo:
    """The part of the photo where the board may lie, at about a pixel per millimetre of it:
    ``to_photo`` takes the photo's own pixels there."""

    to_photo: Floats
    fine: Smoothed
    coarse: Smoothed


def palette_print(layout: Layout) -> PalettePrint:
    """The palette's print as the fit compares it with photos (worked out once per layout)."""
    pad = round(TABLE_MM)
    face = grey_levels(draw_layout(layout, 1.0))
    paper = float(np.median(face))
    padded = np.asarray(
        cv2.copyMakeBorder(
            face, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=TABLE_LEVEL * paper
        ),
        np.float32,
    )
    relative = _relative(padded, RELATIVE_MM)
    fine, coarse = smooth(relative, FINE_MM), smooth(relative, COARSE_MM)
    printed = _printed_only(layout, padded.shape, pad)

    def samples(step: float) -> Samples:
        ys, xs = np.mgrid[0 : padded.shape[0] : step, 0 : padded.shape[1] : step]
        rows, cols = ys.ravel().astype(int), xs.ravel().astype(int)
        keep = printed[rows, cols]
        rows, cols = rows[keep], cols[keep]
        points = np.stack([cols - pad, rows - pad], axis=1).astype(np.float64)
        return Samples(
            points, fine[rows, cols].astype(np.float64), coarse[rows, cols].astype(np.float64)
        )

    return PalettePrint(samples(SPARSE_MM), samples(DENSE_MM), _marker_prints(layout))


def _marker_prints(layout: Layout) -> dict[int, Levels]:
    face = smooth(grey_levels(draw_layout(layout, MARKER_PPM)), MARKER_SMOOTH_MM * MARKER_PPM)
    prints = {}
    for marker in layout.markers:
        quiet = marker.quiet
        x0, y0 = round(quiet.x * MARKER_PPM), round(quiet.y * MARKER_PPM)
        x1, y1 = round((quiet.x + quiet.w) * MARKER_PPM), round((quiet.y + quiet.h) * MARKER_PPM)
        prints[marker.id] = np.ascontiguousarray(face[y0:y1, x0:x1])
    return prints


def placed_by_print(image: Image, board: Sighting, printed: PalettePrint) -> Sighting:
    """The board placed by its print, when that matches clearly better than where its one seen
    marker put it (else placed as it was), with the markers seen there by their look."""
    (marker,) = [m for m in board.layout.markers if m.id in board.marker_ids]
    centre = marker.rect.centre
    at, local = local_map(board.homography, centre)
    scale = min(1.0, 1.0 / float(np.sqrt(abs(np.linalg.det(local)))))
    steps = np.linspace(-PERSPECTIVE_REACH, PERSPECTIVE_REACH, PERSPECTIVE_STEPS)
    grid = np.array([(gx, gy) for gx in steps for gy in steps])
    perspectives = _perspectives(at, local, centre, grid)
    photo = _photo(image, scale, _reach(perspectives, board.layout, image.shape, scale))
    if photo is None:
        return board
    to_photo = photo.to_photo
    corners = np.array(marker.rect.corners(), np.float64)
    as_seen = entries(to_photo @ board.homography)
    seen_at = _project(as_seen, corners)
    sparse, dense = printed.sparse, printed.dense
    starts = _searched(photo, sparse, to_photo[None] @ perspectives, grid, steps[1] - steps[0])
    coarse = [
        _fitted(p, _Target(sparse.points, sparse.coarse, photo.coarse, corners, seen_at))
        for p in starts
    ]
    if not coarse:
        return board
    best = max(coarse, key=lambda p: _match(p, sparse.points, sparse.coarse, photo.coarse.level))
    fine = _fitted(best, _Target(dense.points, dense.fine, photo.fine, corners, seen_at))
    score = _match(fine, dense.points, dense.fine, photo.fine.level)
    before = _match(as_seen, dense.points, dense.fine, photo.fine.level)
    stray = float(np.abs(_project(fine, corners) - seen_at).max())
    placed = board
    if stray <= MARKER_MM and score >= max(MIN_MATCH, before + BETTER):
        homography = normalised(np.linalg.inv(to_photo) @ matrix(fine))
        placed = replace(board, homography=homography, covariance=None)
    return replace(placed, marker_ids=_markers_seen(image, placed, printed.markers))


# The board's other markers, seen by their look.


def _markers_seen(image: Image, board: Sighting, prints: dict[int, Levels]) -> tuple[int, ...]:
    """The board's markers seen: the one decoded, and those others that show where the board is
    now placed, recognised by their look (too small or blurred to decode, a marker can still be
    told from the board's other markers). Together they confirm the placement only across the
    span between them: the pans run across the board's width, so they count only when they
    span its middle; else the decoded marker alone."""
    seen = set(board.marker_ids)
    for marker in board.layout.markers:
        if marker.id not in seen and _shows(image, board, marker.id, prints):
            seen.add(marker.id)
    xs = [m.rect.centre[0] for m in board.layout.markers if m.id in seen]
    middle = board.layout.size[0] / 2
    return tuple(sorted(seen)) if min(xs) < middle < max(xs) else board.marker_ids


def _shows(image: Image, board: Sighting, marker_id: int, prints: dict[int, Levels]) -> bool:
    """Whether the marker shows where the board's homography puts it (give or take
    MARKER_CENTRED_MM): its print matches the photo there well, and better than any other of
    the board's markers would."""
    (spec,) = [m for m in board.layout.markers if m.id == marker_id]
    box = spec.quiet.inset(-MARKER_SEARCH_MM)
    to_face = scale_shift(1.0 / MARKER_PPM, box.x, box.y)
    size = (round(box.w * MARKER_PPM), round(box.h * MARKER_PPM))
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    face = cv2.warpPerspective(image, board.homography @ to_face, size, flags=flags)
    view = smooth(grey_levels(np.asarray(face, np.uint8)), MARKER_SMOOTH_MM * MARKER_PPM)
    template = prints[marker_id]
    if view.shape[0] < template.shape[0] or view.shape[1] < template.shape[1]:
        return False
    scores = np.nan_to_num(cv2.matchTemplate(view, template, cv2.TM_CCOEFF_NORMED), nan=-1.0)
    _, best, _, (x, y) = cv2.minMaxLoc(scores)
    centre = np.array(scores.shape[::-1], np.float64) / 2.0 - 0.5
    off = float(np.hypot(*(np.array([x, y]) - centre))) / MARKER_PPM
    if best < MARKER_FOUND or off > MARKER_CENTRED_MM:
        return False
    rows, cols = template.shape
    patch = view[y : y + rows, x : x + cols]
    others = [correlation(patch, printed) for key, printed in prints.items() if key != marker_id]
    return best - max(others, default=-1.0) >= MARKER_APART


# The search.


def _searched(
    photo: Photo, sparse: Samples, homographies: NDArray[np.float64], grid: Floats, step: float
) -> list[Floats]:
    """The best few distinct perspectives by how well the coarse print matches there."""
    seen = _sample(photo.coarse.level, _projected(homographies, sparse.points))
    scores = _matches(sparse.coarse, seen)
    chosen: list[int] = []
    for k in np.argsort(scores)[::-1]:
        if len(chosen) == STARTS or scores[k] <= -1.0:
            break
        if all(np.abs(grid[k] - grid[j]).max() >= DISTINCT_STEPS * step for j in chosen):
            chosen.append(int(k))
    return [entries(homographies[k]) for k in chosen]


def _reach(
    perspectives: NDArray[np.float64], layout: Layout, shape: tuple[int, ...], scale: float
) -> tuple[int, int, int, int] | None:
    """The part of the photo (x0, y0, x1, y1, at ``scale``) where the board and the table
    around it may lie, under any perspective searched; None when that is outside the photo."""
    w, h = layout.size
    outline = Rect(-TABLE_MM, -TABLE_MM, w + 2 * TABLE_MM, h + 2 * TABLE_MM).corners()
    at = _projected(perspectives, np.array(outline, np.float64))
    ahead = at[..., 0] > -1e5
    if not ahead.any():
        return None
    xs, ys = at[..., 0][ahead] * scale, at[..., 1][ahead] * scale
    cols, rows = round(shape[1] * scale), round(shape[0] * scale)
    x0, y0 = max(0, int(xs.min())), max(0, int(ys.min()))
    x1, y1 = min(cols, int(xs.max()) + 2), min(rows, int(ys.max()) + 2)
    return (x0, y0, x1, y1) if x1 - x0 > 2 and y1 - y0 > 2 else None


def _perspectives(
    at: Floats, local: Floats, centre: tuple[float, float], grid: Floats
) -> NDArray[np.float64]:
    """For each perspective g (per mm), the homography x -> at + local u / (1 + g.u), u = x -
    centre: it agrees with ``at`` and ``local`` at the centre and recedes along g."""
    to_centre = scale_shift(1.0, -centre[0], -centre[1])
    out = np.zeros((len(grid), 3, 3))
    out[:, :2, :2] = at[None, :, None] * grid[:, None, :] + local[None]
    out[:, :2, 2] = at
    out[:, 2, :2] = grid
    out[:, 2, 2] = 1.0
    return np.asarray(out @ to_centre, np.float64)


# The fit.


@dataclass(frozen=True)
class _Target:
    """What a fit lays the print onto: the photo at one smoothing, at the print's ``points``
    with their ``levels``, and where the marker's ``corners`` were seen (``seen_at``)."""

    points: Floats
    levels: Floats
    photo: Smoothed
    corners: Floats
    seen_at: Floats


def _fitted(params: Floats, target: _Target) -> Floats:
    """The homography (eight parameters, h33 = 1) that best lays the print's ``levels`` onto the
    photo, up to a gain and an offset, keeping the marker's corners near where they were seen:
    Levenberg-Marquardt on Huber-weighted residuals."""
    damping = 1e-3
    for _ in range(FIT_ITERATIONS):
        terms = _terms(params, target)
        if terms is None:
            break
        cost, residual, jacobian, weights, corner_residual, corner_jacobian = terms
        weighted = jacobian * (weights / LEVEL_SPREAD**2)[:, None]
        normal = weighted.T @ jacobian + corner_jacobian.T @ corner_jacobian / MARKER_PX**2
        gradient = weighted.T @ residual + corner_jacobian.T @ corner_residual / MARKER_PX**2
        diagonal = np.diag(np.diag(normal))
        improved = False
        while damping < 1e6 and not improved:
            step = -np.linalg.solve(normal + damping * diagonal, gradient)
            trial = _cost(params + step, target)
            if trial < cost:
                params, improved = params + step, True
                damping = max(damping / 3.0, 1e-7)
            else:
                damping *= 4.0
        if not improved or trial > cost * (1.0 - SETTLED):
            break
    return params


def _terms(
    params: Floats, target: _Target
) -> tuple[float, Floats, Floats, Floats, Floats, Floats] | None:
    """The robust cost at ``params``, the print's residuals and their Jacobian, their Huber
    weights, and the marker corners' residuals (px) and Jacobian. None: too little in view."""
    fitted = _photometric(params, target.points, target.levels, target.photo.level)
    if fitted is None:
        return None
    residual = fitted.residual
    inside = target.points[fitted.inside]
    jacobian = fitted.gain * _level_jacobian(params, inside, target.photo)
    reach = HUBER * LEVEL_SPREAD
    weights = np.where(np.abs(residual) <= reach, 1.0, reach / np.maximum(np.abs(residual), 1e-12))
    corner_at, corner_du, corner_dv = by_entry(params, target.corners)
    corner_residual = (corner_at - target.seen_at).ravel()
    corner_jacobian = np.stack([corner_du, corner_dv], axis=1).reshape(-1, 8)
    cost = _robust(residual, corner_residual)
    return cost, residual, jacobian, weights, corner_residual, corner_jacobian


def _cost(params: Floats, target: _Target) -> float:
    fitted = _photometric(params, target.points, target.levels, target.photo.level)
    if fitted is None:
        return float("inf")
    return _robust(fitted.residual, (_project(params, target.corners) - target.seen_at).ravel())


def _robust(residual: Floats, corner_residual: Floats) -> float:
    """Huber's cost of the print's residuals plus the corners' squared residuals, each over its
    spread squared."""
    reach = HUBER * LEVEL_SPREAD
    size = np.abs(residual)
    huber = np.where(size <= reach, size**2, 2.0 * reach * size - reach**2)
    return float(huber.sum() / LEVEL_SPREAD**2 + (corner_residual**2).sum() / MARKER_PX**2)


@dataclass(frozen=True)
class _Photometric:
    """How the photo, at the print's points that fall inside it, misses the print's levels once
    the gain (and offset) that best turn it into them are applied."""

    residual: Floats
    inside: NDArray[np.bool_]  # which of the points fall inside the photo
    gain: float


def _photometric(
    params: Floats, points: Floats, levels: Floats, photo: Levels
) -> _Photometric | None:
    """The photo at the points against the print's levels; None when too few points fall
    inside the photo or the photo does not rise with the print (no match at all)."""
    values = _sample(photo, _project(params, points)[None])[0]
    inside = values >= 0.0
    if np.mean(inside) < MIN_INSIDE:
        return None
    seen = values[inside].astype(np.float64)
    wanted = levels[inside]
    centred = seen - seen.mean()
    gain = float(centred @ (wanted - wanted.mean())) / max(float(centred @ centred), 1e-12)
    if gain <= 0.0:
        return None
    offset = float(wanted.mean() - gain * seen.mean())
    return _Photometric(gain * seen + offset - wanted, inside, gain)


def _match(params: Floats, points: Floats, levels: Floats, photo: Levels) -> float:
    """How well the print matches the photo under ``params``: their correlation."""
    return float(_matches(levels, _sample(photo, _project(params, points)[None]))[0])


def _matches(levels: Floats, seen: NDArray[np.float32]) -> Floats:
    """The correlation of ``levels`` with each row of ``seen`` where it is inside the photo; -1
    where too little of it is."""
    inside = (seen >= 0.0).astype(np.float32)
    count = inside.sum(axis=1)
    wanted = levels.astype(np.float32)
    photo = seen * inside
    # Each row's sums over its inside points alone, as products with the mask.
    n = np.maximum(count, 1.0)
    sum_p, sum_pp = inside @ wanted, inside @ (wanted * wanted)
    sum_s, sum_ss = photo.sum(axis=1), (photo * photo).sum(axis=1)
    sum_ps = photo @ wanted
    covariance = sum_ps - sum_p * sum_s / n
    spread = np.sqrt(np.maximum((sum_pp - sum_p**2 / n) * (sum_ss - sum_s**2 / n), 0.0))
    enough = (spread > 0.0) & (count >= MIN_INSIDE * seen.shape[1])
    return np.asarray(np.where(enough, covariance / np.maximum(spread, 1e-12), -1.0), np.float64)


# Homographies as eight parameters (h33 = 1).


def _project(params: Floats, points: Floats) -> Floats:
    """Where the homography puts ``points`` (px; far outside the photo where they would lie
    behind the camera)."""
    return np.asarray(_in_front(*homogeneous(matrix(params), points[:, 0], points[:, 1])))


def _level_jacobian(params: Floats, points: Floats, photo: Smoothed) -> Floats:
    """The derivatives of the photo's level at the points (in view) with respect to the
    homography's parameters: its gradient there times how the points move."""
    x, y = points[:, 0], points[:, 1]
    u, v, w = through(params, points)
    at = np.stack([u, v], axis=1)[None]
    gx = _sample(photo.dx, at)[0] / w
    gy = _sample(photo.dy, at)[0] / w
    jacobian = np.empty((len(x), 8))
    jacobian[:, 0], jacobian[:, 1], jacobian[:, 2] = gx * x, gx * y, gx
    jacobian[:, 3], jacobian[:, 4], jacobian[:, 5] = gy * x, gy * y, gy
    along = gx * u + gy * v
    jacobian[:, 6], jacobian[:, 7] = -along * x, -along * y
    return jacobian


def _projected(homographies: NDArray[np.float64], points: Floats) -> NDArray[np.float32]:
    """Where each homography (K x 3 x 3) puts the points: K x N x 2 pixels, far outside the
    photo where they would lie behind the camera."""
    x, y = (points[:, k].astype(np.float32) for k in (0, 1))
    return _in_front(*homogeneous(homographies.astype(np.float32), x, y))


def _in_front(u: NDArray[Any], v: NDArray[Any], w: NDArray[Any]) -> NDArray[Any]:
    """The points (u / w, v / w) stacked on a last axis, in the precision given; far outside
    the photo where w says they lie behind the camera."""
    ahead = w > 1e-9
    w = np.where(ahead, w, 1.0)
    return np.stack([np.where(ahead, u / w, -1e6), np.where(ahead, v / w, -1e6)], axis=-1)


# Pixels.


def _photo(image: Image, scale: float, box: tuple[int, int, int, int] | None) -> Photo | None:
    if box is None:
        return None
    gray = grey_levels(image)
    if scale < 1.0:
        gray = np.asarray(
            cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.float32
        )
    x0, y0, x1, y1 = box
    relative = _relative(np.ascontiguousarray(gray[y0:y1, x0:x1]), RELATIVE_MM)
    to_photo = scale_shift(scale, -x0, -y0)
    fine, coarse = smooth(relative, FINE_MM), smooth(relative, COARSE_MM)
    return Photo(to_photo, _levels(fine), _levels(coarse))


def _levels(level: Levels) -> Smoothed:
    # Sobel's 3 x 3 derivative is eight times the gradient per pixel.
    dx = cv2.Sobel(level, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    dy = cv2.Sobel(level, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    return Smoothed(level, np.asarray(dx, np.float32), np.asarray(dy, np.float32))


def _relative(gray: Levels, sigma: float) -> Levels:
    """Brightness against the smoothed brightness around; so wide a smoothing loses nothing
    done at a quarter of the resolution."""
    rows, cols = gray.shape
    size = (max(1, cols // 4), max(1, rows // 4))
    small = np.asarray(cv2.resize(gray, size, interpolation=cv2.INTER_AREA), np.float32)
    around = cv2.resize(smooth(small, sigma / 4), (cols, rows), interpolation=cv2.INTER_LINEAR)
    return np.asarray(gray / np.maximum(around, 1.0), np.float32)


def _printed_only(layout: Layout, shape: tuple[int, ...], pad: int) -> NDArray[np.bool_]:
    """Where the padded print shows print alone: not on a chip slot, nor on a card's place."""
    mask = np.full(shape[:2], 255, np.uint8)
    for region in layout.regions:
        if isinstance(region.shape, Circle):
            c = region.shape
            cv2.circle(mask, (round(c.cx) + pad, round(c.cy) + pad), round(c.r + 1.0), 0, -1)
        elif region.role == "card":
            assert isinstance(region.shape, Rect)
            box = region.shape.inset(-CARD_MARGIN_MM)
            x0, y0 = round(box.x) + pad, round(box.y) + pad
            x1, y1 = round(box.x + box.w) + pad, round(box.y + box.h) + pad
            cv2.rectangle(mask, (x0, y0), (x1, y1), 0, -1)
    return mask > 0


def _sample(image: Levels, at: NDArray[np.floating[Any]]) -> NDArray[np.float32]:
    """``image`` at the points ``at`` (rows x points x 2, px), bilinearly; -1 outside it."""
    xy = np.asarray(at, np.float32)
    sampled = cv2.remap(
        image,
        np.ascontiguousarray(xy[..., 0]),
        np.ascontiguousarray(xy[..., 1]),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=-1.0,
    )
    return np.asarray(sampled, np.float32)
