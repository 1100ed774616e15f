"""Hand-drawn islands for Isle of Colors tests.

One text line per row, one token per column: ``.`` an empty cell, ``G`` ``B`` ``N`` ``R`` a green,
blue, brown (N for nut) or red cell, ``~`` no cell (water). Odd rows may be indented by a space to
look like the hex grid; only the order of the tokens counts.
"""

from __future__ import annotations

from companion.content.isle import default_content
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, Condition, Island, Sheet
from companion.games.isle.scoring import ColourScore, score_condition

TOKENS = {"G": Colour.GREEN, "B": Colour.BLUE, "N": Colour.BROWN, "R": Colour.RED, ".": None}


def draw(picture: str, island_id: str = "drawn") -> Sheet:
    cells: dict[Cell, Colour | None] = {}
    rows = [line.split() for line in picture.strip("\n").splitlines() if line.strip()]
    for row, tokens in enumerate(rows):
        for col, token in enumerate(tokens):
            if token != "~":
                cells[Cell(row, col)] = TOKENS[token]
    island = Island(island_id, island_id, tuple(sorted(cells)))
    filled = {cell: colour for cell, colour in cells.items() if colour is not None}
    return Sheet.from_cells(island, filled)


def default_island() -> Island:
    return default_content().islands["default"]


def on_default(filled: dict[tuple[int, int], Colour]) -> Sheet:
    return Sheet.from_cells(default_island(), {Cell(*k): v for k, v in filled.items()})


def score(picture: str, condition: Condition) -> ColourScore:
    return score_condition(draw(picture), condition)


def points(picture: str, condition: Condition) -> int:
    return score(picture, condition).points
