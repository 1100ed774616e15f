"""What a render puts on the table: printed boards, and what lies on or is drawn onto each.

A plan names catalogue components and the board places they sit in; where on the table and at
which angle is decided later (``arrange``), so one plan renders under any camera.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vision.layout.model import Layout


@dataclass(frozen=True)
class PiecePlan:
    """A moving piece laid in a place of its board, its printed top turned ``quarter_turns``
    clockwise from the board's top."""

    layout: Layout
    place: str  # the board region it lies in: "space 3", "card middle", "shade large"
    quarter_turns: int = 0


@dataclass(frozen=True)
class ChipPlan:
    chip: str  # the chip kind, which is also its ink's name
    slot: str  # the palette region it sits in: "large window 2"


@dataclass(frozen=True)
class FillPlan:
    cell: str  # the sheet region coloured in: "cell 3,7"
    colour: str  # the pencil's colour, which is also its ink's name


@dataclass(frozen=True)
class BoardPlan:
    layout: Layout
    position: int  # which position of the table this board shows (0-based)
    pieces: tuple[PiecePlan, ...] = ()
    chips: tuple[ChipPlan, ...] = ()
    fills: tuple[FillPlan, ...] = ()


@dataclass(frozen=True)
class TablePlan:
    """The positions shown (as given) and, for each, the boards that show it."""

    positions: tuple[Any, ...]
    groups: tuple[tuple[BoardPlan, ...], ...]

    @property
    def boards(self) -> tuple[BoardPlan, ...]:
        return tuple(board for group in self.groups for board in group)
