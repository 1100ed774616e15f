"""Reading helpers every reader shares: is a place empty board, and confidence arithmetic."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.layout.geometry import Shape, bounds
from vision.layout.inks import INKS
from vision.scan.colours import rgb_to_lab, to_lab
from vision.scan.context import BoardContext, PieceOnBoard

CERTAIN = 0.99  # a decoded 36h11 marker, well placed: its id is as sure as anything we read
EMPTY_DELTA_E = 14.0  # a board pixel within this of its printed colour is bare board
EMPTY_SHARE = 0.8  # a place is empty when this share of it is bare board
MARKS_VISIBLE = 0.45  # ...and its printed outline and label correlate with the print this well
MIN_SEEN = 0.9  # a place less seen than this (out of the photo) is not read


def bare_share(ctx: BoardContext, shape: Shape, ink: str, shrink: float = 0.8) -> float:
    """The share of ``shape`` that shows the board's own printed ``ink``."""
    pixels = ctx.colours(shape, shrink)
    if len(pixels) == 0:
        return 0.0
    lab = to_lab(pixels)
    distance = np.sqrt(((lab - rgb_to_lab(INKS[ink])) ** 2).sum(axis=1))
    return float(np.mean(distance <= EMPTY_DELTA_E))


def _edges(gray: NDArray[np.float32]) -> NDArray[np.float32]:
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(cv2.magnitude(gx, gy), np.float32)


def print_visible(ctx: BoardContext, shape: Shape) -> float:
    """How well the place's printed marks (its outline, its label) show: the correlation of
    edges in the photo with edges in the printed board there. A piece without a readable marker
    lying on the place hides them, however plain the piece is."""
    box = bounds(shape).inset(-1.5)
    ppm = ctx.face.ppm
    x0, y0 = max(0, int(box.x * ppm)), max(0, int(box.y * ppm))
    x1 = min(ctx.face.image.shape[1], int((box.x + box.w) * ppm))
    y1 = min(ctx.face.image.shape[0], int((box.y + box.h) * ppm))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return 0.0
    seen = cv2.cvtColor(ctx.face.image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    printed = cv2.cvtColor(ctx.printed[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    a, b = _edges(seen), _edges(printed)
    a, b = a - a.mean(), b - b.mean()
    denominator = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / denominator if denominator > 0 else 0.0


def is_empty(ctx: BoardContext, shape: Shape) -> tuple[bool, float]:
    """A place is empty when its printed marks show and it is mostly bare board."""
    marks = print_visible(ctx, shape)
    bare = bare_share(ctx, shape, "paper")
    return marks >= MARKS_VISIBLE and bare >= EMPTY_SHARE, min(marks + 0.3, bare, CERTAIN)


def single_piece(
    found: Sequence[PieceOnBoard], place: str
) -> tuple[PieceOnBoard | None, str | None]:
    """The one piece in a place, or the problem with it."""
    if len(found) > 1:
        names = ", ".join(p.layout.key.rsplit("/", 1)[1] for p in found)
        return None, f"{place}: {len(found)} pieces at once ({names})"
    if not found:
        return None, None
    piece = found[0]
    if piece.skew_deg > 25.0:
        return None, f"{place}: piece turned {piece.skew_deg:.0f} degrees off square"
    return piece, None
