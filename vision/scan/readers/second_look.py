"""A second look for a piece whose marker the search over the whole frame did not decode.

Blur, a steep view or a small marker can leave a marker's cells unreadable to the decoder, which
must first find the square's outline and then threshold every cell on its own. Where a place
shows no decoded piece, the piece's marker is looked for where the board says it must lie (the
place's centre, give or take how far a piece strays and turns): the frame every marker has, a
white ring around a black border, is matched there, which blur barely changes. Its 36 cells are
then compared, as grey levels, with the code of every piece of the kind that could lie there (not
one already seen in the frame) in each of the four turns. A piece is named only when one code
and turn correlates clearly better than any other: a blurred marker still correlates with its
own code far better than with the next (codes of the family differ in at least 11 cells in every
turn), while no marker at all matches any of them clearly. A marker partly under a hand may still
match its own code best, or another's: a code is only taken when every half of the marker shows
it as plainly as the whole does.

The same comparison names markers anywhere in the photo whose square outline the detector found
but whose cells it could not decode (``Rescue``): there the outline itself says where the cells
are, so a board none of whose markers were decoded can still be found.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import ATELIER_DICTIONARY, Marker, predefined_dictionary
from vision.images import Image, to_gray
from vision.layout.catalogue import marker_index
from vision.layout.geometry import Shape, bounds
from vision.layout.ids import PIECE_MARKER_MM
from vision.layout.model import Layout
from vision.scan.context import BoardContext, PieceOnBoard, piece_on_board
from vision.scan.homography import project, scale_shift
from vision.scan.refine import uncertainty_mm
from vision.scan.registration import Sighting

STRAY_MM = 7.0  # a piece's marker may lie this far from where a well placed piece has it...
TURN_DEG = 12.0  # ...turned this much (a piece turned further is refused as off square anyway)
REACH_FACTOR = 2.5  # ...and further by this many times the board's own uncertainty there
# The frame is matched in stages, each around the last one's best match: (step, span) in mm and
# in degrees. The first stage spans the whole reach, in steps of 1.5 mm or a sixth of the reach,
# whichever is longer.
STAGES = ((1.5, 0.0, 6.0, TURN_DEG), (0.5, 1.5, 2.0, 6.0), (0.2, 0.5, 0.5, 2.0))
COARSE_STEPS = 6
RING_MM = 1.0  # the middle of the white ring, outside the marker's edge...
BORDER_MM = 1.5  # ...and of its black border, inside it
SIDE_SAMPLES = 12
MIN_FRAME = 0.2  # a marker's black border is at least this much darker than its ring (a share)
CELL_PX = 8  # cells are compared at this size
# A code names a marker when it correlates with the cells this well, this far ahead of every
# other code and turn, and both together by at least MIN_CLEAR (on 3,600 hard photos of the
# four games, 886 wrong codes were a best match: none scored 0.65 with a lead of 0.2, and
# score plus lead never reached 0.88; small markers in plain view, blurred to cells of 3 px,
# scored 0.69-0.76 with leads of 0.2-0.26); and when each half of the marker shows at least
# this share of the code's contrast over the whole (half a marker under a hand shows about 0.2,
# a blurred one in view at least 0.54). An outline the detector found must also have a border
# at least this share of the way from the code's white to its black.
MIN_SCORE = 0.65
MIN_MARGIN = 0.2
MIN_CLEAR = 0.92
MIN_EVEN = 0.4
MIN_BORDER = 0.5
# A board seen by few of its markers may be off by this many times its estimated RMS error (lens
# distortion is not in the estimate): where that could put a piece on the next place, no piece
# is read (nor searched for: the search's reach stays well short of the next place's marker).
UNSURE_FACTOR = 3.0
PLACED_MM = 4.0  # how far a piece may lie from its place's centre
MIN_OUTLINE_PX = 16.0  # an outline smaller than this has cells under 2 px: nothing to read
SUBPIX_WINDOW = (5, 5)  # as the detector refines the corners of the markers it decodes
SUBPIX_STOP = (cv2.TERM_CRITERIA_MAX_ITER | cv2.TERM_CRITERIA_EPS, 30, 0.1)

UNPLACED = "the board's markers seen are too few to tell which place a piece lies on"

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Candidate:
    layout: Layout
    marker_id: int
    code: NDArray[np.float32]  # the 6 x 6 data cells, zero mean and unit variance


def _bits(marker_id: int) -> NDArray[np.float32]:
    """A marker's 6 x 6 data cells, 1 for white."""
    dictionary = predefined_dictionary(ATELIER_DICTIONARY).aruco
    return np.asarray(
        cv2.aruco.Dictionary.getBitsFromByteList(
            dictionary.bytesList[marker_id : marker_id + 1], int(dictionary.markerSize)
        ),
        np.float32,
    )


@dataclass(frozen=True)
class Codes:
    """Candidates, with their codes stacked to compare cells with them all at once."""

    candidates: tuple[Candidate, ...]
    stacked: NDArray[np.float32]  # N x 36

    @classmethod
    def printed_on(cls, wanted: Callable[[Layout], bool]) -> Codes:
        """Every marker printed on a component that ``wanted`` accepts."""
        candidates = tuple(
            Candidate(owner.layout, marker_id, _normalised(_bits(marker_id)))
            for marker_id, owner in sorted(marker_index().items())
            if wanted(owner.layout)
        )
        return cls(candidates, np.stack([c.code.ravel() for c in candidates]))

    def where(self, keep: Callable[[Candidate], bool]) -> Codes:
        kept = np.array([keep(c) for c in self.candidates], bool)
        return Codes(
            tuple(c for c, k in zip(self.candidates, kept, strict=True) if k), self.stacked[kept]
        )


@dataclass(frozen=True)
class Found:
    """A piece named by its marker's cells, with how clearly."""

    piece: PieceOnBoard
    score: float  # correlation of the cells with the piece's code
    margin: float  # ahead of the next best code and turn

    @property
    def confidence(self) -> float:
        return min(0.95, self.score)


def _normalised(values: NDArray[np.float32]) -> NDArray[np.float32]:
    spread = float(values.std())
    return np.asarray((values - values.mean()) / max(spread, 1e-6), np.float32)


def _side_points(inward: float) -> Array:
    """Points along the four sides of a marker centred on the origin, ``inward`` mm inside."""
    m = PIECE_MARKER_MM
    t = (np.linspace(0.1, 0.9, SIDE_SAMPLES) - 0.5) * m
    edge = m / 2 - inward
    sides = [
        np.stack([t, np.full_like(t, -edge)], 1),
        np.stack([np.full_like(t, edge), t], 1),
        np.stack([-t, np.full_like(t, edge)], 1),
        np.stack([np.full_like(t, -edge), -t], 1),
    ]
    return np.concatenate(sides)


RING = _side_points(-RING_MM)
BORDER = _side_points(BORDER_MM)
SQUARE = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * PIECE_MARKER_MM / 2


def _turned(points: Array, turns: Array, local: Array) -> tuple[Array, Array]:
    """``points`` (N x 2 mm, about the origin) turned by each of ``turns`` and mapped by the
    2 x 2 ``local`` map into image pixels: x and y offsets, each T x N."""
    cos, sin = np.cos(turns)[:, None], np.sin(turns)[:, None]
    x = cos * points[None, :, 0] - sin * points[None, :, 1]
    y = sin * points[None, :, 0] + cos * points[None, :, 1]
    return local[0, 0] * x + local[0, 1] * y, local[1, 0] * x + local[1, 1] * y


def _frame(
    gray: NDArray[np.float32], to_image: Array, centre: Array, reach: float
) -> tuple[Array, float] | None:
    """Where (board mm: centre and turn) a marker's frame best matches within ``reach`` of
    ``centre``: its white ring brightest against its black border. None when even the best
    match shows no such frame (the place is covered, or holds no marker)."""
    # Over a marker's size the board's homography is as good as affine: one 2 x 2 map.
    at = project(to_image, centre + np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    local = np.stack([at[1] - at[0], at[2] - at[0]], 1)
    best_centre, best_turn = centre, 0.0
    for stage, (step_mm, span_mm, step_deg, span_deg) in enumerate(STAGES):
        if stage == 0:
            step_mm, span_mm = max(step_mm, reach / COARSE_STEPS), reach
        # The first, widest stage only needs every other point along the sides.
        every = 2 if stage == 0 else 1
        steps = np.arange(-span_mm, span_mm + 1e-9, step_mm)
        shifts = np.stack([g.ravel() for g in np.meshgrid(steps, steps, indexing="ij")], 1)
        turns = np.radians(np.arange(-span_deg, span_deg + 1e-9, step_deg)) + best_turn
        where = at[0] + (best_centre - centre + shifts) @ local.T  # S x 2, image px
        grey = []
        for points in (RING[::every], BORDER[::every]):
            dx, dy = _turned(points, turns, local)
            xs = (where[:, :1] + dx.reshape(1, -1)).astype(np.float32)  # S x (T N)
            ys = (where[:, 1:] + dy.reshape(1, -1)).astype(np.float32)
            seen = cv2.remap(gray, xs, ys, cv2.INTER_LINEAR)
            grey.append(seen.reshape(len(shifts), len(turns), -1).mean(axis=2))
        ring, border = grey
        shift, turn = np.unravel_index(int(np.argmax(ring - border)), ring.shape)
        if ring[shift, turn] - border[shift, turn] < MIN_FRAME * ring[shift, turn]:
            return None
        best_centre = best_centre + shifts[shift]
        best_turn = float(turns[turn])
    return best_centre, best_turn


def _grid(gray: NDArray[np.float32], quad: Array) -> NDArray[np.float32]:
    """The mean grey of the central half of each of the marker's 8 x 8 cells (its black border
    around the 6 x 6 data cells), the quad's first corner taken as the marker's top-left."""
    side = 8 * CELL_PX
    # Pixel centres sit half a pixel in from the square's edge, so that turning the quad's
    # corners turns the cells exactly.
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) - 0.5
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    face = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR)
    cells = face.reshape(8, CELL_PX, 8, CELL_PX)
    core = cells[:, CELL_PX // 4 : 3 * CELL_PX // 4, :, CELL_PX // 4 : 3 * CELL_PX // 4]
    return np.asarray(core.mean(axis=(1, 3)), np.float32)


@dataclass(frozen=True)
class Match:
    """The code and turn that best match a quad's cells."""

    candidate: Candidate
    quad: Array  # turned so that its first corner is the marker's top-left
    score: float  # correlation of the cells with the code
    margin: float  # ahead of the next best code and turn
    cells: NDArray[np.float32]  # the 6 x 6 data cells' grey, turned as the code
    ring: NDArray[np.float32]  # the grey of the 28 cells of the black border around them

    @property
    def even(self) -> float:
        """The code's contrast in the half of the marker that shows least of it, as a share of
        its contrast over the whole: a marker partly covered (by a hand, a cup, the next card)
        shows its code in part only."""
        code = self.candidate.code
        halves = (np.s_[:3], np.s_[3:], np.s_[:, :3], np.s_[:, 3:])
        least = min(_contrast(self.cells[h], code[h]) for h in halves)
        return least / max(_contrast(self.cells, code), 1e-6)

    @property
    def border(self) -> float:
        """How dark the border is, as a share of the way from the code's white to its black."""
        white = float(self.cells[self.candidate.code > 0].mean())
        return (white - float(self.ring.mean())) / max(
            _contrast(self.cells, self.candidate.code), 1e-6
        )

    @property
    def clear(self) -> bool:
        return (
            self.score >= MIN_SCORE
            and self.margin >= MIN_MARGIN
            and self.score + self.margin >= MIN_CLEAR
            and self.even >= MIN_EVEN
        )


def _contrast(cells: NDArray[np.float32], code: NDArray[np.float32]) -> float:
    """How much brighter the cells the code has white are than those it has black."""
    white, black = cells[code > 0], cells[code < 0]
    if len(white) == 0 or len(black) == 0:
        return float("inf")  # one colour only: says nothing
    return float(white.mean() - black.mean())


def _best_code(gray: NDArray[np.float32], quad: Array, allowed: Codes) -> Match | None:
    """The code and turn that best match the quad's cells."""
    if len(allowed.candidates) == 0:
        return None
    grid = _grid(gray, quad)
    cells = _normalised(grid[1:7, 1:7])
    # Taking the quad's k-th corner as the top-left turns the cells by k quarter turns.
    seen = np.stack([np.rot90(cells, k).ravel() for k in range(4)])  # 4 x 36
    scores = (seen @ allowed.stacked.T / seen.shape[1]).ravel()
    order = np.argsort(scores)[::-1]
    first = int(order[0])
    margin = float(scores[first] - scores[order[1]]) if len(order) > 1 else float(scores[first])
    turn, index = divmod(first, len(allowed.candidates))
    return Match(
        allowed.candidates[index],
        np.roll(quad, -turn, axis=0),
        float(scores[first]),
        margin,
        np.rot90(grid[1:7, 1:7], turn),
        np.concatenate([grid[0], grid[7], grid[1:7, 0], grid[1:7, 7]]),
    )


class SecondLook:
    """Names a piece of one kind lying on a place from its marker's cells."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.codes = Codes.printed_on(lambda layout: layout.kind == kind)
        # Every piece of a kind carries its marker in the same place.
        owner = marker_index()[self.codes.candidates[0].marker_id]
        w, h = owner.layout.size
        mx, my = owner.marker.rect.centre
        self._offset = np.array([mx - w / 2, my - h / 2])

    def find(self, ctx: BoardContext, shape: Shape) -> Found | None:
        """The piece lying upright on ``shape`` (board mm), if its marker's cells name it
        clearly. Callers first make sure the place is known well enough to look there
        (``placed_well``): they report it unplaced, not as no piece."""
        centre = np.array(bounds(shape).centre) + self._offset
        reach = STRAY_MM + REACH_FACTOR * uncertainty_mm(ctx.board, (centre[0], centre[1]))
        # The search, and the marker's frame around it, stay within this much of the centre.
        window = reach + PIECE_MARKER_MM
        corners = ctx.board.to_image(SQUARE / (PIECE_MARKER_MM / 2) * window + centre)
        height, width = ctx.image.shape[:2]
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, (width, height))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        gray = to_gray(ctx.image[y0:y1, x0:x1]).astype(np.float32)
        to_crop = scale_shift(1.0, -x0, -y0) @ ctx.board.homography
        frame = _frame(gray, to_crop, centre, reach)
        if frame is None:
            return None
        found_centre, turn = frame
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        quad = project(to_crop, SQUARE @ rotation.T + found_centre)
        seen = {p.layout.key for p in ctx.pieces}
        match = _best_code(gray, quad, self.codes.where(lambda c: c.layout.key not in seen))
        if match is None or not match.clear:
            return None
        sighting = _sighting(match.candidate, match.quad + np.array([x0, y0]))
        return Found(piece_on_board(sighting, ctx.board), match.score, match.margin)


def placed_well(ctx: BoardContext, shape: Shape) -> bool:
    """Whether the board is known well enough at ``shape`` (a place on it) to tell a piece lying
    there from one on the next place."""
    unsure = uncertainty_mm(ctx.board, bounds(shape).centre)
    return UNSURE_FACTOR * unsure + PLACED_MM < _next_place_mm(ctx.board.layout, shape) / 2


def _next_place_mm(layout: Layout, shape: Shape) -> float:
    """How far the nearest other place like ``shape`` (a region of the same role) lies from it,
    centre to centre."""
    roles = {r.role for r in layout.regions if r.shape == shape}
    here = np.array(bounds(shape).centre)
    others = [
        np.linalg.norm(np.array(bounds(r.shape).centre) - here)
        for r in layout.regions
        if r.role in roles and r.shape != shape
    ]
    return float(min(others, default=np.inf))


def _sighting(candidate: Candidate, quad_px: Array) -> Sighting:
    marker = next(m for m in candidate.layout.markers if m.id == candidate.marker_id)
    src = np.array(marker.rect.corners(), np.float32)
    homography = cv2.getPerspectiveTransform(src, quad_px.astype(np.float32))
    return Sighting(
        candidate.layout, np.asarray(homography, np.float64), (candidate.marker_id,), 0.0
    )


class Rescue:
    """Names markers of some kinds of component whose outline the detector found but whose
    cells it could not decode."""

    def __init__(self, kinds: Collection[tuple[str, str]]) -> None:
        self.codes = Codes.printed_on(lambda layout: (layout.game, layout.kind) in kinds)
        self.dictionary = predefined_dictionary(ATELIER_DICTIONARY).name

    def markers(
        self, gray: Image, outlines: Sequence[Array], decoded: Collection[int]
    ) -> list[Marker]:
        """The markers named clearly among ``outlines`` (px of the grey photo), none of them a
        marker already ``decoded`` and none named twice in different places."""
        allowed = self.codes.where(lambda c: c.marker_id not in decoded)
        named: dict[int, list[tuple[float, Array]]] = {}
        for outline in outlines:
            match = _named(gray, outline, allowed)
            if match is not None:
                named.setdefault(match.candidate.marker_id, []).append((match.score, match.quad))
        found = []
        for marker_id, sightings in sorted(named.items()):
            centres = np.array([quad.mean(axis=0) for _, quad in sightings])
            # Two outlines of one marker (its outer and inner edge) agree; two markers with
            # one id cannot both be the printed one.
            if np.ptp(centres, axis=0).max() > min(_side(q) for _, q in sightings) / 2:
                continue
            quad = max(sightings, key=lambda s: s[0])[1].astype(np.float32).reshape(-1, 1, 2)
            corners = cv2.cornerSubPix(gray, quad, SUBPIX_WINDOW, (-1, -1), SUBPIX_STOP)
            found.append(
                Marker(
                    marker_id,
                    self.dictionary,
                    tuple((float(x), float(y)) for x, y in corners[:, 0]),
                )
            )
        return found


def _side(quad: Array) -> float:
    """The shortest side of a quad (px)."""
    return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min())


def _named(gray: Image, outline: Array, allowed: Codes) -> Match | None:
    """The match of an outline's cells when it is clear (its quad in the photo's px)."""
    if _side(outline) < MIN_OUTLINE_PX:
        return None
    height, width = gray.shape[:2]
    x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 2, (width, height))
    offset = np.array([x0, y0], np.float64)
    match = _best_code(gray[y0:y1, x0:x1].astype(np.float32), outline - offset, allowed)
    # The detector's outline, unlike the frame the second look matches, may follow any dark
    # square: its border must be as dark as a marker's.
    if match is None or not match.clear or match.border < MIN_BORDER:
        return None
    return replace(match, quad=match.quad + offset)
