"""The Color Field catalogue: canvas boards, paint tiles and Community Tools cards.

The default catalogue is ``colorfield.json`` beside this module; a user may load their own
file of the same format (``atelier score --deck FILE``). Sections a user file leaves out
(canvases, community tools) fall back to the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.content.files import ContentFile, content_name, read_header
from companion.errors import FieldError
from companion.fields import Field
from companion.games.colorfield.codec import parse_board_sides, parse_catalogue_tile
from companion.games.colorfield.model import CanvasBoard, Tile, TileKind

DEFAULT_PATH = Path(__file__).with_name("colorfield.json")


@dataclass(frozen=True)
class ToolCard:
    """A Community Tools card: its effect is named data, resolved by the game's effect table."""

    id: str
    name: str
    effect: str
    params: Mapping[str, int]
    text: str


@dataclass(frozen=True)
class ColorFieldContent:
    name: str
    canvases: Mapping[str, CanvasBoard]
    tiles: Mapping[str, Tile]
    tools: Mapping[str, ToolCard]

    def deck(self, kind: TileKind) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles.values() if t.kind is kind)


def _unique(entries: list[tuple[Field, str, Any]], what: str) -> Mapping[str, Any]:
    table: dict[str, Any] = {}
    for field, key, value in entries:
        if key in table:
            raise field.error(f"duplicate {what} id {key!r}")
        table[key] = value
    return MappingProxyType(table)


def _parse_tile(field: Field) -> tuple[Field, str, Tile]:
    tile = parse_catalogue_tile(field)
    return field.child("id"), tile.id or "", tile


def _parse_canvas(field: Field) -> tuple[Field, str, CanvasBoard]:
    members = field.members(required=("id", "top", "bottom", "left", "right"))
    board_id = members["id"].string()
    return members["id"], board_id, parse_board_sides(members, board_id)


def _parse_tool(field: Field) -> tuple[Field, str, ToolCard]:
    members = field.members(required=("id", "name", "effect", "text"), optional=("params",))
    params: dict[str, int] = {}
    if "params" in members:
        params = {key: value.integer() for key, value in members["params"].items()}
    card = ToolCard(
        id=members["id"].string(),
        name=members["name"].string(),
        effect=members["effect"].string(),
        params=MappingProxyType(params),
        text=members["text"].string(),
    )
    return members["id"], card.id, card


def parse_content(document: Any, fallback: ColorFieldContent | None = None) -> ColorFieldContent:
    """Validate a catalogue document; sections it omits come from ``fallback``."""
    members = read_header(
        document,
        "colorfield",
        "a Color Field catalogue",
        required=("tiles",),
        optional=("canvases", "community_tools"),
    )
    tiles = _unique([_parse_tile(f) for f in members["tiles"].array(min_len=1)], "tile")
    if "canvases" in members:
        canvases = _unique(
            [_parse_canvas(f) for f in members["canvases"].array(min_len=1)], "canvas"
        )
    elif fallback is not None:
        canvases = fallback.canvases
    else:
        raise FieldError("canvases", "missing")
    if "community_tools" in members:
        tools = _unique([_parse_tool(f) for f in members["community_tools"].array()], "card")
    else:
        tools = fallback.tools if fallback is not None else MappingProxyType({})
    return ColorFieldContent(
        name=content_name(members), canvases=canvases, tiles=tiles, tools=tools
    )


FILE = ContentFile(DEFAULT_PATH, parse_content)


def default_content() -> ColorFieldContent:
    return FILE.default


def content_for(deck: Path | None) -> ColorFieldContent:
    """The user's catalogue over the defaults when one is given, else the defaults."""
    return FILE.for_deck(deck)
