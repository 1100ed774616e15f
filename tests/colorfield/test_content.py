"""The default Color Field catalogue: complete, valid and balanced as docs/colorfield.md says."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from companion.content.colorfield import default_content
from companion.games.colorfield.model import Colour, Side, TileKind

EXPECTED_MULTIPLIERS = {
    TileKind.FOUNDATION: {1: 192},
    TileKind.ROUND1: {1: 84, 2: 12},
    TileKind.ROUND2: {1: 64, 2: 24, 3: 8},
    TileKind.ROUND3: {1: 44, 2: 28, 3: 24},
}


def test_deck_sizes() -> None:
    content = default_content()
    assert len(content.deck(TileKind.FOUNDATION)) == 48
    for kind in (TileKind.ROUND1, TileKind.ROUND2, TileKind.ROUND3):
        assert len(content.deck(kind)) == 24
    assert len(content.tiles) == 120
    assert len(content.canvases) == 4
    assert set(content.tools) == {"mahl-stick", "local-collective"}


@pytest.mark.parametrize("kind", list(TileKind))
def test_every_colour_equally_often_with_the_same_multipliers(kind: TileKind) -> None:
    deck = default_content().deck(kind)
    edges = [e for t in deck for e in t.edges]
    assert Counter(e.multiplier for e in edges) == EXPECTED_MULTIPLIERS[kind]
    per_colour = {c: Counter(e.multiplier for e in edges if e.colour is c) for c in Colour}
    first = per_colour[Colour.LEMON]
    assert all(counts == first for counts in per_colour.values())


@pytest.mark.parametrize("kind", list(TileKind))
def test_every_colour_equally_often_on_each_printed_side(kind: TileKind) -> None:
    deck = default_content().deck(kind)
    for side in Side:
        counts = Counter(t.edges[side].colour for t in deck)
        assert len(set(counts.values())) == 1 and len(counts) == 4, (side, counts)


def test_foundation_tiles_carry_the_up_mark_and_others_do_not() -> None:
    content = default_content()
    assert all(t.up_mark for t in content.deck(TileKind.FOUNDATION))
    assert not any(t.up_mark for t in content.deck(TileKind.ROUND1))


def test_canvas_boards_show_each_colour_five_times_and_every_pair() -> None:
    boards = list(default_content().canvases.values())
    for board in boards:
        segments = [*board.top, *board.bottom, *board.left, *board.right]
        assert Counter(c for s in segments for c in s) == dict.fromkeys(Colour, 5)
        pairs = {frozenset(s) for s in segments}
        assert pairs == {frozenset(p) for p in combinations(Colour, 2)}
    layouts = {(b.top, b.bottom, b.left, b.right) for b in boards}
    assert len(layouts) == 4
