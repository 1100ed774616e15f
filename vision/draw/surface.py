"""An image being drawn, addressed in millimetres.

Pixel (i, j) is centred on the point (i / ppm, j / ppm) mm: the convention OpenCV's drawing,
warping and marker detection all use, so a marker whose corner is at (x, y) mm is detected at
(x * ppm, y * ppm) px. Rectangles and markers are drawn with exact area coverage (their edges land
between pixels wherever the millimetres put them); other shapes use OpenCV's anti-aliased drawing
with sub-pixel coordinates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import ATELIER_DICTIONARY, predefined_dictionary
from vision.images import Image
from vision.layout.geometry import Point, Rect
from vision.layout.inks import INKS, RGB

SHIFT = 4  # fractional bits of OpenCV's sub-pixel drawing coordinates
FONT = cv2.FONT_HERSHEY_SIMPLEX
BOLD = cv2.FONT_HERSHEY_DUPLEX
_MARKERS = predefined_dictionary(ATELIER_DICTIONARY)
_MARKER_CELLS = _MARKERS.bits + 2  # the code and its one-cell black border


def bgr(name: str) -> tuple[int, int, int]:
    r, g, b = INKS[name]
    return (b, g, r)


def is_dark(rgb: RGB) -> bool:
    """Whether text on this colour should be white rather than ink."""
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


def _coverage(lo: float, hi: float, cells: int, limit: int) -> tuple[int, NDArray[np.float32]]:
    """How much of each pixel in a row falls in each of ``cells`` equal cells spanning [lo, hi).

    Returns the first pixel index and a (pixels x cells) matrix of fractions.
    """
    first = max(0, math.floor(lo + 0.5))
    stop = min(limit, math.ceil(hi + 0.5))
    if stop <= first:
        return first, np.zeros((0, cells), np.float32)
    edges = lo + (hi - lo) * np.arange(cells + 1) / cells
    pixel_lo = np.arange(first, stop) - 0.5
    overlap = np.minimum(pixel_lo[:, None] + 1.0, edges[None, 1:]) - np.maximum(
        pixel_lo[:, None], edges[None, :-1]
    )
    return first, np.clip(overlap, 0.0, 1.0).astype(np.float32)


class Surface:
    """A BGR image of a component ``size`` mm at ``ppm`` pixels per millimetre."""

    def __init__(self, size: tuple[float, float], ppm: float, background: str) -> None:
        self.ppm = ppm
        shape = (round(size[1] * ppm), round(size[0] * ppm), 3)
        self.image: Image = np.empty(shape, np.uint8)
        # OpenCV fills a page thirty times faster than numpy broadcasts three channels over it.
        cv2.rectangle(self.image, (0, 0), (shape[1], shape[0]), bgr(background), cv2.FILLED)

    def px(self, mm: float) -> float:
        return mm * self.ppm

    def _fixed(self, points: Sequence[Point]) -> NDArray[np.int32]:
        scale = self.ppm * (1 << SHIFT)
        return np.round(np.asarray(points, np.float64) * scale).astype(np.int32)

    def _width(self, mm: float) -> int:
        return max(1, round(mm * self.ppm))

    def _blend(self, y: int, x: int, alpha: NDArray[np.float32], colour: tuple[int, ...]) -> None:
        """Mix ``colour`` into the image at (y, x) onwards by ``alpha`` (0..1 per pixel)."""
        if alpha.size == 0:
            return
        h, w = alpha.shape
        patch = self.image[y : y + h, x : x + w].astype(np.float32)
        a = alpha[:, :, None]
        mixed = patch * (1.0 - a) + np.asarray(colour, np.float32) * a
        self.image[y : y + h, x : x + w] = np.round(mixed).astype(np.uint8)

    def fill_rect(self, rect: Rect, ink: str | tuple[int, int, int]) -> None:
        colour = bgr(ink) if isinstance(ink, str) else ink
        rows, cols = self.image.shape[:2]
        y0, ay = _coverage(self.px(rect.y), self.px(rect.y + rect.h), 1, rows)
        x0, ax = _coverage(self.px(rect.x), self.px(rect.x + rect.w), 1, cols)
        inside_y, inside_x = np.flatnonzero(ay[:, 0] >= 1.0), np.flatnonzero(ax[:, 0] >= 1.0)
        if inside_y.size == 0 or inside_x.size == 0:
            self._blend(y0, x0, ay @ ax.T, colour)
            return
        # Pixels the rectangle covers whole (a contiguous block) take the colour as blending
        # would give it; only the partly covered rim is blended, which makes large fills cheap.
        ya, yb = int(inside_y[0]), int(inside_y[-1]) + 1
        xa, xb = int(inside_x[0]), int(inside_x[-1]) + 1
        self.image[y0 + ya : y0 + yb, x0 + xa : x0 + xb] = colour
        self._blend(y0, x0, ay[:ya] @ ax.T, colour)
        self._blend(y0 + yb, x0, ay[yb:] @ ax.T, colour)
        self._blend(y0 + ya, x0, ay[ya:yb] @ ax[:xa].T, colour)
        self._blend(y0 + ya, x0 + xb, ay[ya:yb] @ ax[xb:].T, colour)

    def outline_rect(self, rect: Rect, ink: str, width_mm: float) -> None:
        """A frame ``width_mm`` wide drawn inside ``rect``."""
        t = min(width_mm, rect.w / 2, rect.h / 2)
        x, y, w, h = rect.x, rect.y, rect.w, rect.h
        for side in (
            Rect(x, y, w, t),
            Rect(x, y + h - t, w, t),
            Rect(x, y + t, t, h - 2 * t),
            Rect(x + w - t, y + t, t, h - 2 * t),
        ):
            self.fill_rect(side, ink)

    def fill_polygon(self, points: Sequence[Point], ink: str | tuple[int, int, int]) -> None:
        colour = bgr(ink) if isinstance(ink, str) else ink
        cv2.fillPoly(self.image, [self._fixed(points)], colour, cv2.LINE_AA, SHIFT)

    def outline_polygon(self, points: Sequence[Point], ink: str, width_mm: float) -> None:
        cv2.polylines(
            self.image,
            [self._fixed(points)],
            True,
            bgr(ink),
            self._width(width_mm),
            cv2.LINE_AA,
            SHIFT,
        )

    def line(self, a: Point, b: Point, ink: str, width_mm: float) -> None:
        p, q = self._fixed((a, b))
        cv2.line(
            self.image,
            (int(p[0]), int(p[1])),
            (int(q[0]), int(q[1])),
            bgr(ink),
            self._width(width_mm),
            cv2.LINE_AA,
            SHIFT,
        )

    def circle(
        self, centre: Point, r: float, ink: str | tuple[int, int, int], width_mm: float | None
    ) -> None:
        """A disc (``width_mm`` None) or a ring ``width_mm`` wide centred on radius ``r``."""
        colour = bgr(ink) if isinstance(ink, str) else ink
        (cx, cy), radius = self._fixed((centre, (r, 0.0)))
        thickness = cv2.FILLED if width_mm is None else self._width(width_mm)
        cv2.circle(
            self.image,
            (int(cx), int(cy)),
            int(radius[0]),
            colour,
            thickness,
            cv2.LINE_AA,
            SHIFT,
        )

    def text(
        self,
        words: str,
        centre: Point,
        height_mm: float,
        ink: str | tuple[int, int, int],
        max_width_mm: float | None = None,
        quarter_turns: int = 0,
        bold: bool = False,
    ) -> None:
        """``words`` centred on ``centre``, capitals ``height_mm`` tall (smaller if it would be
        wider than ``max_width_mm``), turned clockwise by ``quarter_turns``."""
        colour = bgr(ink) if isinstance(ink, str) else ink
        font = BOLD if bold else FONT
        thickness = max(1, round(height_mm * self.ppm / 9))
        (w1, h1), _ = cv2.getTextSize(words, font, 1.0, thickness)
        scale = height_mm * self.ppm / h1
        if max_width_mm is not None and w1 * scale > max_width_mm * self.ppm:
            scale = max_width_mm * self.ppm / w1
        (w, h), base = cv2.getTextSize(words, font, scale, thickness)
        pad = thickness + 2
        mask = np.zeros((h + base + 2 * pad, w + 2 * pad), np.uint8)
        cv2.putText(mask, words, (pad, pad + h), font, scale, 255, thickness, cv2.LINE_AA)
        # The point placed on ``centre``: the middle of the capitals, not of the descenders.
        ax, ay = (mask.shape[1] - 1) / 2, pad + h / 2
        for _ in range(quarter_turns % 4):
            ax, ay = mask.shape[0] - 1 - ay, ax
            mask = np.ascontiguousarray(np.rot90(mask, -1))
        rows, cols = mask.shape
        x, y = round(self.px(centre[0]) - ax), round(self.px(centre[1]) - ay)
        img_h, img_w = self.image.shape[:2]
        left, top = max(0, -x), max(0, -y)
        right, bottom = min(cols, img_w - x), min(rows, img_h - y)
        if right <= left or bottom <= top:
            return
        alpha = mask[top:bottom, left:right].astype(np.float32) / 255.0
        self._blend(y + top, x + left, alpha, colour)

    def marker(self, marker_id: int, rect: Rect) -> None:
        """An Atelier marker filling ``rect`` exactly, on the white of its quiet ring."""
        rows, cols = self.image.shape[:2]
        code = _MARKERS.draw(marker_id, _MARKER_CELLS)
        black = (code < 128).astype(np.float32)
        y0, ay = _coverage(self.px(rect.y), self.px(rect.y + rect.h), _MARKER_CELLS, rows)
        x0, ax = _coverage(self.px(rect.x), self.px(rect.x + rect.w), _MARKER_CELLS, cols)
        self._blend(y0, x0, np.asarray(ay @ black @ ax.T, np.float32), (0, 0, 0))
