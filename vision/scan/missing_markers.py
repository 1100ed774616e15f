"""Where markers the scan's quick search missed may still lie, from the boards it found.

The scan's quick search finds nearly every marker (``vision.scan.marker_search``), and a board
found by any of its markers tells where the rest lie: its other printed markers, and the pieces
(tiles, cards, chips) laid on it. Those places are searched again with OpenCV's full detector,
so a marker the quick search missed there is still found wherever a search of the whole frame
would find it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import Marker
from vision.layout.catalogue import MarkerOwner
from vision.layout.geometry import bounds
from vision.scan.registration import register

# Around where a marker must lie, this much of its side is searched, by how many of the board's
# markers place it: a board placed by two may be a marker's width off at its far corners, and
# one placed by one, whose far end it may tilt, nearly twice that (a Paintings mat: 1.7 sides).
MARKER_MARGIN = {1: 3.0, 2: 1.5}
PLACED_MARGIN = 0.75
# Places on a board that a piece (a tile, card or chip) lies on. One where no piece's marker was
# found is searched whole, and around it this much of its longest side: a piece may lie askew.
HOLDS_PIECES = frozenset({"space", "card", "window", "binder", "slot"})
PLACE_MARGIN = 0.25
LEAST_SIDE_PX = 8.0  # a marker drawn smaller than this cannot be decoded: not looked for


def places_to_search(
    markers: Sequence[Marker], index: Mapping[int, MarkerOwner], width: int, height: int
) -> list[tuple[NDArray[np.float64], float]]:
    """Quads (image px) to search around, each with its margin: where each found board's
    unfound markers must lie, and each place on it for a piece where no piece's marker was
    found. Only quads drawn large enough to hold a marker, whose middle is in the photo."""
    found = {m.id for m in markers}
    registration = register(markers, index)
    piece_centres = np.array(
        [
            np.mean(m.corners, axis=0)
            for m in markers
            if m.id in index and not index[m.id].layout.is_board
        ]
        or np.empty((0, 2)),
        np.float64,
    ).reshape(-1, 2)
    places = []
    for board in registration.boards:
        if not np.isfinite(board.homography).all():
            continue
        margin = MARKER_MARGIN.get(len(board.marker_ids), PLACED_MARGIN)
        for spec in board.layout.markers:
            if spec.id not in found:
                places.append((board.to_image(np.array(spec.rect.corners(), np.float64)), margin))
        for region in board.layout.regions:
            if region.role in HOLDS_PIECES:
                quad = board.to_image(np.array(bounds(region.shape).corners(), np.float64))
                if not _holds_any(quad, piece_centres):
                    places.append((quad, PLACE_MARGIN))
    return [(quad, margin) for quad, margin in places if _in_view(quad, width, height)]


def _in_view(quad: NDArray[np.float64], width: int, height: int) -> bool:
    side = float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min())
    x, y = quad.mean(axis=0)
    return LEAST_SIDE_PX <= side <= max(width, height) and 0 <= x < width and 0 <= y < height


def _holds_any(quad: NDArray[np.float64], points: NDArray[np.float64]) -> bool:
    contour = quad.astype(np.float32).reshape(-1, 1, 2)
    return any(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in points)
