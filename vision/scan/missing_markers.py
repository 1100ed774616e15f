"""Where markers the scan's quick search missed may still lie, from what it found.

The scan's quick search finds nearly every marker (``vision.scan.marker_search``), and a board
found by any of its markers tells where the rest lie: its other printed markers, and the pieces
(tiles, cards, chips) laid on it; a piece found on no board tells that its board lies near.
Those places are searched again with OpenCV's full detector, so a marker the quick search
missed there is still found wherever a search of the whole frame would find it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import Marker
from vision.layout.catalogue import MarkerOwner
from vision.layout.geometry import bounds
from vision.scan.marker_search import Place
from vision.scan.registration import register

# Around where a marker must lie, this much of its side is searched: a board placed by one or
# two markers may be tilted (a Paintings mat's far corner marker lay 2 of its sides from where
# two put it), one placed by three or four hardly.
LOOSELY_PLACED_MARGIN = 3.0
PLACED_MARGIN = 0.75
PLACED_BY = 3
# All around a board seen by one marker this much of its longest side is searched, and around a
# piece on no board found, of the longest side of its game's boards: one marker places a board
# too loosely to say where the rest lies (an Isle sheet's far corner was put 330 px from where it
# lay). A little more than the side, for perspective.
ONE_MARKER_REACH = 1.25
# Places on a board that a piece (a tile, card or chip) lies on. One where no piece's marker was
# found is searched whole, and around it this much of its longest side: a piece may lie askew.
HOLDS_PIECES = frozenset({"space", "card", "window", "binder", "slot"})
PLACE_MARGIN = 0.25
LEAST_SIDE_PX = 8.0  # a marker drawn smaller than this cannot be decoded: not looked for


def places_to_search(
    markers: Sequence[Marker], index: Mapping[int, MarkerOwner], width: int, height: int
) -> list[Place]:
    """Quads (image px) to search around, each with its margin: where each found board's
    unfound markers must lie, each place on it for a piece where no piece's marker was found,
    and all around a board seen by one marker or a piece on no board found. Only quads drawn
    large enough to hold a marker, whose middle is in the photo."""
    corners = {m.id: np.array(m.corners, np.float64) for m in markers}
    pieces = [m for m in markers if m.id in index and not index[m.id].layout.is_board]
    piece_centres = [np.mean(m.corners, axis=0) for m in pieces]
    boards = [b for b in register(markers, index).boards if np.isfinite(b.homography).all()]
    places = []
    outlines = [b.to_image(np.array(b.layout.outline.corners(), np.float64)) for b in boards]
    for piece, centre in zip(pieces, piece_centres, strict=True):
        if not any(_inside(outline, centre) for outline in outlines):
            owner = index[piece.id]
            side = max(owner.marker.rect.w, owner.marker.rect.h)
            largest = _largest_board(index, owner.layout.game)
            places.append((corners[piece.id], ONE_MARKER_REACH * largest / side))
    for board in boards:
        if len(board.marker_ids) == 1:
            (only,) = board.marker_ids
            spec = next(m for m in board.layout.markers if m.id == only)
            reach = ONE_MARKER_REACH * max(board.layout.size) / max(spec.rect.w, spec.rect.h)
            places.append((corners[only], reach))
        placed = len(board.marker_ids) >= PLACED_BY
        margin = PLACED_MARGIN if placed else LOOSELY_PLACED_MARGIN
        for spec in board.layout.markers:
            if spec.id not in corners:
                places.append((board.to_image(np.array(spec.rect.corners(), np.float64)), margin))
        for region in board.layout.regions:
            if region.role in HOLDS_PIECES:
                quad = board.to_image(np.array(bounds(region.shape).corners(), np.float64))
                if not any(_inside(quad, centre) for centre in piece_centres):
                    places.append((quad, PLACE_MARGIN))
    return [(quad, margin) for quad, margin in places if _in_view(quad, width, height)]


def _largest_board(index: Mapping[int, MarkerOwner], game: str) -> float:
    """The longest side (mm) of any board of ``game``."""
    return max(
        max(o.layout.size) for o in index.values() if o.layout.is_board and o.layout.game == game
    )


def _in_view(quad: NDArray[np.float64], width: int, height: int) -> bool:
    side = float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min())
    x, y = quad.mean(axis=0)
    return LEAST_SIDE_PX <= side <= max(width, height) and 0 <= x < width and 0 <= y < height


def _inside(quad: NDArray[np.float64], point: NDArray[np.float64]) -> bool:
    contour = quad.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0
