"""Legality between two scans of a canvas: each rule legal and broken, at its thresholds."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content.colorfield import default_content
from companion.games.colorfield.changes import diff
from companion.games.colorfield.legality import (
    Transition,
    Violation,
    check,
    check_turn_count,
)
from companion.games.colorfield.model import Canvas, PlacedTile, Tile
from tests.colorfield.builders import RULEBOOK_BOARD, tile

TILES = default_content().tiles
F1, F2, F3, F4, F5, F6 = (TILES[f"F-0{i}"] for i in range(1, 7))
R1, R2 = TILES["R1-01"], TILES["R1-02"]
K1, K2 = TILES["R2-01"], TILES["R2-02"]  # tiles kept from an earlier round


def lay(*spaces: Tile | tuple[Tile, int] | None) -> Canvas:
    placed = [
        None if s is None else PlacedTile(*s) if isinstance(s, tuple) else PlacedTile(s)
        for s in spaces
    ]
    return Canvas(RULEBOOK_BOARD, tuple(placed))


EMPTY = lay(None, None, None, None, None, None)
FULL = lay(F1, F2, F3, F4, F5, F6)
PRIMING = Transition.priming()


def rules(found: tuple[Violation, ...]) -> list[tuple[str, tuple[int, ...]]]:
    return [(v.rule, v.spaces) for v in found]


# Priming


def test_priming_the_first_spaces_in_order_is_legal() -> None:
    assert check(EMPTY, lay(F1, F2, F3, None, None, None), PRIMING) == ()
    assert check(EMPTY, FULL, PRIMING) == ()


def test_priming_that_skips_a_space_breaks_the_order() -> None:
    (found,) = check(EMPTY, lay(F1, None, F3, None, None, None), PRIMING)
    assert found == Violation(
        "priming-order",
        (2, 3),
        "priming fills empty spaces in order 1..6, but space 2 was left empty while space 3 "
        "was primed",
    )


def test_priming_around_kept_tiles_fills_the_lowest_empty_spaces() -> None:
    kept = lay(None, K1, None, None, K2, None)
    assert check(kept, lay(F1, K1, F2, None, K2, None), PRIMING) == ()
    assert rules(check(kept, lay(F1, K1, None, F2, K2, None), PRIMING)) == [
        ("priming-order", (3, 4))
    ]


def test_foundation_tile_primed_turned_breaks_the_up_mark() -> None:
    (found,) = check(EMPTY, lay((F1, 1), None, None, None, None, None), PRIMING)
    assert found == Violation(
        "up-mark",
        (1,),
        # F-01 prints lemon, lemon, lemon, coral (top first): turned right, coral shows on top.
        "Foundation tiles are primed with the up-mark to the top, but space 1 holds the "
        "coral/lemon tile with its up-mark to the right",
    )


def test_priming_with_a_round_tile_is_refused() -> None:
    (found,) = check(EMPTY, lay(F1, R1, None, None, None, None), PRIMING)
    assert found == Violation(
        "priming-foundation",
        (2,),
        "priming uses Foundation tiles only, but space 2 holds the lemon/coral tile from the "
        "Round 1 deck",
    )


def test_inline_tiles_cannot_be_judged_for_deck_or_up_mark() -> None:
    inline = tile("lemon coral navy turquoise")
    assert check(EMPTY, lay((inline, 2), None, None, None, None, None), PRIMING) == ()


def test_priming_must_leave_placed_tiles_alone() -> None:
    kept = lay(None, K1, None, None, None, None)
    (found,) = check(kept, lay(F1, (K1, 1), None, None, None, None), PRIMING)
    assert found == Violation(
        "priming-change", (2,), "priming only fills empty spaces, but space 2 changed"
    )


# Turns


def test_one_replacement_per_turn_with_any_rotation_is_legal() -> None:
    assert check(FULL, lay(F1, (R1, 3), F3, F4, F5, F6), Transition.turn(0)) == ()


def test_two_replacements_in_one_turn_are_refused() -> None:
    (found,) = check(FULL, lay(F1, R1, F3, F4, R2, F6), Transition.turn(3))
    assert found == Violation(
        "one-tile-per-turn", (2, 5), "a turn places one tile, but new tiles appeared in spaces 2, 5"
    )


def test_three_cycle_with_exactly_two_tokens_is_paid() -> None:
    cycled = lay(F3, F1, F2, F4, F5, F6)
    assert check(FULL, cycled, Transition.turn(2)) == ()


def test_three_cycle_one_token_short_is_unpaid() -> None:
    cycled = lay(F3, F1, F2, F4, F5, F6)
    (found,) = check(FULL, cycled, Transition.turn(1))
    assert found == Violation(
        "unpaid-swap",
        (1, 2, 3),
        "2 swaps (spaces 1, 2, 3) need 2 Inspiration tokens, but only 1 is left",
    )


def test_rotation_without_a_token_is_unpaid() -> None:
    rotated = lay(F1, F2, F3, (F4, 2), F5, F6)
    assert check(FULL, rotated, Transition.turn(1)) == ()
    (found,) = check(FULL, rotated, Transition.turn(0))
    assert found == Violation(
        "unpaid-rotation",
        (4,),
        "1 rotate (space 4) needs 1 Inspiration token, but none is left",
    )


def test_swap_plus_rotation_needs_two_tokens() -> None:
    after = lay(F1, F5, F3, F4, (F2, 1), F6)
    assert check(FULL, after, Transition.turn(2)) == ()
    (found,) = check(FULL, after, Transition.turn(1))
    assert found == Violation(
        "unpaid-inspiration",
        (2, 5),
        "1 rotate (space 5) and 1 swap (spaces 2, 5) need 2 Inspiration tokens, but only 1 is left",
    )


def test_placement_then_shifting_the_old_tile_costs_one_swap() -> None:
    # F2 leaves; F1 moves over into space 2 and the new tile takes space 1.
    after = lay(R1, F1, F3, F4, F5, F6)
    assert check(FULL, after, Transition.turn(1)) == ()
    assert rules(check(FULL, after, Transition.turn(0))) == [("unpaid-swap", (1, 2))]


def test_a_turn_cannot_empty_a_space() -> None:
    (found,) = check(FULL, lay(F1, None, F3, F4, F5, F6), Transition.turn(3))
    assert found == Violation(
        "tile-removed",
        (2,),
        "a tile leaves the canvas only when a new tile takes its space, but space 2 was emptied",
    )


def test_several_turn_rules_broken_at_once() -> None:
    after = lay(R1, None, F3, R2, (F5, 1), F6)
    assert rules(check(FULL, after, Transition.turn(0))) == [
        ("one-tile-per-turn", (1, 4)),
        ("tile-removed", (2,)),
        ("unpaid-rotation", (5,)),
    ]


def test_turn_transition_checks_the_turn_count_when_given() -> None:
    after = lay(F1, R1, F3, F4, F5, F6)
    assert check(FULL, after, Transition.turn(0, round_number=2, turn_number=4)) == ()
    assert rules(check(FULL, after, Transition.turn(0, round_number=2, turn_number=5))) == [
        ("turn-count", ())
    ]


# Inspiration outside a turn


def test_paid_swap_between_turns_is_legal() -> None:
    assert check(FULL, lay(F2, F1, F3, F4, F5, F6), Transition.inspiration(1)) == ()


def test_new_tile_between_turns_is_refused() -> None:
    (found,) = check(FULL, lay(F1, F2, R1, F4, F5, F6), Transition.inspiration(3))
    assert found == Violation(
        "placement-outside-turn",
        (3,),
        "new tiles are placed only during a turn, but space 3 received one",
    )


# Reset between rounds


def test_keeping_exactly_the_allowance_unchanged_is_legal() -> None:
    kept = lay(F1, None, None, None, F5, None)
    assert check(FULL, kept, Transition.reset(2)) == ()
    assert check(FULL, EMPTY, Transition.reset(0)) == ()


def test_keeping_one_more_than_the_allowance_is_refused() -> None:
    kept = lay(F1, None, None, None, F5, None)
    (found,) = check(FULL, kept, Transition.reset(1))
    assert found == Violation(
        "keep-allowance", (1, 5), "2 tiles kept (spaces 1, 5), but the allowance is 1"
    )


def test_kept_tile_rotated_during_reset() -> None:
    (found,) = check(FULL, lay((F1, 1), None, None, None, None, None), Transition.reset(1))
    assert found == Violation(
        "kept-tile-changed", (1,), "kept tiles stay exactly as they were, but space 1 was rotated"
    )


def test_kept_tile_moved_during_reset() -> None:
    (found,) = check(FULL, lay(None, None, None, (F1, 3), None, None), Transition.reset(1))
    assert found == Violation(
        "kept-tile-changed",
        (1, 4),
        "kept tiles stay exactly as they were, but the tile from space 1 moved to space 4 and "
        "was rotated",
    )


def test_new_tile_during_reset_is_not_a_kept_tile() -> None:
    found = check(FULL, lay(F1, R1, None, None, None, None), Transition.reset(1))
    assert found == (
        Violation("keep-allowance", (1, 2), "2 tiles kept (spaces 1, 2), but the allowance is 1"),
        Violation(
            "kept-tile-changed",
            (2,),
            "kept tiles stay exactly as they were, but space 2 now holds a tile not kept",
        ),
    )


# Turn count


@pytest.mark.parametrize(
    ("round_number", "turns", "legal"),
    [(1, 5, True), (1, 6, False), (2, 4, True), (2, 5, False), (3, 4, True), (3, 5, False)],
)
def test_turn_count_per_round(round_number: int, turns: int, legal: bool) -> None:
    found = check_turn_count(round_number, turns)
    assert rules(found) == ([] if legal else [("turn-count", ())])


def test_turn_count_message() -> None:
    (found,) = check_turn_count(1, 6)
    assert found.message == "round 1 allows 5 turns per player, but 6 were taken"


def test_turn_count_rejects_an_unknown_round() -> None:
    with pytest.raises(ValueError, match=re.escape("round_number must be 1..3")):
        check_turn_count(4, 1)


# Values


def test_violation_to_json() -> None:
    violation = Violation("unpaid-swap", (1, 4), "1 swap")
    assert violation.to_json() == {"rule": "unpaid-swap", "spaces": [1, 4], "message": "1 swap"}


def test_violation_spaces_must_be_sorted() -> None:
    with pytest.raises(ValueError, match="sorted"):
        Violation("unpaid-swap", (4, 1), "1 swap")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "scoring"}, "unknown transition 'scoring'"),
        ({"kind": "turn", "tokens_left": -1}, "tokens_left cannot be negative"),
        ({"kind": "reset", "keep_allowance": -1}, "keep_allowance cannot be negative"),
        ({"kind": "turn", "round_number": 0}, "round_number must be 1..3"),
        ({"kind": "turn", "turn_number": 0}, "turn_number counts from 1"),
    ],
)
def test_transition_rejects_impossible_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Transition(**kwargs)  # type: ignore[arg-type]


# Invariants

IDS = sorted(TILES)
TWINS = (tile("lemon coral navy turquoise"), tile("navy navy coral:2 lemon"))


@st.composite
def full_canvas(draw: st.DrawFn) -> Canvas:
    """Six distinct catalogue tiles, or inline tiles drawn from two designs (twins abound)."""
    if draw(st.booleans()):
        tiles = [
            TILES[i]
            for i in draw(st.lists(st.sampled_from(IDS), min_size=6, max_size=6, unique=True))
        ]
    else:
        tiles = draw(st.lists(st.sampled_from(TWINS), min_size=6, max_size=6))
    turns = draw(st.lists(st.integers(0, 3), min_size=6, max_size=6))
    return lay(*zip(tiles, turns, strict=True))


SPACE = st.integers(1, 6)
ADJUSTMENT = st.one_of(
    st.tuples(st.just("swap"), SPACE, SPACE).filter(lambda op: op[1] != op[2]),
    st.tuples(st.just("rotate"), SPACE, st.integers(1, 3)),
)


def adjust(canvas: Canvas, op: tuple[str, int, int]) -> Canvas:
    """One paid Inspiration: swap two tiles keeping their rotations, or rotate one in place."""
    kind, space, other = op
    here = canvas.at(space)
    if kind == "rotate":
        assert here is not None
        return canvas.with_space(space, here.rotated(other))
    return canvas.with_space(space, canvas.at(other)).with_space(other, here)


@settings(max_examples=80, deadline=None)
@given(full_canvas(), st.lists(ADJUSTMENT, max_size=5))
def test_paid_adjustments_never_violate(start: Canvas, ops: list[tuple[str, int, int]]) -> None:
    after = start
    for op in ops:
        after = adjust(after, op)
    assert diff(start, after).tokens <= len(ops)
    assert check(start, after, Transition.inspiration(len(ops))) == ()
    assert check(start, after, Transition.turn(len(ops))) == ()


@settings(max_examples=80, deadline=None)
@given(
    full_canvas(),
    st.lists(ADJUSTMENT, max_size=4),
    st.integers(0, 4),
    SPACE,
    st.integers(0, 3),
)
def test_one_placement_among_paid_adjustments_is_a_legal_turn(
    start: Canvas, ops: list[tuple[str, int, int]], when: int, space: int, rotation: int
) -> None:
    placed = PlacedTile(tile("turquoise:3 turquoise:3 coral:3 coral:3"), rotation)
    after = start
    for index, op in enumerate([*ops, None]):
        if index == min(when, len(ops)):
            after = after.with_space(space, placed)
        if op is not None:
            after = adjust(after, op)
    assert len(diff(start, after).placed) == 1
    assert check(start, after, Transition.turn(len(ops))) == ()
    assert rules(check(start, after, Transition.inspiration(len(ops)))) == [
        ("placement-outside-turn", diff(start, after).placed)
    ]


@st.composite
def any_canvas(draw: st.DrawFn) -> Canvas:
    start = draw(full_canvas())
    empty = draw(st.sets(SPACE))
    for space in empty:
        start = start.with_space(space, None)
    return start


@settings(max_examples=60, deadline=None)
@given(any_canvas())
def test_identical_canvases_never_violate(canvas: Canvas) -> None:
    kept = len(canvas.filled())
    for transition in (
        Transition.priming(),
        Transition.turn(0),
        Transition.inspiration(0),
        Transition.reset(kept),
    ):
        assert check(canvas, canvas, transition) == ()
    # One below the allowance is the only thing a reset of an unchanged canvas can break.
    if kept:
        assert rules(check(canvas, canvas, Transition.reset(kept - 1))) == [
            ("keep-allowance", canvas.filled())
        ]
