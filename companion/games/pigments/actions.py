"""The actions of a Pigment Lab turn, as small values. The current player always acts."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.pigments.faults import Cause
from companion.games.pigments.model import Chip
from companion.games.pigments.state import Place


@dataclass(frozen=True)
class Draft:
    """The turn's one action: every ``colour`` chip from crate ``crate`` (None: the Spill Tray),
    into pan ``pan`` (None only when every pan is pressed: all go to the Spill Line)."""

    colour: Chip
    crate: int | None
    pan: int | None


@dataclass(frozen=True)
class ClaimShade:
    pan: int
    shade: str


@dataclass(frozen=True)
class Sift:
    pan: int
    chip: Chip


@dataclass(frozen=True)
class Kiln:
    """2 FeO(OH) -> Fe2O3 + H2O: the yellows come from ``first`` and ``second`` (the same place
    when it holds two); the red takes the first yellow's place; the player gains one water."""

    first: Place
    second: Place


@dataclass(frozen=True)
class SpendWater:
    """Two water tokens remove one chip from the Spill Line."""

    chip: Chip


@dataclass(frozen=True)
class Press:
    pan: int


@dataclass(frozen=True)
class Diagnose:
    cause: Cause


@dataclass(frozen=True)
class SwapChip:
    """Remedy: ``pan_chip`` leaves the faulty pan for the Spill Line, ``spill_chip`` takes its
    slot."""

    pan_chip: Chip
    spill_chip: Chip


@dataclass(frozen=True)
class ReturnChip:
    """Remedy: one chip of the faulty pan goes back to the Spill Tray."""

    chip: Chip


@dataclass(frozen=True)
class SkipRemedy:
    pass


@dataclass(frozen=True)
class EndTurn:
    pass


Action = (
    Draft
    | ClaimShade
    | Sift
    | Kiln
    | SpendWater
    | Press
    | Diagnose
    | SwapChip
    | ReturnChip
    | SkipRemedy
    | EndTurn
)
