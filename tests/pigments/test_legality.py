"""Pigment Lab legality between two scans of a palette board: each rule proved on a hand-made
pair of boards, the legal turns never warned about, and random engine games never warned about."""

from __future__ import annotations

import random
from typing import Any

from companion.games.pigments.actions import Action, Diagnose, Draft, EndTurn
from companion.games.pigments.legality import check
from companion.games.pigments.position import PalettePosition, PanPosition, position_to_json
from companion.games.pigments.rules import PigmentsRules
from companion.games.pigments.state import GameState, PendingDiagnosis
from companion.games.protocol import Setup
from companion.games.violations import Violation

R, Y, U, T, B = "Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder"
SIZES = ("small", "medium", "medium", "large")
SLOTS = {
    "small": ("small window 1", "small binder 1"),
    "medium-1": ("medium-1 window 1", "medium-1 window 2", "medium-1 binder 1"),
    "medium-2": ("medium-2 window 1", "medium-2 window 2", "medium-2 binder 1"),
    "large": (
        "large window 1",
        "large window 2",
        "large window 3",
        "large binder 1",
        "large binder 2",
    ),
}
Pan = tuple[list[str], str | None]


def pan(*chips: str, shade: str | None = None) -> Pan:
    return list(chips), shade


def board(*pans: Pan) -> dict[str, Any]:
    """A palette board, pans in board order; pans left out are empty and unclaimed."""
    given = list(pans) + [pan()] * (len(SIZES) - len(pans))
    return {
        "game": "pigments",
        "pans": [
            {"pan": size, "chips": chips, "shade": shade}
            for size, (chips, shade) in zip(SIZES, given, strict=True)
        ],
    }


def only(found: tuple[Violation, ...], rule: str) -> Violation:
    assert [v.rule for v in found] == [rule], found
    return found[0]


# Legal turns: never a warning.


def test_a_board_that_did_not_change() -> None:
    same = board(pan(R, B), pan(U, shade="soot"))
    assert check(same, same) == ()


def test_a_draft_with_overflow_and_a_tray_draft_of_many_chips() -> None:
    assert check(board(pan(), pan(R)), board(pan(), pan(R, U, U))) == ()
    # From the Spill Tray a draft brings any number of chips: never provably too many.
    assert check(board(), board(pan(), pan(), pan(), pan(U, U, U, U))) == ()


def test_a_claim_on_an_empty_pan_with_the_draft() -> None:
    assert check(board(), board(pan(), pan(U, U, shade="soot"))) == ()
    assert check(board(), board(pan(shade="white"))) == ()


def test_a_sift_plus_a_draft() -> None:
    before = board(pan(R, B), pan())
    assert check(before, board(pan(R), pan(U, U))) == ()
    # A pan emptied by its sift is started again: a claim and a draft of the same colour.
    assert check(board(pan(), pan(R)), board(pan(), pan(R, R, shade="coral"))) == ()


def test_the_kiln() -> None:
    assert check(board(pan(), pan(Y, Y, B)), board(pan(), pan(R, B))) == ()
    assert check(board(pan(), pan(Y, B)), board(pan(), pan(R, B), pan(T))) == ()
    # Drafted yellows fired in the pan they went into.
    assert check(board(), board(pan(), pan(R, Y))) == ()


def test_press_keeps_the_pan_and_its_card() -> None:
    pressed = board(pan(), pan(R, Y, B, shade="coral"))
    assert check(pressed, pressed) == ()
    assert check(board(pan(), pan(R, Y, shade="coral")), pressed) == ()


def test_a_right_diagnosis_swap() -> None:
    before = board(pan(), pan(R, B, B, shade="blush"))
    after = board(pan(), pan(R, T, B, shade="blush"), pan(), pan(U, U))
    assert check(before, after, [True]) == ()
    assert {v.rule for v in check(before, after)} == {"chips-in-two-pans", "two-colours-drafted"}


def test_a_right_diagnosis_return() -> None:
    before = board(pan(R, B), pan(R, B, B, shade="blush"))
    after = board(pan(R), pan(R, B, shade="blush"))
    assert check(before, after, [True]) == ()
    assert only(check(before, after), "chips-removed")


def test_a_wrong_diagnosis_with_the_verdict_entered() -> None:
    before = board(pan(), pan(R, B, B, shade="blush"))
    assert check(before, board(pan(), pan(shade="blush")), [False]) == ()
    # Emptied, then the draft started it again.
    assert check(before, board(pan(), pan(U, shade="blush")), [False]) == ()


# Each rule broken.


def test_chips_in_two_pans() -> None:
    found = only(check(board(), board(pan(U), pan(U))), "chips-in-two-pans")
    assert found.components == SLOTS["small"] + SLOTS["medium-1"]
    assert found.message == (
        "a turn's draft goes into one pan, but chips arrived in 2 pans: the small pan gained "
        "1 blue chip; the medium pan 1 gained 1 blue chip"
    )


def test_two_colours_drafted() -> None:
    found = only(check(board(), board(pan(), pan(R, U))), "two-colours-drafted")
    assert found.components == SLOTS["medium-1"]
    assert found.message == (
        "a draft takes chips of one colour (Kiln reds and swaps aside), but red and blue chips "
        "arrived: the medium pan 1 gained 1 red and 1 blue chips"
    )


def test_chips_removed() -> None:
    before = board(pan(), pan(), pan(), pan(R, U, T, B))
    found = only(check(before, board(pan(), pan(), pan(), pan(T, B))), "chips-removed")
    assert found.components == SLOTS["large"]
    assert found.message.endswith(
        "but the large pan went from 1 red, 1 blue, 1 white and 1 binder chips to 1 white and "
        "1 binder chips"
    )
    # Yellows leave by the Kiln: not a removal.
    assert check(board(pan(), pan(Y, Y, U)), board(pan(), pan(U))) == ()


def test_claim_on_a_started_pan() -> None:
    before = board(pan(), pan(R, U))
    found = only(check(before, board(pan(), pan(R, U, B, shade="soot"))), "claim-on-started-pan")
    assert found.components == ("shade medium-1",)
    assert "soot" in found.message and "started" in found.message


def test_a_claimed_shade_replaced() -> None:
    before = board(pan(), pan(R, U, shade="soot"))
    found = only(check(before, board(pan(), pan(R, U, shade="coral"))), "shade-replaced")
    assert found.components == ("shade medium-1",)
    assert "soot became coral" in found.message
    # On a pan that is empty, the card is not under a started pan: no warning.
    assert check(board(pan(shade="white")), board(pan(shade="blush"))) == ()


def test_more_than_two_claims_held() -> None:
    before = board(pan(shade="white"), pan(R, shade="soot"))
    after = board(pan(shade="white"), pan(R, shade="soot"), pan(shade="coral"))
    found = only(check(before, after), "too-many-claims")
    assert found.components == ("shade small", "shade medium-1", "shade medium-2")
    assert "at most 2" in found.message and "3 are held" in found.message
    # A pan that would press keeps its card: it is no longer held.
    pressed = board(pan(T, B, shade="white"), pan(R, shade="soot"))
    assert (
        check(pressed, board(pan(T, B, shade="white"), pan(R, shade="soot"), pan(shade="coral")))
        == ()
    )


def test_a_pressed_pan_changed() -> None:
    salmon = pan(R, Y, T, B, B, shade="salmon")
    found = only(
        check(board(pan(), pan(), pan(), salmon), board(pan(), pan(), pan(), pan(B, B))),
        "pressed-pan-changed",
    )
    assert found.components == SLOTS["large"]
    assert found.message == (
        "the large pan was full and sound and matched salmon, so it could have been pressed, "
        "and a pressed pan takes no more chips and keeps its card; but its 1 red, 1 yellow, "
        "1 white and 2 binder chips became 2 binder chips, which no turn allows an unpressed pan "
        "either"
    )
    card = only(
        check(board(pan(), pan(R, Y, B, shade="coral")), board(pan(), pan(R, Y, B, shade="soot"))),
        "pressed-pan-changed",
    )
    assert card.components == ("shade medium-1",)
    # One chip sifted out: an unpressed pan may do that, so it proves nothing.
    assert (
        check(board(pan(), pan(), pan(), salmon), board(pan(), pan(), pan(), pan(R, Y, T, B))) == ()
    )


def test_a_pan_emptied_without_a_wrong_diagnosis() -> None:
    before = board(pan(), pan(R, B, B, shade="blush"))
    found = only(check(before, board(pan(), pan(shade="blush"))), "emptied-without-wrong-diagnosis")
    assert found.components == SLOTS["medium-1"]
    assert "no wrong diagnosis was entered" in found.message and "penalty" in found.message
    # A small pan loses both chips: emptied as by a wrong diagnosis, not two chips removed.
    small = board(pan(R, U, shade="soot"))
    assert only(check(small, board(pan(shade="soot"))), "emptied-without-wrong-diagnosis")
    # A right diagnosis does not empty a pan.
    assert only(
        check(before, board(pan(), pan(shade="blush")), [True]), "emptied-without-wrong-diagnosis"
    )


def test_positions_that_are_not_palette_boards_prove_nothing() -> None:
    one_pan = {"game": "pigments", "pan": "small", "chips": [R]}
    assert check(one_pan, board(pan(U), pan(R))) == ()
    assert check(board(), {"game": "pigments", "pans": []}) == ()
    assert check(board(), {"game": "paintings"}) == ()


# Random legal games: no turn is ever warned about.


def _board(state: GameState, seat: int) -> dict[str, Any]:
    pans = tuple(PanPosition(p.pan, p.shade) for p in state.players[seat].pans)
    return position_to_json(PalettePosition(pans), state.catalogue.by_name)


def _pick(rng: random.Random, actions: tuple[Action, ...], state: GameState) -> Action:
    """A random legal action, biased to end a turn once drafted so games finish quickly."""
    if state.drafted and any(isinstance(a, EndTurn) for a in actions) and rng.random() < 0.4:
        return EndTurn()
    drafts = [a for a in actions if isinstance(a, Draft)]
    if drafts and rng.random() < 0.3:
        return rng.choice(drafts)
    return rng.choice(actions)


def test_random_legal_games_never_warn() -> None:
    game = PigmentsRules()
    rng = random.Random(5)
    turns = 0
    for seed in range(3):
        state = game.new_game(Setup(players=2 + seed % 3, seed=seed))
        seat = state.current
        before, diagnoses = _board(state, seat), []
        while not game.over(state):
            action = _pick(rng, game.legal_actions(state), state)
            if isinstance(action, Diagnose):
                assert isinstance(state.pending, PendingDiagnosis)
                diagnoses.append(state.pending.card.cause is action.cause)
            state = game.apply(state, action)
            if isinstance(action, EndTurn):
                after = _board(state, seat)
                assert check(before, after, diagnoses) == (), (before, after, diagnoses)
                turns += 1
                seat = state.current
                before, diagnoses = _board(state, seat), []
    assert turns > 50
