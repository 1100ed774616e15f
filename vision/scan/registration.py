"""From detected markers to components: which board or piece each marker belongs to, and the
homography from that component's millimetres to image pixels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import Marker
from vision.layout.catalogue import MarkerOwner
from vision.layout.model import Layout

Homography = NDArray[np.float64]
# With three or more board markers, a corner further than this from the fitted homography is
# treated as a misdetection and left out.
RANSAC_PX = 4.0


@dataclass(frozen=True)
class Sighting:
    """A component found in the image: its layout, mm -> px homography, and how well it fits."""

    layout: Layout
    homography: Homography
    marker_ids: tuple[int, ...]  # the component's markers that were seen
    error_px: float  # RMS distance between detected and fitted marker corners
    # The covariance of the homography's first eight entries (h33 = 1), where it was worked
    # out: for a board seen by few of its markers (see ``vision.scan.refine``).
    covariance: NDArray[np.float64] | None = None
    # The sides of its outline that placed it as well as its markers (``vision.scan.outline``).
    outline_sides: int = 0

    def to_image(self, points_mm: NDArray[np.float64]) -> NDArray[np.float64]:
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.homography), np.float64).reshape(-1, 2)

    def to_component(self, points_px: NDArray[np.float64]) -> NDArray[np.float64]:
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self._inverse), np.float64).reshape(-1, 2)

    @cached_property
    def _inverse(self) -> Homography:
        # Inverted once: a piece's outline is mapped onto its board several times a frame.
        return np.asarray(np.linalg.inv(self.homography), np.float64)

    def pixels_per_mm(self) -> float:
        """The scale at the component's centre: how large a millimetre appears."""
        w, h = self.layout.size
        centre = np.array([[w / 2, h / 2], [w / 2 + 1, h / 2], [w / 2, h / 2 + 1]])
        c, x, y = self.to_image(centre)
        (ax, ay), (bx, by) = x - c, y - c
        return float(np.sqrt(abs(ax * by - ay * bx)))


@dataclass(frozen=True)
class Registration:
    boards: tuple[Sighting, ...]
    pieces: tuple[Sighting, ...]
    unknown_ids: tuple[int, ...]  # markers of the family that no component carries


def _fit(layout: Layout, found: Sequence[tuple[MarkerOwner, Marker]]) -> Sighting:
    src = np.array(
        [corner for owner, _ in found for corner in owner.marker.rect.corners()], np.float64
    )
    dst = np.array([corner for _, marker in found for corner in marker.corners], np.float64)
    if len(found) >= 3:
        homography, inliers = cv2.findHomography(src, dst, cv2.RANSAC, RANSAC_PX)
        keep = inliers.ravel().astype(bool) if inliers is not None else np.ones(len(src), bool)
    else:
        homography, _ = cv2.findHomography(src, dst, 0)
        keep = np.ones(len(src), bool)
    if homography is None:
        homography = np.full((3, 3), np.nan)
        error = float("inf")
    else:
        pts = cv2.perspectiveTransform(src[keep].reshape(-1, 1, 2), homography).reshape(-1, 2)
        error = float(np.sqrt(np.mean(np.sum((pts - dst[keep]) ** 2, axis=1))))
    ids = tuple(sorted(marker.id for _, marker in found))
    return Sighting(layout, np.asarray(homography, np.float64), ids, error)


def register(markers: Sequence[Marker], index: Mapping[int, MarkerOwner]) -> Registration:
    """Group markers by the component that carries them and fit each component's homography.

    A piece seen twice (two copies of one card on the table) is reported as two sightings.
    """
    by_board: dict[str, list[tuple[MarkerOwner, Marker]]] = {}
    pieces: list[Sighting] = []
    unknown: list[int] = []
    for marker in markers:
        owner = index.get(marker.id)
        if owner is None:
            unknown.append(marker.id)
        elif owner.layout.is_board:
            by_board.setdefault(owner.layout.key, []).append((owner, marker))
        else:
            pieces.append(_fit(owner.layout, [(owner, marker)]))
    boards = tuple(_fit(found[0][0].layout, found) for found in by_board.values())
    return Registration(
        tuple(sorted(boards, key=lambda s: s.layout.key)), tuple(pieces), tuple(sorted(unknown))
    )
