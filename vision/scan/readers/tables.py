"""Shared table areas that hold no one's score: the Paintings Art Row and the Pigment Lab market
(crates, Shade Row, Spill Tray). Read like boards, reported as what lies where."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from companion.observation import ComponentRead as Read
from vision.layout.geometry import Shape, bounds
from vision.layout.inks import INKS
from vision.scan.colours import ColourClassifier, subset, to_lab
from vision.scan.context import BoardContext
from vision.scan.readers.common import CERTAIN, MIN_SEEN, is_empty, single_piece
from vision.scan.readers.reader import BoardReader, ReaderEntry
from vision.scan.readers.second_look import UNPLACED, SecondLook, placed_well

ROW = ("row 0", "row 1", "row 2", "row 3", "row 4")
CHIPS = ("Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder")
CHIP_REJECT_DELTA_E = 16.0
MIN_MARGIN = 10.0
CHIP_AREA_MM2 = float(np.pi * 8.0**2)  # a 16 mm chip
TRAY_BLOB_MIN = 0.5  # a blob smaller than half a chip is noise, not a chip


def _card_places(
    ctx: BoardContext, names: tuple[str, ...], look: SecondLook, content_key: str
) -> list[Any]:
    """Each place's card id (its marker), None when the place is empty; unsure places recorded."""
    kind = look.kind
    found: list[Any] = []
    for name in names:
        region = ctx.board.layout.region(name)
        if ctx.face.coverage(region.shape) < MIN_SEEN:
            ctx.record(Read(name, None, 0.0, f"{name}: outside the photo"))
            found.append(None)
            continue
        piece, problem = single_piece(ctx.pieces_in(region.shape, (kind,)), name)
        if problem:
            ctx.record(Read(name, None, 0.0, problem))
            found.append(None)
        elif piece is not None and not placed_well(ctx, region.shape):
            ctx.record(Read(name, None, 0.0, f"{name}: {UNPLACED}"))
            found.append(None)
        elif piece is not None:
            value = piece.layout.content[content_key]
            ctx.record(Read(name, value, CERTAIN))
            found.append(value)
        else:
            found.append(_unmarked_place(ctx, name, region.shape, look, content_key))
    return found


def _unmarked_place(
    ctx: BoardContext, name: str, shape: Shape, look: SecondLook, content_key: str
) -> Any:
    """A place without a decoded marker: empty, a card named by a second look, or unsure."""
    empty, confidence = is_empty(ctx, shape)
    if empty:
        ctx.record(Read(name, None, confidence))
        return None
    if not placed_well(ctx, shape):
        ctx.record(Read(name, None, 0.0, f"{name}: {UNPLACED}"))
        return None
    seen = look.find(ctx, shape)
    if seen is not None and single_piece([seen.piece], name)[1] is None:
        value = seen.piece.layout.content[content_key]
        ctx.record(Read(name, value, seen.confidence))
        return value
    ctx.record(Read(name, None, 0.0, f"{name}: covered, or a card whose marker cannot be read"))
    return None


class ArtRowReader(BoardReader):
    def __init__(self) -> None:
        self.second_look = SecondLook("art-card")

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        return {"game": "paintings", "art_row": _card_places(ctx, ROW, self.second_look, "card")}


class MarketReader(BoardReader):
    def __init__(self) -> None:
        # An empty crate slot shows the crate's own print; the tray is the dark well.
        self.crate = ColourClassifier(subset(INKS, (*CHIPS, "frame")), CHIP_REJECT_DELTA_E)
        self.tray = ColourClassifier(subset(INKS, (*CHIPS, "well")), CHIP_REJECT_DELTA_E)
        self.second_look = SecondLook("shade")

    def _crate_slot(self, ctx: BoardContext, name: str) -> str | None:
        region = ctx.board.layout.region(name)
        match = self.crate.classify(ctx.colours(region.shape, 0.55))
        if match.name is None or match.margin < MIN_MARGIN:
            ctx.record(
                Read(name, None, 0.0, f"{name}: no clear chip colour (nearest {match.nearest})")
            )
            return None
        chip = None if match.name == "frame" else match.name
        ctx.record(Read(name, chip, min(0.99, 0.5 + match.margin / 40.0)))
        return chip

    def _spill_tray(self, ctx: BoardContext) -> dict[str, int]:
        """Loose chips in the tray: blobs that are not the well, counted in chip areas."""
        region = ctx.board.layout.region("spill tray")
        box = bounds(region.shape)
        ppm = ctx.face.ppm
        x0, y0 = int(box.x * ppm), int(box.y * ppm)
        patch = ctx.face.image[y0 : y0 + int(box.h * ppm), x0 : x0 + int(box.w * ppm)]
        flat = ctx.balance.apply(patch.reshape(-1, 3), box.centre)
        distances = self.tray.distances(to_lab(flat))
        nearest = distances.argmin(axis=1).reshape(patch.shape[:2])
        close = (distances.min(axis=1) <= CHIP_REJECT_DELTA_E).reshape(patch.shape[:2])
        counts: dict[str, int] = {}
        chip_px = CHIP_AREA_MM2 * ppm * ppm
        for index, name in enumerate(self.tray.names):
            if name == "well":
                continue
            mask = ((nearest == index) & close).astype(np.uint8)
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            area = float(mask.sum())
            chips = round(area / chip_px) if area >= TRAY_BLOB_MIN * chip_px else 0
            if chips:
                counts[name] = chips
        ctx.record(Read("spill tray", counts, 0.8))
        return counts

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        crates = [
            [
                chip
                for slot in range(1, 4)
                if (chip := self._crate_slot(ctx, f"crate {crate} slot {slot}")) is not None
            ]
            for crate in range(1, 6)
        ]
        names = tuple(f"shade row {i}" for i in range(1, 9))
        return {
            "game": "pigments",
            "crates": crates,
            "shade_row": _card_places(ctx, names, self.second_look, "shade"),
            "spill_tray": self._spill_tray(ctx),
        }


ENTRIES = (
    ReaderEntry("paintings", "art-row", ArtRowReader, 2.0, shared=True),
    ReaderEntry("pigments", "market", MarketReader, 2.5, shared=True),
)
