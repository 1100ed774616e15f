"""The Pigment Lab state machine: setup, every action, refusals with their rule, rounds, end."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content.pigments import default_content
from companion.errors import IllegalActionError
from companion.games.pigments.actions import (
    Action,
    ClaimShade,
    Diagnose,
    Draft,
    EndTurn,
    Kiln,
    Press,
    ReturnChip,
    Sift,
    SkipRemedy,
    SpendWater,
    SwapChip,
)
from companion.games.pigments.faults import Cause
from companion.games.pigments.game import apply, new_game
from companion.games.pigments.model import Chip
from companion.games.pigments.results import standings, winners
from companion.games.pigments.rules import PigmentsRules
from companion.games.pigments.state import (
    SPILL,
    GameState,
    PendingDiagnosis,
    PendingRemedy,
    PlayerState,
)
from companion.words import plural

from .builders import CRUMBLES, GLAZED, LARGE, MEDIUM, SMALL, B, R, T, U, Y, board, pan, table


def start(players: int = 2, seed: int = 7) -> GameState:
    content = default_content()
    return new_game(players, content.chips, content.catalogue, content.faults, seed)


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(state, action).state
    return state


def refused(state: GameState, action: Action, rule: str) -> None:
    with pytest.raises(IllegalActionError) as error:
        apply(state, action)
    assert error.value.rule == rule


def me(state: GameState) -> PlayerState:
    return state.player


# Setup


@pytest.mark.parametrize(("players", "crates"), [(2, 3), (3, 4), (4, 5)])
def test_setup_fills_players_plus_one_crates(players: int, crates: int) -> None:
    state = start(players)
    assert len(state.crates) == crates
    assert all(len(crate) == 3 for crate in state.crates)
    assert len(state.supply) == 80 - 3 * crates
    assert len(state.shade_row) == 8 and len(state.shade_deck) == 8
    assert len(state.fault_deck) == 12
    assert (state.round, state.current, state.over) == (1, 0, False)


def test_setup_is_seeded() -> None:
    assert start(seed=3) == start(seed=3)
    assert start(seed=3).supply != start(seed=4).supply


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(ValueError):
        start(players)


# Drafting


def test_draft_from_a_crate_slides_the_rest_to_the_tray() -> None:
    state = play(table(), Draft(R, crate=0, pan=1))
    assert me(state).pans[1].pan.chips == (R, R)
    assert state.crates[0] == ()
    assert state.tray == (Y,)
    assert state.drafted
    refused(state, Draft(U, crate=1, pan=2), "one-draft")


def test_overflow_goes_on_the_spill_line() -> None:
    state = play(table(), Draft(Y, crate=2, pan=0))  # three yellows, a small pan holds 2
    assert me(state).pans[0].pan.chips == (Y, Y)
    assert me(state).spill_line == (Y,)
    state = play(table(players=(PlayerState(board(pan(SMALL, T, B))),) * 2), Draft(Y, 2, 0))
    assert me(state).spill_line == (Y, Y, Y)  # a full pan takes nothing


def test_draft_from_the_tray_takes_every_chip_of_that_colour() -> None:
    state = play(table(tray=(Y, Y, B)), Draft(Y, crate=None, pan=3))
    assert me(state).pans[3].pan.chips == (Y, Y)
    assert state.tray == (B,)


def test_draft_refusals() -> None:
    state = table(tray=(B,), players=(PlayerState(board(pan(SMALL, T, B, pressed=True))),) * 2)
    refused(state, Draft(U, crate=0, pan=1), "draft-colour")
    refused(state, Draft(Y, crate=None, pan=1), "draft-colour")
    refused(state, Draft(R, crate=3, pan=1), "draft-source")
    refused(state, Draft(R, crate=0, pan=0), "one-pan")
    refused(state, Draft(R, crate=0, pan=4), "one-pan")
    refused(state, Draft(R, crate=0, pan=None), "one-pan")


def test_with_every_pan_pressed_a_draft_goes_to_the_spill_line() -> None:
    done = board(*(pan(size, pressed=True) for size in (SMALL, MEDIUM, MEDIUM, LARGE)))
    state = play(table(players=(PlayerState(done),) * 2), Draft(R, crate=0, pan=None))
    assert me(state).spill_line == (R, R)


# Free actions


def test_claim_shades_refills_the_row_and_holds_two_at_most() -> None:
    state = table()
    row = [s.name for s in state.shade_row]
    state = play(state, ClaimShade(0, row[0]), ClaimShade(1, row[1]))
    claimed = me(state).pans[0].shade
    assert claimed is not None and claimed.name == row[0]
    assert [s.name for s in state.shade_row] == [*row[2:], "peach", "cream"]
    assert len(state.shade_deck) == 6
    refused(state, ClaimShade(2, row[2]), "claim-limit")
    refused(state, ClaimShade(0, row[2]), "claim-shade")
    refused(play(table(), ClaimShade(0, row[0])), ClaimShade(1, row[0]), "shade-row")


def test_a_shade_is_claimed_when_starting_a_pan_not_once_it_holds_chips() -> None:
    half = PlayerState(board(pan(SMALL, R)))
    full = PlayerState(board(None, pan(MEDIUM, R, Y, B)))
    state = table(players=(half, half))
    row = state.shade_row[0].name
    for player, index in ((half, 0), (full, 1)):
        with pytest.raises(IllegalActionError) as error:
            apply(table(players=(player, player)), ClaimShade(index, row))
        assert error.value.rule == "claim-new-pan"
        held = len(player.pans[index].pan.chips)
        assert str(error.value) == (
            f"a shade is claimed when starting a new pan, and pan {index} already holds "
            f"{plural(held, 'chip')} (rule: claim-new-pan)"
        )
    # An empty pan takes a card, then its first chips; a pan sifted empty is started anew.
    state = play(state, ClaimShade(1, row), Draft(R, crate=0, pan=1))
    assert me(state).pans[1].shade is not None and me(state).pans[1].pan.chips == (R, R)
    state = play(state, Sift(0, R), ClaimShade(0, state.shade_row[0].name))
    assert me(state).pans[0].shade is not None


def test_the_legal_actions_offer_claims_for_empty_pans_only() -> None:
    state = table(players=(PlayerState(board(pan(SMALL, R), pan(MEDIUM, R, Y, B))),) * 2)
    claims = {a.pan for a in PigmentsRules().legal_actions(state) if isinstance(a, ClaimShade)}
    assert claims == {2, 3}


def test_a_pressed_pans_card_is_kept_not_held() -> None:
    players = (
        PlayerState(
            board(
                pan(SMALL, T, B, shade_name="white", pressed=True), pan(MEDIUM, shade_name="coral")
            )
        ),
    ) * 2
    state = table(players=players)
    assert me(state).held_shades == 1
    state = play(state, ClaimShade(2, state.shade_row[0].name))
    assert me(state).held_shades == 2


def test_sift_once_per_turn_into_the_tray() -> None:
    state = table(players=(PlayerState(board(pan(SMALL, T, B))),) * 2)
    state = play(state, Sift(0, B))
    assert me(state).pans[0].pan.chips == (T,)
    assert state.tray == (B,)
    refused(state, Sift(0, T), "sift-once")
    refused(table(), Sift(0, T), "sift")


def test_kiln_turns_two_yellows_into_a_red_and_water() -> None:
    players = (PlayerState(board(pan(SMALL, Y), pan(MEDIUM, Y, Y)), spill_line=(Y,)),) * 2
    state = play(table(players=players, supply=(U, R, T)), Kiln(1, 1))
    assert me(state).pans[1].pan.chips == (R,)
    assert me(state).water == 1
    assert state.supply == (U, T)  # the first red of the supply
    assert state.box == (Y, Y)
    # Across two places, the red takes the first yellow's place; the box's red goes first.
    state = play(table(players=players, box=(R,)), Kiln(SPILL, 0))
    assert me(state).spill_line == (R,)
    assert me(state).pans[0].pan.chips == ()
    assert state.box == (Y, Y)


def test_kiln_refusals() -> None:
    players = (PlayerState(board(pan(SMALL, Y), pan(MEDIUM, Y, Y, pressed=True))),) * 2
    refused(table(players=players, supply=(R,)), Kiln(0, 0), "kiln")
    refused(table(players=players, supply=(R,)), Kiln(1, 1), "kiln")
    refused(table(players=players, supply=(R,)), Kiln(0, SPILL), "kiln")
    state = table(players=(PlayerState(board(pan(MEDIUM, Y, Y))),) * 2, supply=(T,))
    refused(state, Kiln(0, 0), "kiln")  # no red left anywhere


def test_water_removes_a_spill_line_chip() -> None:
    players = (PlayerState(board(), spill_line=(R, U), water=3),) * 2
    state = play(table(players=players), SpendWater(U))
    assert (me(state).spill_line, me(state).water, state.box) == ((R,), 1, (U,))
    refused(state, SpendWater(R), "water")
    refused(table(players=players), SpendWater(T), "water")


# Pressing and faults


def pressing(*pans_: object, spill: tuple[Chip, ...] = ()) -> GameState:
    return table(players=(PlayerState(board(*pans_), spill_line=spill),) * 2)  # type: ignore[arg-type]


def test_press_the_right_recipe() -> None:
    state = play(pressing(None, pan(MEDIUM, R, Y, B, shade_name="coral")), Press(1))
    assert me(state).pans[1].pressed
    assert me(state).pressed == (MEDIUM,)
    assert me(state).held_shades == 0
    refused(state, Press(1), "press")


def test_press_a_wrong_recipe_nothing_happens() -> None:
    state = pressing(None, pan(MEDIUM, R, R, B, shade_name="coral"))
    after = apply(state, Press(1))
    assert after.state == state
    assert "same colour as coral" in after.event


def test_press_refusals() -> None:
    refused(pressing(None, pan(MEDIUM, R, B, shade_name="coral")), Press(1), "press-full")
    refused(pressing(None, pan(MEDIUM, R, Y, B)), Press(1), "press-shade")


def faulty() -> GameState:
    return play(pressing(None, pan(MEDIUM, R, Y, T, shade_name="coral"), spill=(B,)), Press(1))


def test_a_structural_fault_draws_the_top_fault_card() -> None:
    state = faulty()
    assert state.pending == PendingDiagnosis(1, CRUMBLES)
    assert state.fault_deck == (GLAZED, CRUMBLES)
    assert not me(state).pans[1].pressed
    for action in (EndTurn(), Sift(1, R), Press(1), SkipRemedy()):
        refused(state, action, "diagnose")


def test_a_right_diagnosis_earns_a_remedy() -> None:
    state = play(faulty(), Diagnose(Cause.NOT_ENOUGH_BINDER))
    assert state.pending == PendingRemedy(1)
    refused(state, EndTurn(), "remedy")
    swapped = play(state, SwapChip(T, B))
    assert me(swapped).pans[1].pan.chips == (R, Y, B)
    assert me(swapped).spill_line == (T,)
    assert swapped.pending is None
    assert me(play(swapped, Press(1))).pans[1].pressed
    returned = play(state, ReturnChip(T))
    assert me(returned).pans[1].pan.chips == (R, Y)
    assert returned.tray == (T,)
    assert play(state, SkipRemedy()).pending is None
    refused(state, SwapChip(U, B), "remedy")
    refused(state, SwapChip(T, U), "remedy")


def test_a_wrong_diagnosis_costs_a_point_and_empties_the_pan() -> None:
    state = play(faulty(), Diagnose(Cause.TOO_COARSE))
    assert me(state).wrong_diagnoses == 1
    assert me(state).pans[1].pan.chips == ()
    assert me(state).pans[1].shade is not None  # the card stays under the pan
    assert state.tray == (R, Y, T)
    assert state.pending is None
    refused(state, Diagnose(Cause.TOO_COARSE), "diagnose")
    refused(state, SkipRemedy(), "remedy")


# Turns and rounds


def test_end_turn_needs_a_draft_and_passes_clockwise() -> None:
    refused(table(), EndTurn(), "one-draft")
    state = play(table(), Draft(R, 0, 1), EndTurn())
    assert (state.current, state.drafted, state.sifted) == (1, False, False)


def test_the_round_ends_when_crates_and_tray_are_empty() -> None:
    spill = (PlayerState(board(), spill_line=(U, U, U)), PlayerState(board(), spill_line=(R,)))
    state = table(crates=((Y,), (), ()), players=spill, supply=(R,) * 20)
    state = play(state, Draft(Y, 0, 1), EndTurn())
    assert state.round == 2
    assert state.current == state.first_player == 0
    assert [p.spill_history for p in state.players] == [(3,), (1,)]
    assert [p.spill_line for p in state.players] == [(), ()]
    assert state.box == (R, U, U, U)
    assert state.crates == ((R, R, R),) * 3
    assert len(state.supply) == 11


def test_a_sift_into_the_empty_tray_keeps_the_round_going() -> None:
    state = table(crates=((Y,), (), ()), players=(PlayerState(board(pan(SMALL, T))),) * 2)
    state = play(state, Draft(Y, 0, 1), Sift(0, T), EndTurn())
    assert (state.round, state.current, state.tray) == (1, 1, (T,))


def test_after_round_five_the_game_is_over() -> None:
    state = table(crates=((Y,), (), ()), round=5)
    state = play(state, Draft(Y, 0, 1), EndTurn())
    assert state.over
    assert [p.spill_history for p in state.players] == [(0,), (0,)]
    refused(state, Draft(Y, 0, 1), "game-over")


def test_an_exhausted_supply_ends_the_remaining_rounds() -> None:
    state = play(table(crates=((Y,), (), ()), round=3), Draft(Y, 0, 1), EndTurn())
    assert state.over
    assert [p.spill_history for p in state.players] == [(0, 0, 0)] * 2


def test_winners_tie_break_on_large_pans() -> None:
    large = PlayerState(board(*(None,) * 3, pan(LARGE, pressed=True)), spill_history=(0,))
    smalls = PlayerState(
        board(pan(SMALL, pressed=True), pan(MEDIUM, pressed=True), None, None),
        spill_history=(3,),  # 7 points from pans, -2 spill
    )
    nine = PlayerState(
        board(pan(SMALL, pressed=True), pan(MEDIUM, pressed=True), pan(MEDIUM, pressed=True)),
        spill_history=(4,),
    )  # 12 - 4 = 8
    state = table(players=(smalls, large, nine))
    assert [(s.player, s.score.total) for s in standings(state)] == [(1, 9), (2, 8), (0, 5)]
    even = replace(nine, spill_history=(3,))  # 12 - 2 = 10, but no large pan
    large_ten = replace(
        large,
        wrong_diagnoses=0,
        spill_history=(0,),
        pans=board(pan(SMALL, pressed=True), None, None, pan(LARGE, pressed=True)),
    )
    assert winners(table(players=(even, large_ten))) == (1,)  # 11 against 10
    assert winners(table(players=(even, even))) == (0, 1)


# Whole games


def candidates(state: GameState, rng: random.Random) -> list[Action]:
    """Plausible actions for the current player, legal or not, drafting and ending most often."""
    player = state.player
    if isinstance(state.pending, PendingDiagnosis):
        return [Diagnose(rng.choice(list(Cause)))]
    if isinstance(state.pending, PendingRemedy):
        chips = player.pans[state.pending.pan].pan.chips
        options: list[Action] = [SkipRemedy()]
        if chips:
            options.append(ReturnChip(rng.choice(chips)))
            if player.spill_line:
                options.append(SwapChip(rng.choice(chips), rng.choice(player.spill_line)))
        return [rng.choice(options)]
    actions: list[Action] = []
    index = rng.randrange(4)
    if rng.random() < 0.3 and state.shade_row:
        actions.append(ClaimShade(index, rng.choice(state.shade_row).name))
    if rng.random() < 0.1 and player.pans[index].pan.chips:
        actions.append(Sift(index, rng.choice(player.pans[index].pan.chips)))
    if rng.random() < 0.2:
        actions.append(Kiln(rng.choice([0, 1, 2, 3, SPILL]), rng.choice([0, 1, 2, 3, SPILL])))
    if rng.random() < 0.2 and player.spill_line:
        actions.append(SpendWater(rng.choice(player.spill_line)))
    actions.append(Press(index))
    if not state.drafted:
        sources = [i for i, crate in enumerate(state.crates) if crate]
        crate = rng.choice(sources) if sources and (not state.tray or rng.random() < 0.8) else None
        chips = state.crates[crate] if crate is not None else state.tray
        target = None if all(p.pressed for p in player.pans) else index
        actions.append(Draft(rng.choice(chips), crate, target))
    else:
        actions.append(EndTurn())
    return actions


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
def test_random_games_keep_every_chip_and_end_after_five_rounds(seed: int, players: int) -> None:
    state = start(players, seed)
    rng = random.Random(seed)
    total = state.all_chips()
    assert len(total) == 80
    for _ in range(5000):
        if state.over:
            break
        for action in candidates(state, rng):
            try:
                after = apply(state, action).state
            except IllegalActionError:
                continue
            assert after.all_chips() == total
            assert all(p.held_shades <= 2 for p in after.players)
            assert all(pan.pan.room >= 0 for p in after.players for pan in p.pans)
            state = after
    assert state.over
    assert all(len(p.spill_history) == 5 for p in state.players)
    assert len(standings(state)) == players
