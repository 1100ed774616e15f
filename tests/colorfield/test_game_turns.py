"""Turns in Color Field: taking, placing, discarding, the Palette and its refresh, seat order."""

from __future__ import annotations

import pytest

from companion.content.colorfield import default_content
from companion.errors import IllegalActionError
from companion.games.colorfield.actions import (
    Action,
    Discard,
    Keep,
    Place,
    RefreshPalette,
    ScoreRound,
    TakeFromDeck,
    TakeFromPalette,
)
from companion.games.colorfield.game import apply, new_game
from companion.games.colorfield.model import PlacedTile, TileKind
from companion.games.colorfield.state import GameState, Phase, Turn
from tests.colorfield.game_support import play, take_and_discard_round


def start(players: int = 2, seed: int = 3) -> GameState:
    return new_game(default_content(), players=players, seed=seed)


def refused(state: GameState, action: Action, rule: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert caught.value.rule == rule
    return caught.value


def test_take_from_the_palette_and_place_replacing_the_old_tile() -> None:
    state = start()
    taken = state.piles.palette[1]
    old = state.players[0].canvas.at(4)
    next_in_deck = state.piles.deck(TileKind.ROUND1)[0]
    state = apply(state, TakeFromPalette(0, 1))
    assert state.turn == Turn(0, held=taken)
    assert state.piles.palette[1] is None
    state = apply(state, Place(0, 4, 3))
    assert taken is not None
    assert old is not None
    assert state.players[0].canvas.at(4) == PlacedTile(taken, 3)
    assert state.players[0].card == (old.tile,)
    assert state.players[0].turns_taken == 1
    # The Palette is refilled after the turn from the top of the round's deck.
    assert state.piles.palette[1] == next_in_deck
    assert state.turn == Turn(1)


def test_take_the_deck_top_and_discard_it_to_the_player_card() -> None:
    state = start()
    top = state.piles.deck(TileKind.ROUND1)[0]
    canvas = state.players[0].canvas
    palette = state.piles.palette
    state = play(state, TakeFromDeck(0), Discard(0))
    assert state.players[0].card == (top,)
    assert state.players[0].canvas == canvas
    assert state.piles.palette == palette
    assert state.players[0].turns_taken == 1
    assert state.turn == Turn(1)


def test_turn_actions_by_another_player_are_refused() -> None:
    state = start(players=3)
    for action in (TakeFromDeck(1), TakeFromPalette(2, 0), RefreshPalette(1), Place(1, 1)):
        error = refused(state, action, "not-your-turn")
        assert "it is player 0's turn" in error.message
    held = apply(state, TakeFromDeck(0))
    refused(held, Discard(1), "not-your-turn")


def test_one_tile_per_turn() -> None:
    held = apply(start(), TakeFromPalette(0, 0))
    refused(held, TakeFromPalette(0, 1), "one-tile-per-turn")
    refused(held, TakeFromDeck(0), "one-tile-per-turn")
    held = apply(start(), TakeFromDeck(0))
    refused(held, TakeFromDeck(0), "one-tile-per-turn")


def test_placing_or_discarding_needs_a_tile_taken() -> None:
    refused(start(), Place(0, 1, 0), "take-before-placing")
    refused(start(), Discard(0), "take-before-placing")


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Place(0, 0, 0), "canvas-spaces"),
        (Place(0, 7, 0), "canvas-spaces"),
        (Place(0, 1, 4), "rotation"),
        (Place(0, 1, -1), "rotation"),
    ],
)
def test_placing_needs_a_space_1_to_6_and_a_rotation_0_to_3(action: Place, rule: str) -> None:
    refused(apply(start(), TakeFromDeck(0)), action, rule)


@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
def test_a_placed_tile_may_have_any_rotation(rotation: int) -> None:
    state = play(start(), TakeFromDeck(0), Place(0, 6, rotation))
    placed = state.players[0].canvas.at(6)
    assert placed is not None
    assert placed.rotation == rotation


def test_palette_slots_are_0_to_2() -> None:
    refused(start(), TakeFromPalette(0, 3), "palette")
    refused(start(), TakeFromPalette(0, -1), "palette")


def test_unknown_players_are_refused() -> None:
    refused(start(), TakeFromDeck(2), "players")
    refused(start(), TakeFromDeck(-1), "players")


def test_refresh_clears_the_palette_to_the_central_discard_and_refills_it() -> None:
    state = start()
    old = state.piles.palette
    deck = state.piles.deck(TileKind.ROUND1)
    state = apply(state, RefreshPalette(0))
    assert state.piles.discard == old
    assert state.piles.palette == deck[:3]
    assert state.piles.deck(TileKind.ROUND1) == deck[3:]
    assert state.turn == Turn(0, refreshed=True)


def test_refresh_is_before_taking_and_once_per_turn() -> None:
    refreshed = apply(start(), RefreshPalette(0))
    refused(refreshed, RefreshPalette(0), "palette-refresh")
    refused(apply(start(), TakeFromDeck(0)), RefreshPalette(0), "palette-refresh")


def test_refresh_needs_no_palette_tile_taken_since_the_players_last_turn() -> None:
    # Player 0 takes from the Palette: player 1 may not refresh on their next turn.
    state = play(start(), TakeFromPalette(0, 0), Place(0, 1, 0))
    error = refused(state, RefreshPalette(1), "palette-refresh")
    assert "taken since" in error.message
    # Player 1 draws from the deck. Since player 0's last turn nobody took from the Palette
    # (player 0's own take was during that turn), so player 0 may refresh.
    state = play(state, TakeFromDeck(1), Discard(1))
    assert apply(state, RefreshPalette(0)).turn == Turn(0, refreshed=True)
    # Player 0 takes from the Palette again: player 1 is refused again; after a deck-only turn
    # by player 1 and one by player 0, player 1 may refresh.
    state = play(state, TakeFromPalette(0, 2), Discard(0))
    refused(state, RefreshPalette(1), "palette-refresh")
    state = play(state, TakeFromDeck(1), Discard(1), TakeFromDeck(0), Discard(0))
    assert apply(state, RefreshPalette(1)).turn == Turn(1, refreshed=True)


def test_refresh_is_allowed_on_a_fresh_palette_but_not_after_a_take_by_an_earlier_seat() -> None:
    state = start(players=3)
    assert apply(state, RefreshPalette(0)).turn == Turn(0, refreshed=True)
    state = play(state, TakeFromPalette(0, 0), Discard(0))
    refused(state, RefreshPalette(1), "palette-refresh")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_order_from_the_first_player_for_five_turns_in_round_1(players: int) -> None:
    state = start(players=players)
    seats = []
    while state.phase is Phase.PLAYING:
        assert state.turn is not None
        seat = state.turn.seat
        seats.append(seat)
        state = play(state, TakeFromDeck(seat), Discard(seat))
    assert seats == list(range(players)) * 5
    assert [p.turns_taken for p in state.players] == [5] * players
    assert state.phase is Phase.SCORING
    assert state.turn is None


def test_rounds_2_and_3_have_four_turns_each_starting_with_the_first_player() -> None:
    state = take_and_discard_round(start(players=3))
    for round_number in (2, 3):
        state = apply(state, ScoreRound())
        for seat, player in enumerate(state.players):
            if player.keep is None:
                state = apply(state, Keep(seat, ()))
        assert state.round == round_number
        assert state.turn == Turn(0)
        seats = []
        while state.phase is Phase.PLAYING:
            assert state.turn is not None
            seats.append(state.turn.seat)
            state = play(state, TakeFromDeck(state.turn.seat), Discard(state.turn.seat))
        assert seats == [0, 1, 2] * 4
        assert [len(p.card) for p in state.players] == [4, 4, 4]


def test_turns_counted_by_the_player_card_include_placements() -> None:
    state = start()
    for _ in range(3):
        state = play(state, TakeFromDeck(0), Place(0, 2, 1), TakeFromDeck(1), Discard(1))
    assert [len(p.card) for p in state.players] == [3, 3]
    assert [p.turns_taken for p in state.players] == [3, 3]


def test_no_turns_once_all_are_taken_and_no_scoring_before() -> None:
    state = start()
    error = refused(state, ScoreRound(), "turns-per-round")
    assert "10 turns remain before round 1 is scored" in error.message
    state = play(state, TakeFromDeck(0), Discard(0))
    refused(state, ScoreRound(), "turns-per-round")
    state = take_and_discard_round(state)
    refused(state, TakeFromDeck(0), "turns-per-round")
    refused(state, TakeFromPalette(0, 0), "turns-per-round")
    refused(state, RefreshPalette(0), "turns-per-round")


def test_the_palette_is_not_refilled_after_the_last_turn_of_a_round() -> None:
    state = start()
    for _ in range(4):
        state = play(state, TakeFromDeck(0), Discard(0), TakeFromDeck(1), Discard(1))
    state = play(state, TakeFromDeck(0), Discard(0), TakeFromPalette(1, 0), Discard(1))
    assert state.phase is Phase.SCORING
    assert state.piles.palette[0] is None
    assert sum(tile is not None for tile in state.piles.palette) == 2
