"""A component seen head-on: the image warped into the component's own millimetres, once, so
every region is read as a simple crop with a shape mask."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.images import Image
from vision.layout.geometry import Circle, Hexagon, Rect, Shape, Triangle, bounds
from vision.scan.registration import Sighting

MAX_READ_PPM = 4.0  # rectified views are never finer than 0.25 mm...
MIN_READ_PPM = 2.0  # ...nor coarser than 0.5 mm; between, they match the camera's own scale


@dataclass(frozen=True)
class Rectified:
    """The component's face, and which of its pixels the camera saw (None: all of them)."""

    image: Image
    seen_mask: NDArray[np.bool_] | None
    ppm: float

    def _window(self, shape: Shape) -> tuple[int, int, int, int] | None:
        """The pixel window (x0, y0, x1, y1) holding ``shape``, clipped to the face."""
        box = bounds(shape)
        x0 = max(0, int(np.floor(box.x * self.ppm)))
        y0 = max(0, int(np.floor(box.y * self.ppm)))
        x1 = min(self.image.shape[1], int(np.ceil((box.x + box.w) * self.ppm)) + 1)
        y1 = min(self.image.shape[0], int(np.ceil((box.y + box.h) * self.ppm)) + 1)
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None

    def pixels(
        self, shape: Shape, shrink: float = 1.0, holes: tuple[Shape, ...] = (), margin: float = 0.0
    ) -> NDArray[np.uint8]:
        """The seen BGR pixels (N x 3) inside ``shape`` scaled by ``shrink`` about its centre,
        leaving out every hole (each grown by ``margin`` mm)."""
        window = self._window(shape)
        if window is None:
            return np.zeros((0, 3), np.uint8)
        x0, y0, x1, y1 = window
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        _fill(mask, shape, shrink, self.ppm, (x0, y0))
        for hole in holes:
            grown = bounds(hole)
            scale = (grown.w + 2 * margin) / grown.w if grown.w else 1.0
            _fill(mask, hole, scale, self.ppm, (x0, y0), value=0)
        inside = mask > 0
        if self.seen_mask is not None:
            inside &= self.seen_mask[y0:y1, x0:x1]
        return masked_pixels(self.image[y0:y1, x0:x1], inside)

    def coverage(self, shape: Shape) -> float:
        """The share of ``shape`` the camera saw (the rest lies outside the photo)."""
        if self.seen_mask is None:
            return 1.0
        window = self._window(shape)
        if window is None:
            return 0.0
        x0, y0, x1, y1 = window
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        _fill(mask, shape, 1.0, self.ppm, (x0, y0))
        inside = mask > 0
        seen = int(np.count_nonzero(self.seen_mask[y0:y1, x0:x1] & inside))
        return seen / max(int(np.count_nonzero(inside)), 1)


def masked_pixels(window: Image, inside: NDArray[np.bool_]) -> NDArray[np.uint8]:
    """The pixels of ``window`` where ``inside`` is set, in order: ``window[inside]``, but
    several times faster (a mask over a colour image is slow to apply, a list of pixels not)."""
    pixels = window.reshape(inside.size, *window.shape[2:])
    return np.asarray(np.take(pixels, np.flatnonzero(inside), axis=0), np.uint8)


def _scaled(
    points: list[tuple[float, float]], centre: tuple[float, float], k: float
) -> list[tuple[float, float]]:
    return [(centre[0] + (x - centre[0]) * k, centre[1] + (y - centre[1]) * k) for x, y in points]


def _fill(
    mask: NDArray[np.uint8],
    shape: Shape,
    shrink: float,
    ppm: float,
    origin: tuple[int, int],
    value: int = 255,
) -> None:
    ox, oy = origin
    if isinstance(shape, Circle):
        at = (round(shape.cx * ppm - ox), round(shape.cy * ppm - oy))
        cv2.circle(mask, at, max(1, round(shape.r * shrink * ppm)), value, -1)
        return
    centre: tuple[float, float]
    if isinstance(shape, Rect):
        points = list(shape.corners())
        centre = shape.centre
    elif isinstance(shape, Hexagon):
        points = list(shape.corners())
        centre = (shape.cx, shape.cy)
    elif isinstance(shape, Triangle):
        points = [shape.a, shape.b, shape.c]
        centre = (sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3)
    polygon = np.array(
        [(x * ppm - ox, y * ppm - oy) for x, y in _scaled(points, centre, shrink)], np.float64
    )
    cv2.fillPoly(mask, [np.round(polygon).astype(np.int32)], value)


def rectify(image: Image, sighting: Sighting, ppm: float | None = None) -> Rectified:
    """Warp the component's face out of ``image`` into its own millimetres, at ``ppm`` or else
    at about the resolution the camera saw it with."""
    if ppm is None:
        ppm = min(MAX_READ_PPM, max(MIN_READ_PPM, sighting.pixels_per_mm()))
    w, h = sighting.layout.size
    size = (round(w * ppm), round(h * ppm))
    # Rectified pixel (i, j) is the point (i, j) / ppm mm: scale into mm, then into the photo.
    to_mm = np.diag([1.0 / ppm, 1.0 / ppm, 1.0])
    warp = sighting.homography @ to_mm
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    face = cv2.warpPerspective(image, warp, size, flags=flags, borderMode=cv2.BORDER_CONSTANT)
    outline = sighting.to_image(np.array(sighting.layout.outline.corners(), np.float64))
    rows, cols = image.shape[:2]
    if np.all((outline >= 0) & (outline <= (cols - 1, rows - 1))):
        # A convex outline inside the photo: every point of the face was seen.
        return Rectified(np.asarray(face, np.uint8), None, ppm)
    inside = np.full(image.shape[:2], 255, np.uint8)
    seen = cv2.warpPerspective(inside, warp, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    return Rectified(np.asarray(face, np.uint8), seen > 0, ppm)
