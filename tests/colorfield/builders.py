"""Compact builders for Color Field test positions: a tile is written as ``"lNc2nt"``-style text.

``tile("lemon coral:2 navy turquoise")`` gives a tile with those N, E, S, W edges (multiplier after
a colon). Boards and canvases are built from the same short forms.
"""

from __future__ import annotations

from companion.games.colorfield.model import (
    Canvas,
    CanvasBoard,
    Colour,
    Edge,
    PlacedTile,
    Segment,
    Tile,
)


def tile(spec: str) -> Tile:
    edges = []
    for word in spec.split():
        name, _, mult = word.partition(":")
        edges.append(Edge(Colour(name), int(mult) if mult else 1))
    n, e, s, w = edges
    return Tile((n, e, s, w))


def seg(spec: str) -> Segment:
    a, b = spec.split("/")
    return (Colour(a), Colour(b))


def board(top: str, bottom: str, left: str, right: str) -> CanvasBoard:
    t, b, lf, r = (tuple(seg(s) for s in part.split()) for part in (top, bottom, left, right))
    return CanvasBoard(
        top=(t[0], t[1], t[2]),
        bottom=(b[0], b[1], b[2]),
        left=(lf[0], lf[1]),
        right=(r[0], r[1]),
    )


# The board of the rulebook's scoring example (positions.md).
RULEBOOK_BOARD = board(
    "lemon/navy navy/coral turquoise/lemon",
    "navy/lemon lemon/turquoise navy/turquoise",
    "coral/lemon turquoise/navy",
    "coral/navy lemon/turquoise",
)

RULEBOOK_TILES = (
    "lemon coral lemon navy",
    "navy:2 navy:2 turquoise coral",
    "turquoise coral:2 coral:2 navy",
    "navy coral:3 navy turquoise",
    "turquoise coral lemon:2 coral",
    "coral:2 lemon navy coral:2",
)


def canvas(board_: CanvasBoard, *spaces: str | tuple[str, int] | None) -> Canvas:
    placed: list[PlacedTile | None] = []
    for space in spaces:
        if space is None:
            placed.append(None)
        elif isinstance(space, tuple):
            placed.append(PlacedTile(tile(space[0]), space[1]))
        else:
            placed.append(PlacedTile(tile(space), 0))
    return Canvas(board_, tuple(placed))


def rulebook_canvas() -> Canvas:
    return canvas(RULEBOOK_BOARD, *RULEBOOK_TILES)
