"""Every printed component of a game, built from its content catalogue, and the marker index
that tells a reader which component (and which corner of it) a detected id belongs to."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from companion.content import colorfield, isle, paintings, pigments
from companion.errors import AtelierError
from vision.layout import boards, pieces
from vision.layout.ids import BOARD_KINDS, PAINTINGS_PER_PLAYER
from vision.layout.model import Layout, MarkerSpec

GAMES = ("colorfield", "paintings", "isle", "pigments", "calibration")


def _colorfield() -> tuple[Layout, ...]:
    content = colorfield.default_content()
    canvases = list(content.canvases.values())
    seats = next(b.copies for b in BOARD_KINDS if b.kind == "canvas")
    if len(canvases) > seats:
        raise AtelierError(
            f"colorfield: {len(canvases)} canvas boards, but markers exist for {seats}"
        )
    layouts = [boards.canvas_board(board, seat) for seat, board in enumerate(canvases, 1)]
    layouts += [pieces.tile(t, i) for i, t in enumerate(content.tiles.values())]
    return tuple(layouts)


def _paintings() -> tuple[Layout, ...]:
    content = paintings.default_content()
    layouts = [
        boards.painting_mat(seat, painting)
        for seat in range(1, 6)
        for painting in range(1, PAINTINGS_PER_PLAYER + 1)
    ]
    layouts.append(boards.art_row())
    layouts += [pieces.art_card(card, i) for i, card in enumerate(content.deck())]
    return tuple(layouts)


def _isle() -> tuple[Layout, ...]:
    island = isle.default_content().islands["default"]
    return tuple(boards.isle_sheet(island, seat) for seat in range(1, 5))


def _pigments() -> tuple[Layout, ...]:
    content = pigments.default_content()
    layouts = [boards.palette_board(seat) for seat in range(1, 5)] + [boards.market_sheet()]
    layouts += [pieces.shade_card(s, i) for i, s in enumerate(content.shades.values())]
    for index, card in enumerate(content.faults):
        layouts += pieces.fault_card_sides(card, index + 1, index)
    return tuple(layouts)


def _calibration() -> tuple[Layout, ...]:
    return (boards.reference_card(),)


BUILDERS: Mapping[str, Callable[[], tuple[Layout, ...]]] = MappingProxyType(
    {
        "colorfield": _colorfield,
        "paintings": _paintings,
        "isle": _isle,
        "pigments": _pigments,
        "calibration": _calibration,
    }
)


@cache
def layouts(game: str) -> tuple[Layout, ...]:
    """Every component of ``game`` (or ``calibration``) in the default content, parsed once."""
    if game not in BUILDERS:
        raise AtelierError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return BUILDERS[game]()


@dataclass(frozen=True)
class MarkerOwner:
    layout: Layout
    marker: MarkerSpec


@cache
def marker_index() -> Mapping[int, MarkerOwner]:
    """Marker id -> the component it is printed on, over every game."""
    index: dict[int, MarkerOwner] = {}
    for game in GAMES:
        for layout in layouts(game):
            for marker in layout.markers:
                if marker.id in index:
                    other = index[marker.id].layout.key
                    raise AssertionError(f"marker {marker.id} on both {other} and {layout.key}")
                index[marker.id] = MarkerOwner(layout, marker)
    return MappingProxyType(index)
