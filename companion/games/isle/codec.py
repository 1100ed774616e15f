"""Isle of Colors values to and from their JSON form (positions.md), with path-named errors."""

from __future__ import annotations

from typing import Any

from companion.fields import Field
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import CONDITIONS, Colour, Condition, Conditions, Island, Sheet


def parse_colour(field: Field) -> Colour:
    return field.enum(Colour, "colour")


def parse_condition(field: Field, colour: Colour) -> Condition:
    condition = field.enum(Condition, "condition")
    if condition.colour is not colour:
        allowed = ", ".join(CONDITIONS[colour])
        raise field.error(
            f"{condition.value!r} is a {condition.colour} condition, not {colour} "
            f"({colour} has: {allowed})"
        )
    return condition


def parse_conditions(field: Field) -> Conditions:
    """``{"green": "grass", "blue": "river", "brown": "caves", "red": "town"}``."""
    members = field.members(required=tuple(c.value for c in Colour))
    return Conditions.from_mapping(
        {colour: parse_condition(members[colour.value], colour) for colour in Colour}
    )


def _island_cell(field: Field, island: Island, row: int, col: int) -> Cell:
    cell = Cell(row, col)
    if cell not in island:
        raise field.error(f"cell {cell} is not on island {island.id!r}")
    return cell


def parse_cells(field: Field, island: Island) -> Sheet:
    """The filled cells as ``[row, column, colour]``; a cell off the island or twice is an error."""
    filled: dict[Cell, Colour] = {}
    first_seen: dict[Cell, str] = {}
    for entry in field.array():
        row_field, col_field, colour_field = entry.array(length=3)
        cell = _island_cell(entry, island, row_field.integer(), col_field.integer())
        if cell in filled:
            raise entry.error(f"cell {cell} is listed twice (first at {first_seen[cell]})")
        filled[cell] = parse_colour(colour_field)
        first_seen[cell] = entry.path
    return Sheet.from_cells(island, filled)


def conditions_to_json(conditions: Conditions) -> dict[str, str]:
    return {colour.value: condition.value for colour, condition in conditions.items()}


def cell_to_json(cell: Cell) -> list[int]:
    return [cell.row, cell.col]


def cells_to_json(sheet: Sheet) -> list[list[Any]]:
    return [[cell.row, cell.col, colour.value] for cell, colour in sheet.filled()]
