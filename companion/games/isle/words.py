"""Isle of Colors places in words for people: a cell by its row and its place in the row, counted
from 1 as a player counts them on the sheet (the position's coordinates count from 0)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.words import listed


def cell_words(row: int, column: int) -> str:
    """``row 5, place 8``."""
    return f"row {row + 1}, place {column + 1}"


def cells_words(cells: Sequence[tuple[int, int]]) -> str:
    """``the cell at row 5, place 8``, ``the cells at row 5, place 8 and row 5, place 9``."""
    places = [cell_words(row, column) for row, column in sorted(cells)]
    return f"the cell{'' if len(places) == 1 else 's'} at {listed(places)}"
