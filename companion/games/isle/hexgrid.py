"""Hex geometry in "odd-r" offset coordinates (row, column): odd rows sit half a cell right.

Neighbours follow games.md section 3 exactly. Distances and straight lines are computed in axial
coordinates (q, r), where the three axes are plain vector steps.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class Cell(NamedTuple):
    """One hex cell by its offset coordinates."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"({self.row}, {self.col})"


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six grid neighbours of ``cell``, on the island or not (games.md order)."""
    y, x = cell
    if y % 2 == 0:
        around = ((y, x - 1), (y, x + 1), (y - 1, x - 1), (y - 1, x), (y + 1, x - 1), (y + 1, x))
    else:
        around = ((y, x - 1), (y, x + 1), (y - 1, x), (y - 1, x + 1), (y + 1, x), (y + 1, x + 1))
    return tuple(Cell(r, c) for r, c in around)


def to_axial(cell: Cell) -> tuple[int, int]:
    """Axial (q, r) of an odd-r offset cell."""
    return cell.col - (cell.row - (cell.row & 1)) // 2, cell.row


def from_axial(q: int, r: int) -> Cell:
    return Cell(r, q + (r - (r & 1)) // 2)


def distance(a: Cell, b: Cell) -> int:
    """Hex distance on the grid: the fewest steps between two cells, water or not."""
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


class Axis(Enum):
    """The three straight directions through a hex grid, as axial steps (q, r)."""

    EAST_WEST = (1, 0)
    NORTHWEST_SOUTHEAST = (0, 1)
    NORTHEAST_SOUTHWEST = (-1, 1)

    @property
    def words(self) -> str:
        return self.name.lower().replace("_", "-")


def step(cell: Cell, axis: Axis, sign: int = 1) -> Cell:
    """The next cell along ``axis`` (``sign`` -1 goes the other way)."""
    q, r = to_axial(cell)
    dq, dr = axis.value
    return from_axial(q + sign * dq, r + sign * dr)
