"""Color Field values to and from their JSON form (positions.md), with path-named errors."""

from __future__ import annotations

from typing import Any

from companion.fields import Field
from companion.games.colorfield.model import (
    SEGMENT_COUNTS,
    CanvasBoard,
    Colour,
    Edge,
    PlacedTile,
    Segment,
    Tile,
    TileKind,
)


def parse_colour(field: Field) -> Colour:
    return field.enum(Colour, "colour")


def parse_edge(field: Field) -> Edge:
    """``[colour, multiplier]``; errors name the edge itself, as in ``spaces[3].edges[1]``."""
    colour, multiplier = field.array(length=2)
    return Edge(
        parse_colour(Field(colour.value, field.path)),
        Field(multiplier.value, field.path).integer(1, 3),
    )


def parse_edges(field: Field) -> tuple[Edge, Edge, Edge, Edge]:
    n, e, s, w = (parse_edge(f) for f in field.array(length=4))
    return (n, e, s, w)


def parse_segment(field: Field) -> Segment:
    a, b = field.array(length=2)
    first, second = parse_colour(a), parse_colour(b)
    if first is second:
        raise b.error(f"a segment shows two different colours, not {first} twice")
    return (first, second)


def parse_board_sides(members: dict[str, Field], board_id: str | None) -> CanvasBoard:
    sides: dict[str, tuple[Segment, ...]] = {
        name: tuple(parse_segment(f) for f in members[name].array(length=count))
        for name, count in SEGMENT_COUNTS.items()
    }
    return CanvasBoard(
        top=(sides["top"][0], sides["top"][1], sides["top"][2]),
        bottom=(sides["bottom"][0], sides["bottom"][1], sides["bottom"][2]),
        left=(sides["left"][0], sides["left"][1]),
        right=(sides["right"][0], sides["right"][1]),
        id=board_id,
    )


def parse_catalogue_tile(field: Field) -> Tile:
    """A tile entry of a content file: ``{"id", "kind", "edges"}``."""
    members = field.members(required=("id", "kind", "edges"))
    return Tile(
        edges=parse_edges(members["edges"]),
        id=members["id"].string(),
        kind=members["kind"].enum(TileKind, "tile kind"),
    )


def edges_to_json(edges: tuple[Edge, ...]) -> list[list[Any]]:
    return [[e.colour.value, e.multiplier] for e in edges]


def board_to_json(board: CanvasBoard) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if board.id is not None:
        out["id"] = board.id
    for name in SEGMENT_COUNTS:
        out[name] = [[a.value, b.value] for a, b in getattr(board, name)]
    return out


def placed_to_json(placed: PlacedTile | None) -> dict[str, Any] | None:
    if placed is None:
        return None
    out: dict[str, Any] = {"edges": edges_to_json(placed.tile.edges), "rotation": placed.rotation}
    if placed.tile.id is not None:
        out["tile"] = placed.tile.id
    return out
