"""Pigment Lab palette board: the chip in every pan slot and the shade card under each pan.

A palette seen by one marker alone, which may place it centimetres off, is first placed by its
print (``pigments_pose``). Each pan is then lined up with its print: a board seen by one or two
of its markers can be misplaced by millimetres far from them. A chip is then read against its
own surroundings, the dark well of its pan, which lies in the same light, and a fitted model
decides from those measurements whether the slot is empty, holds a chip, or is covered
(``pigments_chips``). A shade card is known by its marker, or else by its face, and a place
without one by its print showing bare.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.images import Image
from vision.layout.boards import PAN_ORDER
from vision.layout.model import Layout
from vision.scan.context import BoardContext
from vision.scan.readers.pigments_align import PanPrint, pan_print, pan_shifts
from vision.scan.readers.pigments_cards import PlacePrint, ShadeCards, place_print
from vision.scan.readers.pigments_chips import ChipReader, PanPixels, pan_pixels, slot_views
from vision.scan.readers.pigments_pixels import region_rect
from vision.scan.readers.pigments_pose import PalettePrint, palette_print, placed_by_print
from vision.scan.readers.reader import BoardReader, Printed, ReaderEntry
from vision.scan.registration import Sighting


@dataclass(frozen=True)
class Guide:
    """What the reader needs from one board's print at one resolution, worked out once: each
    pan's print and slot pixels, and each shade card place's print."""

    pans: dict[str, tuple[PanPrint, PanPixels]]
    places: dict[str, PlacePrint]


class PigmentsReader(BoardReader):
    def __init__(self, chip_reader: ChipReader | None = None) -> None:
        self.chip_reader = chip_reader or ChipReader()
        self.shade_cards = ShadeCards()
        self._guides: dict[tuple[str, float], Guide] = {}
        self._prints: dict[str, PalettePrint] = {}

    def prepare(self, palettes: Sequence[Printed], ppm: float) -> None:
        """Draw the shade cards' faces, and each palette's guide and whole print (with its
        printed face at ``ppm``), now rather than on first sight."""
        self.shade_cards.card_faces(ppm)
        for layout, printed in palettes:
            self._guide_of(layout, printed, ppm)
            self._print_of(layout)

    def place(self, image: Image, board: Sighting) -> Sighting:
        """The palette where its print lies, when one marker alone placed it (and may have
        placed it centimetres off); else as its markers placed it."""
        if len(board.marker_ids) != 1:
            return board
        return placed_by_print(image, board, self._print_of(board.layout))

    def _print_of(self, layout: Layout) -> PalettePrint:
        if layout.key not in self._prints:
            self._prints[layout.key] = palette_print(layout)
        return self._prints[layout.key]

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        guide = self._guide(ctx)
        shifts = pan_shifts(ctx, {pan: pair[0] for pan, pair in guide.pans.items()})
        views = {
            name: slot_views(ctx, guide.pans[name][1], shift)
            for name, shift in shifts.items()
            if shift is not None
        }
        wells = self.chip_reader.wells(views)
        pans = [
            {
                "pan": size.value,
                "chips": self.chip_reader.chips(ctx, views.get(name), wells.get(name), name, size),
                "shade": self.shade_cards.shade(ctx, guide.places[name], name, shifts[name]),
            }
            for name, size in PAN_ORDER
        ]
        return {"game": "pigments", "pans": pans}

    def _guide(self, ctx: BoardContext) -> Guide:
        return self._guide_of(ctx.board.layout, ctx.printed, ctx.face.ppm)

    def _guide_of(self, layout: Layout, printed: Image, ppm: float) -> Guide:
        key = (layout.key, ppm)
        if key not in self._guides:
            self._guides[key] = _guide(layout, printed, ppm)
        return self._guides[key]


def _guide(layout: Layout, printed: NDArray[np.uint8], ppm: float) -> Guide:
    pans = {
        pan: (pan_print(layout, printed, pan, ppm), pan_pixels(layout, pan, ppm))
        for pan, _ in PAN_ORDER
    }
    places = {
        pan: place_print(printed, region_rect(layout, f"shade {pan}"), ppm) for pan, _ in PAN_ORDER
    }
    return Guide(pans, places)


# Not refused when overexposed: a chip the sensor clipped in some channel is measured only against
# the inks that would have clipped there too, at a brightness the well around allows (TiO2 and
# binder both white there leave the chip model unsure), and a place or well blown out is not seen.
# On validation seeds 60000-60039, refused whole when a quarter of the print clipped, 20 of 40
# boards read exactly at +1 EV and 2 at +1.5 EV; read slot by slot, 23 and 8; none confidently
# wrong either way.
ENTRIES = (ReaderEntry("pigments", "palette", PigmentsReader, 2.5, refused_when_overexposed=False),)
