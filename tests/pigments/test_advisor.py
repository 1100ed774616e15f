"""The draft advisor: exact advice on hand-made palettes, and a brute force on random ones that
plays every draft through the engine and scores the objective of the advisor's docstring anew."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from companion.errors import IllegalActionError
from companion.games.pigments.actions import ClaimShade, Draft
from companion.games.pigments.advisor import Advice, advise, fault_when_full
from companion.games.pigments.checker import check_pan
from companion.games.pigments.faults import Cause
from companion.games.pigments.game import apply
from companion.games.pigments.model import BOARD, Chip, Pan, PanSize, Shade
from companion.games.pigments.position import Drafts
from companion.games.pigments.state import BoardPan, GameState, PlayerState
from tests.pigments.builders import (
    LARGE,
    MEDIUM,
    SMALL,
    B,
    R,
    T,
    U,
    Y,
    catalogue,
    pan,
    shade,
    table,
)

EMPTY = (pan(SMALL), pan(MEDIUM), pan(MEDIUM), pan(LARGE))
# A board whose every pan presses: white, coral, mint, sage.
PRESSING = (
    pan(SMALL, T, B, shade_name="white"),
    pan(MEDIUM, R, Y, B, shade_name="coral"),
    pan(MEDIUM, U, Y, B, shade_name="mint"),
    pan(LARGE, U, Y, T, B, B, shade_name="sage"),
)


def run(
    board: tuple[BoardPan, ...],
    crates: tuple[tuple[Chip, ...], ...] = (),
    tray: tuple[Chip, ...] = (),
    line: int = 0,
    row: tuple[str, ...] | None = None,
) -> Advice:
    shades = None if row is None else tuple(shade(name) for name in row)
    return advise(board, Drafts(crates, tray, line, shades))


def test_overflow_onto_the_spill_line_is_charged_at_this_rounds_count() -> None:
    board = (pan(SMALL), pan(MEDIUM, R, B, shade_name="coral"), pan(MEDIUM), pan(LARGE))
    advice = run(board, crates=((Y, Y, Y),), line=2)
    best = advice.best
    # One FeO(OH) presses coral (10/3 -> 5); the other two are the line's 3rd and 4th chips.
    assert (best.crate, best.colour, best.taken, best.pan, best.placed) == (0, Y, 3, 1, 1)
    assert (best.spilled, best.spill_cost) == (2, -3)
    assert best.pans[1].pressed
    assert best.value - advice.value_before == Fraction(5, 3) - 3
    data = advice.to_json()
    assert data["best"]["spill"] == {"chips": 2, "line": 4, "cost": -3}
    assert data["best"]["exact"] == {"value": "2", "gain": "-4/3"}
    assert data["best"]["pan_after"]["presses"] is True
    assert "2 chips do not fit and go on the Spill Line (4 chips there this round): -3" in (
        " ".join(advice.reasons)
    )
    # Into the empty small pan without a card: two wrong chips (-2) and the line's 3rd (-1).
    small = next(o for o in advice.options if o.pan == 0)
    assert (small.spilled, small.value - advice.value_before) == (1, Fraction(-3))


def test_a_binder_fault_is_a_risk_of_the_pan_drafted_into() -> None:
    board = (pan(SMALL), pan(MEDIUM, B, shade_name="coral"), pan(MEDIUM), pan(LARGE))
    advice = run(board, crates=((B, B, R),))
    binders = next(o for o in advice.options if o.colour is B and o.pan == 1)
    after = binders.pans[1]
    assert (after.right, after.wrong, after.fault) == (1, 2, Cause.TOO_MUCH_BINDER)
    line = next(o["reason"] for o in advice.to_json()["options"] if o["take"]["chip"] == "binder")
    assert "too much binder when full" in line
    # The best is the red into coral: one more right chip, no risk.
    assert (advice.best.colour, advice.best.pan) == (R, 1)
    assert advice.best.pans[1].fault is None
    assert "No risk: nothing spills, no binder fault, nothing to sift." in advice.reasons


@pytest.mark.parametrize(
    ("size", "chips", "fault"),
    [
        (MEDIUM, (B, B), Cause.TOO_MUCH_BINDER),
        (MEDIUM, (R, Y), None),
        (MEDIUM, (R, Y, T), Cause.NOT_ENOUGH_BINDER),
        (LARGE, (R, R, Y, T), Cause.NOT_ENOUGH_BINDER),
        (LARGE, (B, B, B), Cause.TOO_MUCH_BINDER),
        (LARGE, (B, B), None),
        (SMALL, (), None),
    ],
)
def test_fault_when_full_is_the_binder_rule_on_every_filling(
    size: PanSize, chips: tuple[Chip, ...], fault: Cause | None
) -> None:
    assert fault_when_full(Pan(size, chips)) is fault


def test_claiming_a_shade_for_an_empty_pan_and_ties() -> None:
    advice = run(EMPTY, crates=((R, Y, B),), row=("ochre", "coral", "azure"))
    best = advice.best
    # Coral (2 pigments) fits a medium pan: any of its three chips is a right one, 5/3.
    assert (best.colour, best.pan, best.claim) == (R, 1, shade("coral"))
    assert best.value == Fraction(5, 3)
    tied = [o for o in advice.options if o.value == best.value]
    assert [(o.colour, o.pan) for o in tied] == [(R, 1), (R, 2), (Y, 1), (Y, 2), (B, 1), (B, 2)]
    assert advice.tied == 5
    data = advice.to_json()
    assert data["tied"] == 5
    assert [o["rank"] for o in data["options"][:7]] == [1, 1, 1, 1, 1, 1, 7]
    assert data["best"]["claim"] == "coral" and data["best"]["pan"] == 2
    assert "5 other options are worth the same" in " ".join(advice.reasons)
    # Azure (1 pigment) never presses in a medium pan: worth 0 whatever goes in.
    azure = next(o for o in advice.options if o.claim == shade("azure") and o.pan == 1)
    assert azure.value == 0 and azure.pans[1].dead


def test_no_claim_is_offered_once_two_shades_are_held() -> None:
    board = (
        pan(SMALL),
        pan(MEDIUM, R, shade_name="coral"),
        pan(MEDIUM),
        pan(LARGE, U, shade_name="sage"),
    )
    advice = run(board, crates=((Y, T, B),), row=("ochre", "mint"))
    assert all(o.claim is None for o in advice.options)


def test_a_pan_already_wrong_needs_sifting() -> None:
    board = (PRESSING[0], pan(MEDIUM, U, shade_name="coral"), PRESSING[2], PRESSING[3])
    advice = run(board, crates=((R, Y, T),))
    # Only pan 2 is open: the pressing pans take no chips.
    assert {o.pan for o in advice.options} == {1}
    assert advice.value_before == 2 + 5 + 9 - Fraction(5, 3)
    best = advice.best
    assert (best.colour, best.pans[1].right, best.pans[1].wrong) == (R, 1, 1)
    assert best.value == 16
    assert [o.colour for o in advice.options] == [R, Y, T]
    assert [o.value for o in advice.options] == [16, 16, 16 - Fraction(10, 3)]
    words = " ".join(advice.reasons)
    assert "1 chip in pan 2 is not part of coral" in words
    assert "one sift per turn" in words
    # What the red does for coral, in bands: no recipe.
    assert "Fe2O3 swallows violet, blue, green; coral keeps yellow, orange, red." in words


def test_when_every_pan_is_pressed_the_draft_goes_to_the_spill_line() -> None:
    advice = run(PRESSING, crates=((R, R, Y),))
    assert [(o.colour, o.pan, o.spill_cost) for o in advice.options] == [
        (Y, None, 0),
        (R, None, -1),
    ]


def test_the_json_never_lists_a_recipe() -> None:
    board = (pan(SMALL), pan(MEDIUM, R, shade_name="coral"), pan(MEDIUM), pan(LARGE))
    advice = run(board, crates=((Y, T, B),), tray=(U,), row=("salmon", "mint", "sky"))
    data = advice.to_json()
    assert "recipe" not in json.dumps(data)
    # The only lists of chips are the pans' own chips, which lie in sight on the board.
    assert list_keys(data) == {"options", "reasons", "chips"}


def list_keys(value: object, key: str = "") -> set[str]:
    """The keys under which ``value`` holds lists, at any depth."""
    if isinstance(value, dict):
        return set().union(*(list_keys(v, k) for k, v in value.items()))
    if isinstance(value, list):
        return {key}.union(*(list_keys(v, key) for v in value))
    return set()


def test_an_empty_market_is_refused() -> None:
    with pytest.raises(ValueError, match="no draft is on offer"):
        run(EMPTY, crates=((), ()))


# The brute force: every option through the engine, the objective computed here from scratch.

SPILL_COSTS = (0, -1, -1, -2, -2, -3, -3)
CHIP_ORDER = list(Chip)


def spill_cost(line: int, added: int) -> int:
    return sum(SPILL_COSTS[k] if k < len(SPILL_COSTS) else -3 for k in range(line, line + added))


def pan_value(board_pan: BoardPan) -> Fraction:
    """The docstring's v(pan), worked out without the advisor."""
    chips, size, card = board_pan.pan.chips, board_pan.pan.size, board_pan.shade
    points, slots = size.points, size.slots
    if board_pan.pressed:
        return Fraction(points)
    if card is None:
        return Fraction(-points * len(chips), slots)
    pigments = len(card.recipe)
    wanted = Counter(card.recipe) + Counter({Chip.BINDER: -(-pigments // 2)})
    if sum(wanted.values()) != slots:
        return Fraction(0)
    right = sum((Counter(chips) & wanted).values())
    if right == slots:
        return Fraction(points)
    return Fraction(points * (right - (len(chips) - right)), slots)


def random_pan(rng: random.Random, index: int) -> BoardPan:
    size = BOARD[index]
    if rng.random() < 0.25:
        return BoardPan(Pan(size))  # an empty pan without a card, to claim one for
    card = rng.choice(catalogue().shades) if rng.random() < 0.6 else None
    if card is not None and rng.random() < 0.15:
        # A pan holding its card's recipe and binders, when they fit: it presses.
        chips = [*card.recipe, *[B] * ((len(card.recipe) + 1) // 2)]
        if len(chips) == size.slots:
            return BoardPan(Pan(size, tuple(chips)), card)
    count = rng.randint(0, size.slots)
    return BoardPan(Pan(size, tuple(rng.choice(CHIP_ORDER) for _ in range(count))), card)


def random_position(rng: random.Random) -> tuple[tuple[BoardPan, ...], Drafts]:
    board = tuple(random_pan(rng, i) for i in range(len(BOARD)))
    crates = tuple(
        tuple(rng.choice(CHIP_ORDER) for _ in range(rng.randint(0, 3)))
        for _ in range(rng.randint(1, 5))
    )
    tray = tuple(rng.choice(CHIP_ORDER) for _ in range(rng.randint(0 if any(crates) else 1, 4)))
    row = None
    if rng.random() < 0.7:
        row = tuple(rng.sample(catalogue().shades, rng.randint(0, 8)))
    return board, Drafts(crates, tray, rng.randint(0, 8), row)


def state_of(board: tuple[BoardPan, ...], drafts: Drafts) -> GameState:
    """The position as the engine's state; a pan that presses as it stands is pressed."""
    pans = tuple(
        BoardPan(p.pan, p.shade, check_pan(p.pan, p.shade, catalogue()).pressed) for p in board
    )
    player = PlayerState(pans, spill_line=(B,) * drafts.spill_line)
    return table(
        crates=drafts.crates,
        tray=drafts.tray,
        players=(player, PlayerState(EMPTY)),
        shade_row=drafts.shade_row or (),
    )


Key = tuple[int | None, Chip, int | None, str | None]


def brute_force(board: tuple[BoardPan, ...], drafts: Drafts) -> list[tuple[Fraction, Key]]:
    """Every legal (claim, draft) the engine accepts, valued by the objective, best first."""
    state = state_of(board, drafts)
    row: tuple[Shade | None, ...] = (None, *(drafts.shade_row or ()))
    found: list[tuple[Fraction, tuple[int, int, int, int], Key]] = []
    sources: list[int | None] = [*range(len(drafts.crates)), None]
    for s, crate in enumerate(sources):
        for colour in CHIP_ORDER:
            for index in [None, *range(len(BOARD))]:
                for r, claim in enumerate(row):
                    try:
                        now = state
                        if claim is not None:
                            if index is None:
                                break
                            now = apply(now, ClaimShade(index, claim.name)).state
                        after = apply(now, Draft(colour, crate, index)).state.players[0]
                    except IllegalActionError:
                        # A claim does not make a refused draft legal: skip the claims too.
                        if claim is None:
                            break
                        continue
                    spilled = len(after.spill_line) - drafts.spill_line
                    value = sum(map(pan_value, after.pans), Fraction(0))
                    value += spill_cost(drafts.spill_line, spilled)
                    order = (s, CHIP_ORDER.index(colour), -1 if index is None else index, r)
                    name = None if claim is None else claim.name
                    found.append((value, order, (crate, colour, index, name)))
    found.sort(key=lambda f: (-f[0], f[1]))
    return [(value, key) for value, _, key in found]


def test_brute_force_agrees_on_random_positions() -> None:
    rng = random.Random(20261207)
    claims = spills = ties = 0
    for _ in range(300):
        board, drafts = random_position(rng)
        expected = brute_force(board, drafts)
        advice = advise(board, drafts)
        got = [
            (o.value, (o.crate, o.colour, o.pan, None if o.claim is None else o.claim.name))
            for o in advice.options
        ]
        assert got == expected, (board, drafts)
        assert advice.best.value == max(value for value, _ in expected)
        assert advice.tied == sum(1 for value, _ in expected if value == expected[0][0]) - 1
        claims += any(o.claim is not None for o in advice.options)
        spills += any(o.spilled for o in advice.options)
        ties += advice.tied > 0
    # The random positions do exercise claims, overflow and ties.
    assert claims > 30 and spills > 100 and ties > 30
