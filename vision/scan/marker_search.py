"""The scan's search for markers: quick where there is nothing, thorough where there is something.

OpenCV's detector thresholds the whole frame with three window sizes (3, 13 and 23 px) and traces
every contour of each. On a noisy 1080p photo that is tens of thousands of contours per window,
nearly all of them grain: most of the time goes there.

So the frame is first searched quickly: shrunk to half size (averaging four pixels into one
smooths the grain, and leaves a quarter of the pixels), with one window. That search is not
trusted to find or place anything. Around every marker it finds, and every outline it traces that
may be one, a piece of the photo is searched again at full size with OpenCV's three windows. The
detector looks only a few pixels around any point, so in a piece a little larger than a marker
it finds what a search of the whole frame finds there: the same markers and the same undecoded
outlines. Then the same is done wherever what was found says more markers lie (the caller says
where: see ``vision.scan.missing_markers``), again and again while that names new places. That
finds the markers the quick search missed, on every board it found a marker of.

The pieces are searched without refinement, and the corners are refined in the whole photo with
the window OpenCV sizes there: the corners are then those of a search of the whole frame, to the
bit (OpenCV sizes the window from the image it refines in). How this was measured, and what each
step brings back, is in docs/fiducials.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import Marker, MarkerDictionary, default_parameters
from vision.images import Image

Quad = NDArray[np.float64]
Place = tuple[Quad, float]  # a quad, and how far around it to search: a share of its longest side

# The quick search's one threshold window, at half size: about OpenCV's middle one (13 px) at
# full size.
QUICK_WINDOW_PX = 7
# Around a place found quickly, this much of its longest side is searched too; never less than
# GUARD_PX, which the widest window (23 px) needs to see around a marker as in the whole frame.
MARGIN = 0.75
GUARD_PX = 12
# Outlines the quick search traces are looked at again only within a marker's plausible size:
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

    def holds(self, other: Piece) -> bool:
        return (
            self.x0 <= other.x0
            and self.y0 <= other.y0
            and other.x1 <= self.x1
            and other.y1 <= self.y1
        )

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
        self._quick = cv2.aruco.ArucoDetector(family, _quick())
        self._pieces = cv2.aruco.ArucoDetector(family, _unrefined())
        self._cells = dictionary.bits + 2  # a marker's side in cells, its black border included

    def detect_with_rejected(
        self,
        gray: Image,
        then: Callable[[list[Marker], list[Quad]], Sequence[Place]] | None = None,
        around: Sequence[Place] | None = None,
    ) -> tuple[list[Marker], list[Quad]]:
        """The markers found (sorted by id), and the square outlines found but not decoded (each
        4 x 2 px, clockwise), as ``MarkerDetector.detect_with_rejected`` gives them. ``then``
        names more places to search from what has been found (where the boards found say more
        lie): it is asked again after each search, until it names none not searched yet.
        ``around``: the places to start from instead of the quick search's (where markers were
        a moment ago); only what lies around them and what ``then`` names is found."""
        found: dict[int, NDArray[np.float32]] = {}
        outlines: dict[bytes, Quad] = {}
        searched: list[Piece] = []
        places: Sequence[Place] = (
            [(quad, MARGIN) for quad in self._places(gray)] if around is None else around
        )
        while self._look_around(gray, places, found, outlines, searched) and then is not None:
            places = then(self._markers(found), list(outlines.values()))
        return self._markers(found), list(outlines.values())

    def glance(self, gray: Image) -> dict[int, Quad]:
        """The markers the quick search alone finds, by id, each where it was found (its quad,
        px): a glance at the whole frame for markers not known, far cheaper than a search (it
        misses some, and places them only roughly: a place to search around)."""
        height, width = gray.shape[:2]
        small = cv2.resize(gray, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
        corners, ids, _ = self._quick.detectMarkers(small)
        if ids is None:
            return {}
        # A pixel of the half-size frame covers two of the full one: its centre lies at 2x + 0.5.
        return {int(i): 2.0 * _quad(q) + 0.5 for q, i in zip(corners, ids.ravel(), strict=True)}

    def _look_around(
        self,
        gray: Image,
        places: Sequence[Place],
        found: dict[int, NDArray[np.float32]],
        outlines: dict[bytes, Quad],
        searched: list[Piece],
    ) -> bool:
        """Adds to ``found`` and ``outlines`` what a search of the whole frame finds around each
        quad, as far as its margin (a share of its longest side), where not ``searched`` yet.
        Whether anything was."""
        height, width = gray.shape[:2]
        pieces = [_piece(quad, margin, width, height) for quad, margin in places]
        new = [p for p in pieces if p is not None and not any(s.holds(p) for s in searched)]
        for piece in _joined(new):
            searched.append(piece)
            corners, ids, rejected = self._search_piece(gray, piece, width, height)
            for marker_id, unrefined in zip(ids, corners, strict=True):
                if marker_id not in found:
                    found[marker_id] = self._refined(gray, unrefined)
            for outline in rejected:
                outlines.setdefault(outline.tobytes(), outline)
        return bool(new)

    def _markers(self, found: dict[int, NDArray[np.float32]]) -> list[Marker]:
        return [
            Marker(marker_id, self.dictionary.name, tuple((float(x), float(y)) for x, y in corners))
            for marker_id, corners in sorted(found.items())
        ]

    def _places(self, gray: Image) -> list[Quad]:
        """Where the quick search found a marker (the pieces' search names it again) or traced
        an outline of a marker's size."""
        height, width = gray.shape[:2]
        small = cv2.resize(gray, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
        corners, _, rejected = self._quick.detectMarkers(small)
        # A pixel of the half-size frame covers two of the full one: its centre lies at 2x + 0.5.
        markers = [2.0 * _quad(q) + 0.5 for q in corners]
        traced = [2.0 * _quad(q) + 0.5 for q in rejected]
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


def _quick() -> Any:
    """The defaults with one threshold window and no refinement: a quick first look."""
    params = _unrefined()
    params.adaptiveThreshWinSizeMin = QUICK_WINDOW_PX
    params.adaptiveThreshWinSizeMax = QUICK_WINDOW_PX
    # As near the frame's edge as the full search allows, in half-size pixels.
    params.minDistanceToBorder //= 2
    return params


def _unrefined() -> Any:
    params = default_parameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return params


def _quad(points: Any) -> Quad:
    return np.asarray(points, np.float64).reshape(4, 2)


def _sides(quad: Quad) -> NDArray[np.float64]:
    return np.asarray(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1), np.float64)
