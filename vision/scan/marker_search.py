"""The scan's search for markers: quick where there is nothing, thorough where there is something.

OpenCV's detector thresholds the whole frame with three window sizes (3, 13 and 23 px) and traces
every contour of each. On a noisy 1080p photo that is tens of thousands of contours per window,
nearly all of them grain: most of the time goes there. Any one window finds nearly every marker,
but each misses some the others find (docs/fiducials.md), and a missed marker can be a whole
board missed.

So the frame is searched twice quickly: with one window at full size, and with one window at half
size (averaging four pixels into one smooths the grain that defeats the first). Neither is
trusted alone. Around every marker either finds, and every outline either traces that may be
one, a piece of the photo is searched again with OpenCV's three windows. The detector looks only
a few pixels around any point, so in a piece a little larger than the marker it finds what a
search of the whole frame finds there: the same markers and the same undecoded outlines. The
scan then looks the same way wherever the boards found say more markers may lie
(``vision.scan.missing_markers``), which finds what both quick searches missed.

The pieces are searched without refinement, and the corners are refined in the whole photo with
the window OpenCV sizes there: the corners are then those of a search of the whole frame, to the
bit (OpenCV sizes the window from the image it refines in).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import Marker, MarkerDictionary, default_parameters
from vision.images import Image

Quad = NDArray[np.float64]

# One window each for the two quick searches: 13 px at full size, 7 px at half size (where a
# 13 px window would span as much of a marker as 26 px at full size). At full size, a pixel
# counts as dark 11 levels under its surroundings rather than OpenCV's 7: grain then traces far
# fewer contours, and the half-size search, where averaging has smoothed the grain, keeps 7.
# (With 11 or 13 the scan found the very markers of a full search on 1,746 rendered tables;
# 11 leaves a margin.)
FULL_WINDOW_PX = 13
FULL_CONSTANT = 11.0
HALF_WINDOW_PX = 7
HALF_CONSTANT = 7.0
# Around a place found quickly, this much of its longest side is searched too; never less than
# GUARD_PX, which the widest window (23 px) needs to see around a marker as in the whole frame.
MARGIN = 0.75
GUARD_PX = 12
# Outlines the quick searches trace are looked at again only within a marker's plausible size:
# from the least the scan can name (the second look's limit) to a little over the largest
# marker found. Where none is found, every outline is: markers blurred past decoding may still
# be named by their cells, and they may be of any size.
LEAST_OUTLINE_PX = 16.0
LARGEST_OVER_FOUND = 1.5


@dataclass(frozen=True)
class Piece:
    """A rectangle of the photo to search again (px; x1, y1 exclusive)."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def area(self) -> int:
        return (self.x1 - self.x0) * (self.y1 - self.y0)

    def join(self, other: Piece) -> Piece:
        """The smallest piece holding both."""
        return Piece(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )

    def well_inside(self, quad: Quad, width: int, height: int) -> bool:
        """Whether ``quad`` (piece px) lies far enough from every edge of the piece that is not
        an edge of the photo for the detector to see it as in the whole frame."""
        lo, hi = quad.min(axis=0), quad.max(axis=0)
        return bool(
            (self.x0 == 0 or lo[0] >= GUARD_PX)
            and (self.y0 == 0 or lo[1] >= GUARD_PX)
            and (self.x1 == width or hi[0] <= self.x1 - self.x0 - GUARD_PX)
            and (self.y1 == height or hi[1] <= self.y1 - self.y0 - GUARD_PX)
        )


class MarkerSearch:
    """Finds the markers and undecoded outlines OpenCV's default detector would find in a grey
    photo, for a fraction of its time on noisy frames."""

    def __init__(self, dictionary: MarkerDictionary) -> None:
        self.dictionary = dictionary
        self._defaults = default_parameters()
        family = dictionary.aruco
        self._full = cv2.aruco.ArucoDetector(family, _one_window(FULL_WINDOW_PX, FULL_CONSTANT))
        self._half = cv2.aruco.ArucoDetector(family, _one_window(HALF_WINDOW_PX, HALF_CONSTANT))
        self._pieces = cv2.aruco.ArucoDetector(family, _unrefined())
        self._cells = dictionary.bits + 2  # a marker's side in cells, its black border included

    def detect_with_rejected(self, gray: Image) -> tuple[list[Marker], list[Quad]]:
        """The markers found (sorted by id), and the square outlines found but not decoded (each
        4 x 2 px, clockwise), as ``MarkerDetector.detect_with_rejected`` gives them."""
        return self.look_around(gray, [(quad, MARGIN) for quad in self._places(gray)])

    def look_around(
        self, gray: Image, places: Sequence[tuple[Quad, float]]
    ) -> tuple[list[Marker], list[Quad]]:
        """The markers (sorted by id) and undecoded outlines a search of the whole frame would
        find around each quad, as far as its margin (a share of its longest side)."""
        height, width = gray.shape[:2]
        found: dict[int, NDArray[np.float32]] = {}
        outlines: dict[bytes, Quad] = {}
        pieces = [_piece(quad, margin, width, height) for quad, margin in places]
        for piece in _joined([p for p in pieces if p is not None]):
            corners, ids, rejected = self._search_piece(gray, piece, width, height)
            for marker_id, unrefined in zip(ids, corners, strict=True):
                if marker_id not in found:
                    found[marker_id] = self._refined(gray, unrefined)
            for outline in rejected:
                outlines.setdefault(outline.tobytes(), outline)
        markers = [
            Marker(marker_id, self.dictionary.name, tuple((float(x), float(y)) for x, y in corners))
            for marker_id, corners in sorted(found.items())
        ]
        return markers, list(outlines.values())

    def _places(self, gray: Image) -> list[Quad]:
        """Where the two quick searches found a marker (the pieces' search names it again) or
        traced an outline of a marker's size."""
        height, width = gray.shape[:2]
        corners, _, rejected = self._full.detectMarkers(gray)
        small = cv2.resize(gray, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
        small_corners, _, small_rejected = self._half.detectMarkers(small)
        # A pixel of the half-size frame covers two of the full one: its centre lies at 2x + 0.5.
        markers = [_quad(q) for q in corners] + [2.0 * _quad(q) + 0.5 for q in small_corners]
        traced = [_quad(q) for q in rejected] + [2.0 * _quad(q) + 0.5 for q in small_rejected]
        sides = [_sides(q).max() for q in markers]
        largest = LARGEST_OVER_FOUND * max(sides) if sides else float(max(width, height))
        plausible = [
            q for q in traced if _sides(q).min() >= LEAST_OUTLINE_PX and _sides(q).max() <= largest
        ]
        return markers + plausible

    def _search_piece(
        self, gray: Image, piece: Piece, width: int, height: int
    ) -> tuple[list[NDArray[np.float32]], list[int], list[Quad]]:
        """Unrefined corners and ids of the markers found in ``piece``, and its undecoded
        outlines, in photo px: only those the piece shows as the whole frame would."""
        params = self._pieces.getDetectorParameters()
        # The whole frame's least perimeter, in px, as a share of this piece's longer side.
        least = self._defaults.minMarkerPerimeterRate * max(width, height)
        params.minMarkerPerimeterRate = least / max(piece.x1 - piece.x0, piece.y1 - piece.y0)
        self._pieces.setDetectorParameters(params)
        window = gray[piece.y0 : piece.y1, piece.x0 : piece.x1]
        corners, ids, rejected = self._pieces.detectMarkers(window)
        offset = np.array([piece.x0, piece.y0], np.float32)
        kept_corners, kept_ids = [], []
        if ids is not None:
            for quad, marker_id in zip(corners, ids.ravel(), strict=True):
                local = quad.reshape(4, 2)
                if piece.well_inside(local.astype(np.float64), width, height):
                    kept_corners.append(local + offset)
                    kept_ids.append(int(marker_id))
        outlines = [
            _quad(q) + offset.astype(np.float64)
            for q in rejected
            if piece.well_inside(_quad(q), width, height)
        ]
        return kept_corners, kept_ids, outlines

    def _refined(self, gray: Image, corners: NDArray[np.float32]) -> NDArray[np.float32]:
        """``corners`` refined to sub-pixel precision in the whole photo with the window OpenCV's
        detector sizes there: a share of the marker's cell, within a limit."""
        params = self._defaults
        cell = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())
        window = min(
            params.cornerRefinementWinSize,
            max(1, round(params.relativeCornerRefinmentWinSize * cell / self._cells)),
        )
        criteria = (
            cv2.TERM_CRITERIA_MAX_ITER | cv2.TERM_CRITERIA_EPS,
            params.cornerRefinementMaxIterations,
            params.cornerRefinementMinAccuracy,
        )
        refined = cv2.cornerSubPix(
            gray, corners.reshape(-1, 1, 2).copy(), (window, window), (-1, -1), criteria
        )
        return np.asarray(refined, np.float32).reshape(4, 2)


def _joined(pieces: Sequence[Piece]) -> list[Piece]:
    """``pieces``, any two joined into one wherever a piece holding both is no larger than the
    two together: each search has a cost of its own, and overlapping ones search pixels twice."""
    joined: list[Piece] = []
    for piece in pieces:
        while True:
            for k, other in enumerate(joined):
                both = other.join(piece)
                if both.area <= other.area + piece.area:
                    piece = both
                    del joined[k]
                    break
            else:
                break
        joined.append(piece)
    return joined


def _piece(quad: Quad, margin: float, width: int, height: int) -> Piece | None:
    """The piece of the photo around ``quad``, or None where too little of it lies in the photo
    to hold a marker."""
    side = float(_sides(quad).max())
    reach = max(margin * side, float(GUARD_PX))
    x0, y0 = np.floor(quad.min(axis=0) - reach).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + reach).astype(int) + 1
    piece = Piece(max(int(x0), 0), max(int(y0), 0), min(int(x1), width), min(int(y1), height))
    if piece.x1 - piece.x0 < side or piece.y1 - piece.y0 < side:
        return None
    return piece


def _one_window(window_px: int, constant: float) -> Any:
    """The defaults with one threshold window and no refinement: a quick first look."""
    params = _unrefined()
    params.adaptiveThreshWinSizeMin = window_px
    params.adaptiveThreshWinSizeMax = window_px
    params.adaptiveThreshConstant = constant
    return params


def _unrefined() -> Any:
    params = default_parameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return params


def _quad(points: Any) -> Quad:
    return np.asarray(points, np.float64).reshape(4, 2)


def _sides(quad: Quad) -> NDArray[np.float64]:
    return np.asarray(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1), np.float64)
