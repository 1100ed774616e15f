"""Pigment Lab pieces in words for people: a pan by its size (and number among the medium
pans), chips by the colour they look, never by the scanner's names or the Atom Key formulas."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from companion.games.pigments.model import BOARD, PAN_NAMES, Chip, canonical
from companion.words import listed


def pan_label(name: str) -> str:
    """``small pan``, ``medium pan 1``: the pan the scanner names ``name`` (``medium-1``)."""
    size = BOARD[PAN_NAMES.index(name)]
    number = name.partition("-")[2]
    return f"{size.value} pan{f' {number}' if number else ''}"


def chips_words(chips: Iterable[Chip]) -> str:
    """``2 red and 1 binder chips``, ``1 white chip``, in the chips' fixed order; ``no chip``
    for none."""
    counts = Counter(canonical(chips))
    if not counts:
        return "no chip"
    kinds = listed([f"{n} {chip.looks}" for chip, n in counts.items()])
    return f"{kinds} chip{'' if counts.total() == 1 else 's'}"
