"""Pigment Lab palette board: the chip in every pan slot and the shade card under each pan."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.games.pigments.model import PanSize
from companion.observation import ComponentRead as Read
from vision.layout.boards import PAN_ORDER
from vision.layout.geometry import bounds
from vision.layout.inks import INKS
from vision.scan.colours import ColourClassifier, rgb_to_lab, subset, to_lab
from vision.scan.context import BoardContext
from vision.scan.readers.common import (
    CERTAIN,
    MIN_SEEN,
    is_empty,
    single_piece,
)

CHIPS = ("Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder")
CHIP_REJECT_DELTA_E = 16.0
MIN_MARGIN = 10.0  # the nearest colour must beat the next by this much Delta E
CHIP_CENTRE = 0.55  # read the middle of a slot: a chip is 16 mm in an 18 mm ring
WELL_DELTA_E = 20.0
WELL_VISIBLE = 0.6  # less of a pan's well than this showing means a hand or a cup is over it


class PigmentsReader:
    def __init__(self) -> None:
        # The empty well is a colour like any chip's: dark slate.
        self.colours = ColourClassifier(subset(INKS, (*CHIPS, "well")), CHIP_REJECT_DELTA_E)

    def _slot(self, ctx: BoardContext, name: str) -> tuple[str | None, bool]:
        """The chip in a slot (None when empty) and whether it was read confidently."""
        region = ctx.board.layout.region(name)
        if ctx.face.coverage(region.shape) < MIN_SEEN:
            ctx.record(Read(name, None, 0.0, f"{name}: outside the photo"))
            return None, False
        match = self.colours.classify(ctx.colours(region.shape, CHIP_CENTRE))
        if match.name is None or match.margin < MIN_MARGIN:
            if match.name is None:
                why = f"no chip colour (nearest {match.nearest}, Delta E {match.delta_e:.0f})"
            else:
                why = f"ambiguous chip ({match.nearest}/{match.runner_up})"
            ctx.record(Read(name, None, 0.0, f"{name}: {why}"))
            return None, False
        chip = None if match.name == "well" else match.name
        confidence = min(0.99, 0.5 + match.margin / 40.0)
        ctx.record(Read(name, chip, confidence))
        return chip, True

    def _covered(self, ctx: BoardContext, pan: str) -> bool:
        """Whether something lies over the pan: its dark well, between the slots, is hidden."""
        layout = ctx.board.layout
        well = layout.region(f"pan {pan}").shape
        slots = [r.shape for r in layout.regions if r.name.startswith(f"{pan} ")]
        pixels = ctx.face.pixels(well, holes=tuple(slots), margin=1.0)
        if len(pixels) == 0:
            return True
        lab = to_lab(ctx.balance.apply(pixels, bounds(well).centre))
        distance = np.sqrt(((lab - rgb_to_lab(INKS["well"])) ** 2).sum(axis=1))
        return float(np.mean(distance <= WELL_DELTA_E)) < WELL_VISIBLE

    def _chips(self, ctx: BoardContext, name: str, size: PanSize) -> list[str]:
        if self._covered(ctx, name):
            ctx.record(Read(f"pan {name}", None, 0.0, f"pan {name}: covered (its well is hidden)"))
            return []
        chips = []
        for role, count in (("window", size.windows), ("binder", size.binder_slots)):
            for i in range(1, count + 1):
                chip, _ok = self._slot(ctx, f"{name} {role} {i}")
                if chip is not None:
                    chips.append(chip)
        return chips

    def _shade(self, ctx: BoardContext, name: str) -> str | None:
        place = ctx.board.layout.region(f"shade {name}")
        piece, problem = single_piece(ctx.pieces_in(place.shape, ("shade",)), place.name)
        if problem:
            ctx.record(Read(place.name, None, 0.0, problem))
            return None
        if piece is not None:
            shade = str(piece.layout.content["shade"])
            ctx.record(Read(place.name, shade, CERTAIN))
            return shade
        empty, confidence = is_empty(ctx, place.shape)
        if empty:
            ctx.record(Read(place.name, None, confidence))
        else:
            problem = f"{place.name}: covered, or a card whose marker cannot be read"
            ctx.record(Read(place.name, None, 0.0, problem))
        return None

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        pans = [
            {
                "pan": size.value,
                "chips": self._chips(ctx, name, size),
                "shade": self._shade(ctx, name),
            }
            for name, size in PAN_ORDER
        ]
        return {"game": "pigments", "pans": pans}
