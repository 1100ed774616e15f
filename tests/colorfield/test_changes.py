"""Reading what happened between two scans of a canvas: identity, moves, swaps, ambiguity."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.colorfield.changes import CanvasChange, Move, TileIdentity, diff, readings
from companion.games.colorfield.model import SPACES, Canvas, PlacedTile, Tile, TileKind
from tests.colorfield.builders import RULEBOOK_BOARD, tile

# Six inline tiles, no two alike under rotation and none looking the same after a turn.
A = tile("lemon coral navy turquoise")
B = tile("coral:2 lemon navy navy")
C = tile("navy turquoise:3 lemon lemon")
D = tile("turquoise turquoise coral lemon:2")
E = tile("lemon lemon lemon coral")
F = tile("navy coral turquoise:2 turquoise")
NEW = tile("coral coral navy:3 lemon")
SIX = (A, B, C, D, E, F)


def lay(*spaces: Tile | tuple[Tile, int] | None) -> Canvas:
    placed = [
        None if s is None else PlacedTile(*s) if isinstance(s, tuple) else PlacedTile(s)
        for s in spaces
    ]
    return Canvas(RULEBOOK_BOARD, tuple(placed))


FULL = lay(*SIX)


def catalogue(tile_id: str, spec: str, kind: TileKind = TileKind.ROUND1) -> Tile:
    return Tile(tile(spec).edges, tile_id, kind)


def test_identical_canvases_are_unchanged() -> None:
    change = diff(FULL, FULL)
    assert change == CanvasChange()
    assert change.unchanged
    assert change.tokens == 0


def test_rotation_in_place_costs_one_token() -> None:
    change = diff(FULL, lay(A, B, (C, 2), D, E, F))
    assert change.rotated == (3,)
    assert change.moves == ()
    assert (change.rotations, change.swaps, change.tokens) == (1, 0, 1)


def test_two_tiles_exchanged_is_one_swap() -> None:
    change = diff(FULL, lay(D, B, C, A, E, F))
    assert change.moves == (Move(1, 4, False), Move(4, 1, False))
    assert change.moved == (1, 4)
    assert (change.swaps, change.rotations, change.tokens) == (1, 0, 1)


def test_three_cycle_needs_two_swaps() -> None:
    # A goes 1 -> 2, B goes 2 -> 3, C goes 3 -> 1.
    change = diff(FULL, lay(C, A, B, D, E, F))
    assert change.moves == (Move(1, 2, False), Move(2, 3, False), Move(3, 1, False))
    assert (change.swaps, change.tokens) == (2, 2)


def test_two_cycle_and_three_cycle_need_three_swaps() -> None:
    change = diff(FULL, lay(B, A, E, C, D, F))
    assert len(change.moves) == 5
    assert change.swaps == 3


def test_swap_plus_rotation_of_a_moved_tile_costs_two() -> None:
    change = diff(FULL, lay(A, E, C, D, (B, 3), F))
    assert change.moves == (Move(2, 5, True), Move(5, 2, False))
    assert change.turned == (5,)
    assert (change.swaps, change.rotations, change.tokens) == (1, 1, 2)


def test_new_tile_in_an_occupied_space_is_a_replacement() -> None:
    change = diff(FULL, lay(A, (NEW, 3), C, D, E, F))
    assert (change.replaced, change.filled, change.placed) == ((2,), (), (2,))
    # The new tile's rotation is not a rotation of a placed tile.
    assert change.tokens == 0


def test_filled_and_emptied_spaces() -> None:
    change = diff(lay(A, None, C, D, E, F), lay(A, B, C, D, None, F))
    assert (change.filled, change.emptied, change.replaced) == ((2,), (5,), ())


def test_chain_into_a_replaced_space_counts_one_swap_per_moved_tile() -> None:
    # B leaves; A moves from 1 into its space; the new tile lands in 1.
    change = diff(FULL, lay(NEW, A, C, D, E, F))
    assert change.replaced == (1,)
    assert change.moves == (Move(1, 2, False),)
    assert change.swaps == 1
    # Two tiles shifting along into the space C left: two swaps.
    change = diff(FULL, lay(NEW, A, B, D, E, F))
    assert change.moves == (Move(1, 2, False), Move(2, 3, False))
    assert change.swaps == 2


def test_inline_tile_listed_from_another_side_is_the_same_tile() -> None:
    # A's edges read from its east side, turned a quarter: every canvas side shows the same.
    relisted = Tile(A.edges[1:] + A.edges[:1])
    assert diff(FULL, lay((relisted, 1), B, C, D, E, F)).unchanged
    # The same relisting at rotation 0 points A another way: a rotation.
    assert diff(FULL, lay(relisted, B, C, D, E, F)).rotated == (1,)


def test_catalogue_tiles_are_told_apart_by_id_even_with_equal_edges() -> None:
    first = catalogue("R1-01", "lemon coral navy turquoise")
    second = catalogue("R1-02", "lemon coral navy turquoise")
    before = lay(first, second, None, None, None, None)
    change = diff(before, lay(second, first, None, None, None, None))
    assert change.moves == (Move(1, 2, False), Move(2, 1, False))
    assert change.tokens == 1
    assert change.ambiguous == ()


def test_inline_tiles_with_equal_edges_cannot_be_told_apart() -> None:
    before = lay(A, A, None, None, None, None)
    change = diff(before, lay(A, A, None, None, None, None))
    assert change.unchanged
    assert change.ambiguous == (1, 2)


def test_catalogue_rotation_counts_even_when_edges_look_alike() -> None:
    symmetric = catalogue("F-17", "lemon coral lemon coral", TileKind.FOUNDATION)
    change = diff(lay(symmetric, *[None] * 5), lay((symmetric, 2), *[None] * 5))
    assert change.rotated == (1,)
    # Inline, the half turn shows every side the same colours: nothing can be seen to change.
    inline = tile("lemon coral lemon coral")
    assert diff(lay(inline, *[None] * 5), lay((inline, 2), *[None] * 5)).unchanged


def test_an_unread_id_is_not_a_replacement() -> None:
    named = catalogue("R2-05", "navy turquoise:3 lemon lemon")
    before = lay(A, B, named, D, E, F)
    assert TileIdentity.for_scans(before, FULL) == TileIdentity(by_id=False)
    assert diff(before, FULL).unchanged


def test_mixed_scans_compare_catalogue_tiles_by_edges() -> None:
    first = catalogue("R1-01", "lemon coral navy turquoise")
    second = catalogue("R1-02", "lemon coral navy turquoise")
    # One inline tile elsewhere means ids are not trusted; the exchange cannot be proved.
    change = diff(lay(first, second, B, None, None, None), lay(second, first, B, None, None, None))
    assert change.unchanged
    assert change.ambiguous == (1, 2)


def test_identical_tiles_take_the_cheapest_reading() -> None:
    # A at 1 (up) and 2 (turned); afterwards the directions are exchanged: either both were
    # rotated (2 tokens) or the two were swapped (1 token).
    before = lay(A, (A, 1), C, D, E, F)
    after = lay((A, 1), A, C, D, E, F)
    assert sorted(r.tokens for r in readings(before, after)) == [1, 2]
    change = diff(before, after)
    assert change.moves == (Move(1, 2, False), Move(2, 1, False))
    assert change.rotated == ()
    assert change.tokens == 1
    assert change.ambiguous == (1, 2)


def test_a_twin_placed_beside_its_double_is_the_new_tile() -> None:
    change = diff(FULL, lay(A, A, C, D, E, F))
    assert change.replaced == (2,)
    assert change.moves == ()
    assert change.tokens == 0
    assert change.ambiguous == (1, 2)


def test_change_to_json() -> None:
    change = diff(lay(A, B, C, D, E, None), lay(B, (A, 1), C, (NEW, 2), None, F))
    assert change.to_json() == {
        "filled": [6],
        "replaced": [4],
        "emptied": [5],
        "rotated": [],
        "moves": [{"from": 1, "to": 2, "turned": True}, {"from": 2, "to": 1, "turned": False}],
        "swaps": 1,
        "rotations": 1,
        "tokens": 2,
        "ambiguous": [],
    }


def _swaps_by_selection_sort(order: list[int]) -> int:
    """Swaps selection sort makes to put ``order`` back in place: the minimum, counted apart."""
    order = list(order)
    swaps = 0
    for i in range(len(order)):
        j = order.index(i)
        if j != i:
            order[i], order[j] = order[j], order[i]
            swaps += 1
    return swaps


@settings(max_examples=80, deadline=None)
@given(st.permutations(range(6)))
def test_swaps_of_any_permutation_are_minimal(order: list[int]) -> None:
    after = lay(*(SIX[i] for i in order))
    change = diff(FULL, after)
    assert change.swaps == _swaps_by_selection_sort(order)
    assert change.rotations == 0
    assert len(change.moves) == sum(1 for space, i in enumerate(order) if space != i)


POOL = (A, B, tile("lemon coral lemon coral"))


@st.composite
def shuffled_pair(draw: st.DrawFn) -> tuple[Canvas, Canvas]:
    """A canvas of tiles from a small pool (so twins are common) and a rearrangement of it."""
    tiles = draw(st.lists(st.sampled_from(POOL), min_size=6, max_size=6))
    turns = draw(st.lists(st.integers(0, 3), min_size=6, max_size=6))
    order = draw(st.permutations(range(6)))
    new_turns = draw(st.lists(st.integers(0, 3), min_size=6, max_size=6))
    before = lay(*zip(tiles, turns, strict=True))
    after = lay(*((tiles[i], new_turns[i]) for i in order))
    return before, after


@settings(max_examples=60, deadline=None)
@given(shuffled_pair())
def test_tokens_are_the_same_both_ways(pair: tuple[Canvas, Canvas]) -> None:
    before, after = pair
    forward, backward = diff(before, after), diff(after, before)
    assert forward.tokens == backward.tokens
    assert forward.placed == backward.placed == ()
    assert forward.ambiguous == backward.ambiguous


@settings(max_examples=60, deadline=None)
@given(shuffled_pair())
def test_diff_is_the_cheapest_reading(pair: tuple[Canvas, Canvas]) -> None:
    before, after = pair
    assert diff(before, after).tokens == min(r.tokens for r in readings(before, after))
    assert all(r.placed == () and r.emptied == () for r in readings(before, after))


def test_six_identical_tiles_read_as_unchanged() -> None:
    # Six identical tiles in both scans: 720 readings, all of them free when nothing moved.
    six = lay(*[A] * 6)
    assert sum(1 for _ in readings(six, six)) == 720
    assert diff(six, six).unchanged
    assert diff(six, six).ambiguous == SPACES
