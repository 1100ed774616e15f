"""What a reader gets for one board: the board rectified, its white balance, the pieces lying on
it (where, how turned), and a place to record every component it reads."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from calibration.colour import ColourCorrection
from companion.observation import ComponentRead
from vision.images import Image
from vision.layout.geometry import Rect, Shape, bounds
from vision.layout.model import QUIET_MM, Layout, MarkerSpec
from vision.scan.colours import WhiteBalance
from vision.scan.rectify import Rectified
from vision.scan.registration import Sighting

# A piece more than this far off square with its board is read as placed carelessly.
MAX_SKEW_DEG = 25.0


@dataclass(frozen=True)
class PieceOnBoard:
    sighting: Sighting
    centre: tuple[float, float]  # board mm
    quarter_turns: int  # clockwise, from the board's top
    skew_deg: float  # how far from an exact quarter turn

    @property
    def layout(self) -> Layout:
        return self.sighting.layout


@dataclass
class BoardContext:
    image: Image  # the whole photo, for rectifying pieces
    board: Sighting
    face: Rectified
    balance: WhiteBalance
    pieces: Sequence[PieceOnBoard]
    printed: Image  # the board as printed, at the face's resolution
    reads: list[ComponentRead] = field(default_factory=list)

    def pieces_in(self, shape: Shape, kinds: Sequence[str]) -> list[PieceOnBoard]:
        box = bounds(shape)
        return [
            p
            for p in self.pieces
            if p.layout.kind in kinds
            and box.x <= p.centre[0] <= box.x + box.w
            and box.y <= p.centre[1] <= box.y + box.h
        ]

    def colours(self, shape: Shape, shrink: float = 1.0) -> NDArray[np.float32]:
        """The seen pixels of ``shape``, colour-corrected and white-balanced for where it lies."""
        box = bounds(shape)
        return self.balance.apply(self.face.pixels(shape, shrink), box.centre)

    def record(self, read: ComponentRead) -> ComponentRead:
        self.reads.append(read)
        return read


def piece_on_board(piece: Sighting, board: Sighting) -> PieceOnBoard:
    w, h = piece.layout.size
    centre_px = piece.to_image(np.array([[w / 2, h / 2], [w / 2, 0.0]]))
    centre, top = board.to_component(centre_px)
    up = top - centre
    # Clockwise angle of the piece's top from the board's top (y points down).
    angle = math.degrees(math.atan2(up[0], -up[1])) % 360.0
    turns = round(angle / 90.0) % 4
    skew = abs((angle - 90.0 * turns + 180.0) % 360.0 - 180.0)
    return PieceOnBoard(piece, (float(centre[0]), float(centre[1])), turns, skew)


def ring_pixels(face: Rectified, marker: MarkerSpec) -> NDArray[np.uint8]:
    """The pixels of the white quiet ring around a marker printed on ``face``'s component."""
    outer = marker.rect.inset(-QUIET_MM)
    strips = (
        Rect(outer.x, outer.y, outer.w, QUIET_MM),
        Rect(outer.x, marker.rect.y + marker.rect.h, outer.w, QUIET_MM),
        Rect(outer.x, marker.rect.y, QUIET_MM, marker.rect.h),
        Rect(marker.rect.x + marker.rect.w, marker.rect.y, QUIET_MM, marker.rect.h),
    )
    return np.concatenate([face.pixels(strip.inset(0.4)) for strip in strips])


def white_of(
    face: Rectified,
    board: Layout,
    correction: ColourCorrection | None = None,
    seen: Collection[int] | None = None,
) -> WhiteBalance:
    """The white balance from the quiet rings of the board's markers that the camera saw: one
    white per marker, so light that falls unevenly across the board is followed. Given ``seen``
    (the ids of the markers found), only their rings count: a marker that was not found may lie
    under a hand or a cup, whose colour is no white."""
    whites = []
    for marker in board.markers:
        if seen is not None and marker.id not in seen:
            continue
        white = WhiteBalance.white_of(ring_pixels(face, marker), correction)
        if white is not None:
            cx, cy = marker.rect.centre
            whites.append((cx, cy, white))
    return WhiteBalance.from_whites(whites, correction)
