"""Reading helpers every reader shares: is a place empty board, and confidence arithmetic."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.layout.geometry import Shape
from vision.layout.inks import INKS
from vision.scan.colours import rgb_to_lab, to_lab
from vision.scan.context import BoardContext, PieceOnBoard

CERTAIN = 0.99  # a decoded 36h11 marker, well placed: its id is as sure as anything we read
EMPTY_DELTA_E = 14.0  # a board pixel within this of its printed colour is bare board
EMPTY_SHARE = 0.8  # a place is empty when this share of it is bare board
MIN_SEEN = 0.9  # a place less seen than this (out of the photo) is not read


def bare_share(ctx: BoardContext, shape: Shape, ink: str, shrink: float = 0.8) -> float:
    """The share of ``shape`` that shows the board's own printed ``ink``."""
    pixels = ctx.colours(shape, shrink)
    if len(pixels) == 0:
        return 0.0
    lab = to_lab(pixels)
    distance = np.sqrt(((lab - rgb_to_lab(INKS[ink])) ** 2).sum(axis=1))
    return float(np.mean(distance <= EMPTY_DELTA_E))


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
