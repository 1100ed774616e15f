"""A closer look where a board's markers must lie.

A frame is first searched with one adaptive-threshold window, which is quick and finds nearly
every marker (see ``vision.fiducials``), but places a blurred marker's corners up to 2 px
from where OpenCV's three windows would. A board seen by three or four markers is placed well
all the same: their corners are fitted together, and one that is off is left out. A board seen
by one or two is placed by their corners alone, and the far side of a sheet may then miss its
grid. Where such a board has its corner markers, each place is searched again with the three
windows: that finds a marker the quick search missed (a blurred one, as often as not) and places
every corner as a search of the whole frame would, for a small share of its cost.

OpenCV refines a marker's corners with a window it sizes from the image it searched, so a
marker found in a piece of the photo is placed a little differently (up to 2 px where blur
softens it) from the same marker found in the whole photo. So the pieces are searched without
refinement, which finds the very corners a search of the whole photo starts from, and the
corners are refined in the whole photo, as OpenCV does there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import Marker, MarkerDetector, MarkerDictionary, default_parameters
from vision.images import Image
from vision.layout.catalogue import MarkerOwner
from vision.scan.registration import register

# Around where a marker must lie, this much of its side is searched too: a board placed by two
# markers may be a marker's width off at its far corners. Around a marker found already, a
# little: enough for the widest threshold window to see its surroundings as in the whole photo.
UNSEEN_MARGIN = 1.5
SEEN_MARGIN = 0.5
LEAST_SIDE_PX = 8.0  # a marker drawn smaller than this cannot be decoded: not looked for
# Outlines in a searched piece less than this share of the marker's expected size are grain or
# the marker's own cells: not examined (a search of the whole photo skips them by its size).
LEAST_OUTLINE = 0.5
# A board seen by this many markers is placed well: their corners are fitted together, and any
# one that is off is left out.
PLACED_BY = 3


class CloserLook:
    """Searches again, with every threshold window, where boards seen by few markers have
    their corner markers."""

    def __init__(self, dictionary: MarkerDictionary) -> None:
        self._refinement = default_parameters()
        self._detectors = {
            margin: MarkerDetector(dictionary, _unrefined(margin))
            for margin in (SEEN_MARGIN, UNSEEN_MARGIN)
        }
        self._cells = dictionary.bits + 2  # a marker's side in cells, its black border included

    def markers(
        self, gray: Image, markers: Sequence[Marker], index: Mapping[int, MarkerOwner]
    ) -> list[Marker]:
        """``markers`` (found in ``gray``), with the corner markers of each board seen by fewer
        than PLACED_BY of them found again, or for the first time, where each must lie."""
        found = {m.id: m for m in markers}
        h, w = gray.shape[:2]
        for board in register(markers, index).boards:
            if len(board.marker_ids) >= PLACED_BY or not np.isfinite(board.homography).all():
                continue
            for spec in board.layout.markers:
                seen = found.get(spec.id)
                if seen is None:
                    quad = board.to_image(np.array(spec.rect.corners(), np.float64))
                else:
                    quad = np.array(seen.corners, np.float64)
                side = float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).max())
                if not LEAST_SIDE_PX <= side <= max(h, w):
                    continue
                margin = UNSEEN_MARGIN if seen is None else SEEN_MARGIN
                x0, y0 = np.floor(quad.min(axis=0) - margin * side).astype(int)
                x1, y1 = np.ceil(quad.max(axis=0) + margin * side).astype(int)
                x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
                if x1 - x0 < side or y1 - y0 < side:
                    continue  # the marker lies (mostly) outside the photo
                for marker in self._detectors[margin].detect(gray[y0:y1, x0:x1]):
                    if marker.id == spec.id:
                        corners = np.array(marker.corners, np.float32) + np.array(
                            [x0, y0], np.float32
                        )
                        placed = tuple(
                            (float(x), float(y)) for x, y in self._refined(gray, corners)
                        )
                        found[marker.id] = Marker(marker.id, marker.dictionary, placed)
        return sorted(found.values(), key=lambda m: m.id)

    def _refined(self, gray: Image, corners: NDArray[np.float32]) -> NDArray[np.float32]:
        """``corners`` refined to sub-pixel precision in the whole photo, with the window
        OpenCV's detector sizes there: a share of the marker's cell, within a limit."""
        params = self._refinement
        cell = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())
        cell /= self._cells
        window = min(
            params.cornerRefinementWinSize,
            max(1, round(params.relativeCornerRefinmentWinSize * cell)),
        )
        criteria = (
            cv2.TERM_CRITERIA_MAX_ITER | cv2.TERM_CRITERIA_EPS,
            params.cornerRefinementMaxIterations,
            params.cornerRefinementMinAccuracy,
        )
        refined = cv2.cornerSubPix(
            gray, corners.reshape(-1, 1, 2), (window, window), (-1, -1), criteria
        )
        return np.asarray(refined, np.float32).reshape(4, 2)


def _unrefined(margin: float) -> Any:
    """Detector parameters for a piece reaching ``margin`` of a marker's side around it: corners
    not refined, and outlines far smaller than the marker not examined."""
    params = default_parameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    # The rate is of the piece's longer side, about (1 + 2 margin) marker sides.
    params.minMarkerPerimeterRate = LEAST_OUTLINE * 4.0 / (1.0 + 2.0 * margin)
    return params
