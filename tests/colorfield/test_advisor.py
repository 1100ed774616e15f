"""The placement advisor: exact against brute force over every empty space and rotation."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.colorfield.advisor import advise
from companion.games.colorfield.model import Canvas, Colour, Edge, PlacedTile, Tile, TileKind
from companion.games.colorfield.scoring import score_canvas
from tests.colorfield.builders import RULEBOOK_BOARD, RULEBOOK_TILES, canvas, rulebook_canvas, tile


def brute_force(board: Canvas, placing: Tile) -> dict[tuple[int, int], int]:
    """The gain of ``placing`` in every empty space at every rotation, by whole rescoring."""
    before = score_canvas(board).total
    return {
        (space, rotation): score_canvas(
            board.with_space(space, PlacedTile(placing, rotation))
        ).total
        - before
        for space in range(1, 7)
        if board.at(space) is None
        for rotation in range(4)
    }


def random_tile(rng: random.Random) -> Tile:
    n, e, s, w = (Edge(rng.choice(list(Colour)), rng.randint(1, 3)) for _ in range(4))
    return Tile((n, e, s, w))


def test_the_rulebook_tile_goes_back_where_it_was() -> None:
    # Space 4 emptied: its own tile, upright, earns back exactly what it lost.
    full = rulebook_canvas()
    emptied = full.with_space(4, None)
    advice = advise(emptied, tile(RULEBOOK_TILES[3]))
    best = advice.options[0]
    assert (best.space, best.rotation) == (4, 0)
    assert best.gain == score_canvas(full).total - score_canvas(emptied).total == 35 - 28
    assert len(advice.options) == 4
    assert advice.reasons[0].startswith(
        "Place navy/coralx3/navy/turquoise in space 4, upright: +7 points (28 -> 35:"
    )


def test_no_empty_space_gives_no_placement() -> None:
    advice = advise(rulebook_canvas(), tile("lemon lemon lemon lemon"))
    assert advice.options == ()
    assert advice.to_json()["best"] is None
    assert advice.reasons == ("No empty space on the canvas for lemon/lemon/lemon/lemon.",)


def test_a_foundation_tile_is_primed_first_empty_and_upright() -> None:
    board = canvas(RULEBOOK_BOARD, RULEBOOK_TILES[0], None, None, None, None, None)
    foundation = Tile(tile("navy coral navy turquoise").edges, "F-99", TileKind.FOUNDATION)
    advice = advise(board, foundation)
    assert [(o.space, o.rotation) for o in advice.options] == [(2, 0)]
    assert "up-mark" in advice.reasons[-1]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_advice_matches_brute_force(seed: int, empties: int) -> None:
    rng = random.Random(seed)
    empty = set(rng.sample(range(1, 7), empties))
    spaces = [
        None if space in empty else PlacedTile(random_tile(rng), rng.randint(0, 3))
        for space in range(1, 7)
    ]
    board = Canvas(RULEBOOK_BOARD, tuple(spaces))
    placing = random_tile(rng)
    advice = advise(board, placing)
    expected = brute_force(board, placing)
    assert {(o.space, o.rotation): o.gain for o in advice.options} == expected
    assert advice.options[0].gain == max(expected.values())
    gains = [o.gain for o in advice.options]
    assert gains == sorted(gains, reverse=True)
    # Ties: the lowest space, then the smallest rotation.
    best = min(key for key, gain in expected.items() if gain == gains[0])
    assert (advice.options[0].space, advice.options[0].rotation) == best
