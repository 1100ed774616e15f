"""The Isle of Colors islands: each island sheet's cells as data.

The default file is ``isle.json`` beside this module. A user may load their own file of the same
format (``atelier score --deck FILE``): its islands are added to the defaults, and an island with
the id of a default one replaces it. An island lists its rows top to bottom, each as the span
``[first, last]`` of its columns (``null`` for a row without cells), and optionally ``lakes``:
``[row, column]`` cells inside those spans that are not part of the island.
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
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Island

DEFAULT_PATH = Path(__file__).with_name("isle.json")
# Wide enough for any printed sheet; it keeps a typo like 1000 from building a huge island.
MAX_COLUMN = 63
MAX_ROWS = 64


@dataclass(frozen=True)
class IsleContent:
    name: str
    islands: Mapping[str, Island]


def _parse_row(field: Field, row: int) -> list[Cell]:
    if field.is_null():
        return []
    first_field, last_field = field.array(length=2)
    first = first_field.integer(0, MAX_COLUMN)
    last = last_field.integer(0, MAX_COLUMN)
    if last < first:
        raise last_field.error(f"the last column {last} is left of the first {first}")
    return [Cell(row, col) for col in range(first, last + 1)]


def parse_island(field: Field) -> Island:
    members = field.members(required=("id", "rows"), optional=("name", "lakes"))
    island_id = members["id"].string()
    cells = [
        cell
        for row, row_field in enumerate(members["rows"].array(min_len=1, max_len=MAX_ROWS))
        for cell in _parse_row(row_field, row)
    ]
    if "lakes" in members:
        for lake_field in members["lakes"].array():
            row_field, col_field = lake_field.array(length=2)
            lake = Cell(row_field.integer(0), col_field.integer(0))
            if lake not in cells:
                raise lake_field.error(f"cell {lake} is not on the island (or named twice)")
            cells.remove(lake)
    if not cells:
        raise members["rows"].error("an island needs at least one cell")
    name = members["name"].string() if "name" in members else island_id
    return Island(island_id, name, tuple(cells))


def parse_content(document: Any, fallback: IsleContent | None = None) -> IsleContent:
    """Validate an island file; the islands of ``fallback`` stay available unless replaced."""
    members = read_header(document, "isle", "an Isle of Colors island file", required=("islands",))
    islands: dict[str, Island] = {}
    for island_field in members["islands"].array(min_len=1):
        island = parse_island(island_field)
        if island.id in islands:
            raise FieldError(f"{island_field.path}.id", f"duplicate island id {island.id!r}")
        islands[island.id] = island
    merged = dict(fallback.islands) if fallback is not None else {}
    merged.update(islands)
    return IsleContent(name=content_name(members), islands=MappingProxyType(merged))


FILE = ContentFile(DEFAULT_PATH, parse_content)


def default_content() -> IsleContent:
    return FILE.default


def content_for(deck: Path | None) -> IsleContent:
    """The user's islands added to the defaults when a file is given, else the defaults."""
    return FILE.for_deck(deck)
