"""Inspiration tokens: rotate one tile or swap two, any time in a round, three per game."""

from __future__ import annotations

import pytest

from companion.content.colorfield import default_content
from companion.errors import IllegalActionError
from companion.games.colorfield.actions import (
    Action,
    Place,
    Rotate,
    ScoreRound,
    Swap,
    TakeFromDeck,
)
from companion.games.colorfield.game import apply, new_game
from companion.games.colorfield.model import Canvas, PlacedTile, Tile
from companion.games.colorfield.scoring import score_canvas
from companion.games.colorfield.state import GameState, Phase
from tests.colorfield.game_support import keep_nothing, play, take_and_discard_round


def start(players: int = 2) -> GameState:
    return new_game(default_content(), players=players, seed=8)


def refused(state: GameState, action: Action, rule: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert caught.value.rule == rule
    return caught.value


def test_rotate_turns_one_tile_in_place_and_costs_a_token() -> None:
    state = start()
    foundation = state.players[0].canvas.at(3)
    assert foundation is not None
    assert foundation.tile.up_mark
    after = apply(state, Rotate(0, 3, 2))
    assert after.players[0].canvas.at(3) == PlacedTile(foundation.tile, 2)
    assert after.players[0].canvas.spaces[:2] == state.players[0].canvas.spaces[:2]
    assert after.players[0].canvas.spaces[3:] == state.players[0].canvas.spaces[3:]
    assert after.players[0].tokens_used == 1
    assert after.tokens_left(0) == 2
    assert after.tokens_left(1) == 3
    # Not a turn: the same player still has the turn and nothing was taken.
    assert after.turn == state.turn
    assert after.players[0].turns_taken == 0


def test_swap_exchanges_two_tiles_keeping_their_rotations() -> None:
    state = play(start(), TakeFromDeck(0), Place(0, 2, 3))
    one, two = state.players[0].canvas.at(1), state.players[0].canvas.at(2)
    assert two is not None
    assert two.rotation == 3
    after = apply(state, Swap(0, 1, 2))
    assert after.players[0].canvas.at(1) == two
    assert after.players[0].canvas.at(2) == one
    assert after.players[0].tokens_used == 1


def test_inspiration_is_any_time_during_a_round_by_any_player() -> None:
    state = start(players=3)
    # Player 2 during player 0's turn, while player 0 holds a tile.
    held = apply(state, TakeFromDeck(0))
    after = apply(held, Rotate(2, 1, 1))
    assert after.players[2].tokens_used == 1
    assert after.turn == held.turn


def test_a_fourth_token_is_refused() -> None:
    state = play(start(), Rotate(1, 1, 1), Swap(1, 2, 3), Rotate(1, 6, 3))
    assert state.tokens_left(1) == 0
    error = refused(state, Rotate(1, 1, 2), "inspiration-tokens")
    assert "player 1 has used 3 of 3 Inspiration tokens" in error.message
    refused(state, Swap(1, 4, 5), "inspiration-tokens")


def test_tokens_count_over_the_whole_game() -> None:
    state = play(start(), Rotate(0, 1, 1), Rotate(0, 2, 1))
    state = keep_nothing(apply(take_and_discard_round(state), ScoreRound()))
    assert state.round == 2
    assert state.tokens_left(0) == 1
    state = apply(state, Rotate(0, 1, 1))
    refused(state, Rotate(0, 2, 1), "inspiration-tokens")


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Rotate(0, 0, 1), "canvas-spaces"),
        (Rotate(0, 7, 1), "canvas-spaces"),
        (Rotate(0, 1, 4), "rotation"),
        (Swap(0, 1, 7), "canvas-spaces"),
        (Swap(0, 2, 2), "inspiration"),
        (Rotate(0, 1, 0), "inspiration"),
    ],
)
def test_malformed_inspiration_is_refused_and_costs_nothing(action: Action, rule: str) -> None:
    # Primed tiles have rotation 0: turning one to 0 changes nothing and is refused.
    refused(start(), action, rule)


def test_inspiration_in_the_scoring_step_changes_the_score() -> None:
    state = take_and_discard_round(start())
    assert state.phase is Phase.SCORING
    canvas = state.players[0].canvas
    before = score_canvas(canvas).total
    # The first rotation of a tile that changes this canvas's score.
    space, rotation = next(
        (space, rotation)
        for space in range(1, 7)
        for rotation in range(4)
        if score_canvas(canvas.with_space(space, PlacedTile(_tile(canvas, space), rotation))).total
        != before
    )
    state = apply(state, Rotate(0, space, rotation))
    after = score_canvas(state.players[0].canvas).total
    assert after != before
    scored = apply(state, ScoreRound())
    assert scored.scores[0].players[0].canvas.total == after


def _tile(canvas: Canvas, space: int) -> Tile:
    placed = canvas.at(space)
    assert placed is not None
    return placed.tile


def test_no_inspiration_between_rounds() -> None:
    state = apply(take_and_discard_round(start(players=3)), ScoreRound())
    assert state.phase is Phase.KEEPING
    seat = next(s for s, p in enumerate(state.players) if p.keep is None)
    refused(state, Rotate(seat, 1, 1), "inspiration")
    refused(state, Swap(seat, 1, 2), "inspiration")
