"""Paper sizes and the print resolution."""

from __future__ import annotations

from dataclasses import dataclass

DPI = 300
PPM = DPI / 25.4  # pixels per millimetre at 300 dpi
MARGIN_MM = 6.0  # what home printers reliably print to, on every side
GAP_MM = 4.0  # between two components: room to cut each along its own line


@dataclass(frozen=True)
class Paper:
    key: str  # as in file names: "a4", "letter"
    title: str
    size: tuple[float, float]  # portrait width, height in mm


A4 = Paper("a4", "A4", (210.0, 297.0))
LETTER = Paper("letter", "US Letter", (215.9, 279.4))
PAPERS = (A4, LETTER)


def pixels(mm: float) -> int:
    """A length at 300 dpi, to the nearest pixel."""
    return round(mm * PPM)
