"""From position documents to a table plan: each component the position names, matched to the
printed one in the catalogue.

Inline components (a canvas by its segments, a tile by its edges, a card by its slots, a shade by
its recipe) are matched to the first printed component that equals them and is not yet on the
table: a printed component exists once, so a table cannot show it twice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.content import colorfield, isle, paintings, pigments
from companion.errors import FieldError, SourceError
from companion.fields import Field
from companion.games.colorfield.codec import edges_to_json
from companion.games.colorfield.position import parse_canvas
from companion.games.isle.position import parse_position as parse_isle
from companion.games.paintings.position import parse_position as parse_paintings
from companion.games.pigments.model import BOARD, Shade
from companion.games.pigments.position import PalettePosition, PanPosition
from companion.games.pigments.position import parse_position as parse_pigments
from vision.layout.boards import PAN_ORDER
from vision.layout.catalogue import layouts
from vision.layout.model import Layout
from vision.render.plan import BoardPlan, ChipPlan, FillPlan, PiecePlan, TablePlan

PRINTED_ISLAND = "default"


@dataclass
class _Table:
    """What is already on the table while a plan is built: printed components and seats."""

    used: set[str] = field(default_factory=set)
    seats: dict[str, int] = field(default_factory=dict)

    def take(self, layout: Layout, where: Field) -> Layout:
        if layout.key in self.used:
            raise where.error(f"{layout.title} is already on the table (each is printed once)")
        self.used.add(layout.key)
        return layout

    def first_free(self, candidates: Iterable[Layout], where: Field, what: str) -> Layout:
        """The first printed match not yet on the table; ``what`` says what was matched."""
        found = list(candidates)
        if not found:
            raise where.error(f"no printed {what}")
        for layout in found:
            if layout.key not in self.used:
                return self.take(layout, where)
        raise where.error(f"every printed {what} is already on the table")

    def next_seat(self, game: str, kind: str, where: Field) -> int:
        seat = self.seats.get(game, 0) + 1
        printed = len({lay.seat for lay in _by_kind(game, kind)})
        if seat > printed:
            raise where.error(f"a table shows at most {printed} {game} players (printed seats)")
        self.seats[game] = seat
        return seat


def _by_kind(game: str, kind: str) -> list[Layout]:
    return [lay for lay in layouts(game) if lay.kind == kind]


def _board(game: str, kind: str, seat: int, **content: Any) -> Layout:
    return next(
        lay
        for lay in _by_kind(game, kind)
        if lay.seat == seat and all(lay.content.get(k) == v for k, v in content.items())
    )


def _colorfield(root: Field, index: int, table: _Table) -> tuple[BoardPlan, ...]:
    content = colorfield.default_content()
    canvas = parse_canvas(root, content)
    board = canvas.board
    if board.id is not None:
        ids = [board.id]
    else:
        plain = dataclasses.replace(board, id=None)
        ids = [
            board_id
            for board_id, printed in content.canvases.items()
            if dataclasses.replace(printed, id=None) == plain
        ]
    where = root.child("canvas")
    canvases = [lay for lay in _by_kind("colorfield", "canvas") if lay.content["board"] in ids]
    layout = table.first_free(canvases, where, "canvas board with these segments")
    pieces = []
    spaces = root.child("spaces")
    tiles = _by_kind("colorfield", "tile")
    for number, placed in enumerate(canvas.spaces, 1):
        if placed is None:
            continue
        at = spaces.array()[number - 1]
        if placed.tile.id is not None:
            tile = table.take(next(t for t in tiles if t.content["tile"] == placed.tile.id), at)
        else:
            edges = edges_to_json(placed.tile.edges)
            matching = (t for t in tiles if t.content["edges"] == edges)
            tile = table.first_free(matching, at, "tile with these edges")
        pieces.append(PiecePlan(tile, f"space {number}", placed.rotation))
    return (BoardPlan(layout, index, tuple(pieces)),)


def _paintings(root: Field, index: int, table: _Table) -> tuple[BoardPlan, ...]:
    position = parse_paintings(root, paintings.default_content())
    seat = table.next_seat("paintings", "mat", root)
    cards = _by_kind("paintings", "art-card")
    places = ("card bottom", "card middle", "card top")
    boards = []
    for number, painting in enumerate(position.paintings, 1):
        pieces = []
        for slot, (card, place) in enumerate(zip(painting.cards, places, strict=True)):
            at = root.child("paintings").array()[number - 1].array()[slot]
            if card.id is not None:
                printed = table.take(next(c for c in cards if c.content["card"] == card.id), at)
            else:
                slots = [[icon.value for icon in s] for s in card.slots]
                matching = (c for c in cards if c.content["slots"] == slots)
                printed = table.first_free(matching, at, "art card with these slots")
            pieces.append(PiecePlan(printed, place))
        mat = table.take(_board("paintings", "mat", seat, painting=number), root)
        boards.append(BoardPlan(mat, index, tuple(pieces)))
    return tuple(boards)


def _isle(root: Field, index: int, table: _Table) -> tuple[BoardPlan, ...]:
    position = parse_isle(root, isle.default_content())
    if position.sheet.island.id != PRINTED_ISLAND:
        raise root.child("island").error(
            f"island {position.sheet.island.id!r} has no printed sheet "
            f"(printed: {PRINTED_ISLAND!r})"
        )
    seat = table.next_seat("isle", "sheet", root)
    fills = tuple(
        FillPlan(f"cell {cell.row},{cell.col}", colour.value)
        for cell, colour in position.sheet.filled()
    )
    return (BoardPlan(table.take(_board("isle", "sheet", seat), root), index, fills=fills),)


def _shade_layout(shade: Shade, where: Field, table: _Table) -> Layout:
    recipe = [chip.value for chip in shade.recipe]
    matching = (s for s in _by_kind("pigments", "shade") if s.content["recipe"] == recipe)
    return table.first_free(matching, where, f"shade card with the recipe {' + '.join(recipe)}")


def _pigments(root: Field, index: int, table: _Table) -> tuple[BoardPlan, ...]:
    position = parse_pigments(root, pigments.default_content().shades)
    if isinstance(position, PanPosition):
        # One pan: a palette with that pan filled, the first of its size in board order.
        first = BOARD.index(position.pan.size)
        pans: list[tuple[PanPosition | None, Field]] = [(None, root)] * len(BOARD)
        pans[first] = (position, root.child("shade") if "shade" in root.value else root)
    elif isinstance(position, PalettePosition):
        entries = root.child("pans").array()
        pans = [(pan, entry) for pan, entry in zip(position.pans, entries, strict=True)]
    else:
        raise root.error(
            "a final tally lists no components to draw: give a pan ('pan') or a palette ('pans')"
        )
    seat = table.next_seat("pigments", "palette", root)
    chips: list[ChipPlan] = []
    pieces: list[PiecePlan] = []
    for (name, size), (pan, where) in zip(PAN_ORDER, pans, strict=True):
        if pan is None:
            continue
        slots = [f"{name} window {k}" for k in range(1, size.windows + 1)]
        slots += [f"{name} binder {k}" for k in range(1, size.binder_slots + 1)]
        chips += [
            ChipPlan(chip.value, slot) for chip, slot in zip(pan.pan.chips, slots, strict=False)
        ]
        if pan.shade is not None:
            pieces.append(PiecePlan(_shade_layout(pan.shade, where, table), f"shade {name}"))
    palette = table.take(_board("pigments", "palette", seat), root)
    return (BoardPlan(palette, index, tuple(pieces), tuple(chips)),)


def _calibration(root: Field, index: int, table: _Table) -> tuple[BoardPlan, ...]:
    """``{"game": "calibration"}``: the colour reference card, lying on the table."""
    root.members(required=("game",))
    (card,) = layouts("calibration")
    return (BoardPlan(table.take(card, root), index),)


PLANNERS: Mapping[str, Callable[[Field, int, _Table], tuple[BoardPlan, ...]]] = MappingProxyType(
    {
        "colorfield": _colorfield,
        "paintings": _paintings,
        "isle": _isle,
        "pigments": _pigments,
        "calibration": _calibration,
    }
)


def _game(root: Field) -> str:
    if not isinstance(root.value, dict):
        raise root.error('expected a position object with a "game" key')
    if "game" not in root.value:
        path = f"{root.path}.game" if root.path else "game"
        raise FieldError(path, "missing (which game is this position for?)")
    name = root.child("game").string()
    if name not in PLANNERS:
        raise root.child("game").error(f"unknown game {name!r} (known: {', '.join(PLANNERS)})")
    return name


def plan_table(document: Any, source: str) -> TablePlan:
    """The plan of one position document, or of ``{"table": [positions...]}``; any mistake is
    reported against ``source`` with the path of the offending field."""
    root = Field(document)
    try:
        if isinstance(document, dict) and "table" in document:
            entries = root.members(required=("table",))["table"].array(min_len=1)
        else:
            entries = [root]
        table = _Table()
        groups = tuple(
            PLANNERS[_game(entry)](entry, index, table) for index, entry in enumerate(entries)
        )
    except FieldError as exc:
        raise SourceError(source, exc) from None
    return TablePlan(tuple(entry.value for entry in entries), groups)
