"""Reading and writing a Color Field position (positions.md, "colorfield — one canvas")."""

from __future__ import annotations

from typing import Any

from companion.content.colorfield import ColorFieldContent
from companion.fields import Field
from companion.games.colorfield.codec import (
    board_to_json,
    parse_board_sides,
    parse_edges,
    placed_to_json,
)
from companion.games.colorfield.model import SPACES, Canvas, CanvasBoard, PlacedTile, Tile


def parse_board(field: Field, content: ColorFieldContent) -> CanvasBoard:
    """An inline board, optionally with its catalogue ``id``, or a catalogue id alone."""
    if isinstance(field.value, str):
        return field.lookup(content.canvases, "canvas board")
    members = field.members(required=("top", "bottom", "left", "right"), optional=("id",))
    board_id = members["id"].string() if "id" in members else None
    board = parse_board_sides(members, board_id)
    if board_id is not None:
        known = members["id"].lookup(content.canvases, "canvas board")
        if known != board:
            raise members["id"].error(
                f"the segments given differ from catalogue board {board_id!r}"
            )
    return board


def parse_space(field: Field, content: ColorFieldContent) -> PlacedTile | None:
    """``null``, ``{"edges", "rotation"}``, ``{"tile", "rotation"}``, or both (must agree)."""
    if field.is_null():
        return None
    members = field.members(optional=("edges", "rotation", "tile"))
    if "edges" not in members and "tile" not in members:
        raise field.error("a space needs 'edges' or 'tile' (or null when empty)")
    rotation = members["rotation"].integer(0, 3) if "rotation" in members else 0
    if "tile" not in members:
        return PlacedTile(Tile(parse_edges(members["edges"])), rotation)
    catalogue: Tile = members["tile"].lookup(content.tiles, "tile")
    if "edges" in members and parse_edges(members["edges"]) != catalogue.edges:
        raise members["edges"].error(f"do not match catalogue tile {catalogue.id!r}")
    return PlacedTile(catalogue, rotation)


def parse_tile(field: Field, content: ColorFieldContent) -> Tile:
    """A tile to place: a catalogue id, or ``{"edges": [...]}`` as printed."""
    if isinstance(field.value, str):
        tile: Tile = field.lookup(content.tiles, "tile")
        return tile
    members = field.members(required=("edges",))
    return Tile(parse_edges(members["edges"]))


def parse_position(field: Field, content: ColorFieldContent) -> tuple[Canvas, Tile | None]:
    """A whole position document (its ``game`` key already checked by the dispatcher) and the
    optional ``tile`` the player holds to place."""
    members = field.members(required=("game", "canvas", "spaces"), optional=("tile",))
    board = parse_board(members["canvas"], content)
    spaces = tuple(parse_space(f, content) for f in members["spaces"].array(length=len(SPACES)))
    tile = parse_tile(members["tile"], content) if "tile" in members else None
    return Canvas(board, spaces), tile


def parse_canvas(field: Field, content: ColorFieldContent) -> Canvas:
    """The canvas of a whole position document."""
    return parse_position(field, content)[0]


def canvas_to_json(canvas: Canvas) -> dict[str, Any]:
    return {
        "game": "colorfield",
        "canvas": board_to_json(canvas.board),
        "spaces": [placed_to_json(p) for p in canvas.spaces],
    }
