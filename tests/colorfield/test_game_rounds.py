"""End of round and game: scores with reasons, positions, keep allowances, reset, the winners.

Values are worked out by hand from ``plain_content`` (see ``game_support``): an all-lemon canvas
scores 40 on a lemon board, 20 on a bare board.
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.errors import IllegalActionError
from companion.games.colorfield.actions import (
    Action,
    Discard,
    Keep,
    Rotate,
    ScoreRound,
    TakeFromDeck,
)
from companion.games.colorfield.game import apply, new_game
from companion.games.colorfield.model import Canvas, CanvasBoard, PlacedTile, TileKind
from companion.games.colorfield.scoring import score_canvas
from companion.games.colorfield.standings import Outcome
from companion.games.colorfield.state import GameState, Phase, Turn
from tests.colorfield.builders import canvas, rulebook_canvas
from tests.colorfield.game_support import (
    keep_nothing,
    plain_content,
    take_and_discard_round,
    with_canvases,
)

LEMON = "lemon lemon lemon lemon"
NAVY = "navy navy navy navy"


def start(*boards: str) -> GameState:
    return new_game(plain_content(), players=len(boards), seed=21, canvases=boards)


def refused(state: GameState, action: Action, rule: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert caught.value.rule == rule
    return caught.value


def all_lemon(board: CanvasBoard) -> Canvas:
    return canvas(board, *[LEMON] * 6)


def lemon_over_navy(board: CanvasBoard) -> Canvas:
    """On a bare board: 13 edge points (1, 2, 1 / 3, 3, 3), a navy patch of 3 tiles + 5 segments."""
    return canvas(board, LEMON, LEMON, LEMON, NAVY, NAVY, NAVY)


def test_scoring_records_every_canvas_score_and_the_card_reason() -> None:
    state = take_and_discard_round(start("lemon-1", "bare-1"))
    scored = apply(state, ScoreRound())
    record = scored.scores[0]
    assert record.round == 1
    assert record.card is None
    assert [p.canvas for p in record.players] == [score_canvas(p.canvas) for p in state.players]
    assert [(p.canvas.edge_points, p.canvas.patch.points) for p in record.players] == [
        (24, 16),
        (14, 6),
    ]
    assert [p.canvas.perfect_tiles for p in record.players] == [6, 0]
    assert [p.tool.points for p in record.players] == [0, 0]
    assert [p.tool.reason for p in record.players] == ["no Community Tools card this round"] * 2
    assert [(p.total, p.cumulative) for p in record.players] == [(40, 40), (20, 20)]
    assert scored.totals() == (40, 20)


def test_two_players_keep_one_extra_tile() -> None:
    state = apply(take_and_discard_round(start("lemon-1", "bare-1")), ScoreRound())
    assert state.phase is Phase.KEEPING
    assert [(p.position, p.keep_allowance) for p in state.scores[0].players] == [(1, 1), (2, 2)]
    assert [p.keep for p in state.players] == [None, None]


def test_two_players_tied_share_first_position_and_keep_one_each() -> None:
    state = apply(take_and_discard_round(start("bare-1", "bare-2")), ScoreRound())
    assert [(p.position, p.keep_allowance) for p in state.scores[0].players] == [(1, 1), (1, 1)]


def test_dense_positions_in_a_four_player_game() -> None:
    state = apply(
        take_and_discard_round(start("lemon-1", "bare-1", "lemon-2", "bare-2")), ScoreRound()
    )
    scores = state.scores[0].players
    assert [p.cumulative for p in scores] == [40, 20, 40, 20]
    assert [(p.position, p.keep_allowance) for p in scores] == [(1, 0), (2, 1), (1, 0), (2, 1)]
    # A player allowed nothing keeps nothing without being asked.
    assert [p.keep for p in state.players] == [(), None, (), None]


def test_keep_allowances_0_to_3_by_position_in_a_four_player_game() -> None:
    state = take_and_discard_round(start("lemon-1", "bare-1", "lemon-2", "bare-2"))
    boards = [p.canvas.board for p in state.players]
    state = with_canvases(
        state,
        [
            all_lemon(boards[1]),  # 20
            rulebook_canvas(),  # 35
            all_lemon(boards[0]),  # 40
            lemon_over_navy(boards[3]),  # 13 + 8 = 21
        ],
    )
    scores = apply(state, ScoreRound()).scores[0].players
    assert [p.total for p in scores] == [20, 35, 40, 21]
    assert [(p.position, p.keep_allowance) for p in scores] == [(4, 3), (2, 1), (1, 0), (3, 2)]


def test_keep_allowances_in_a_three_player_game() -> None:
    state = take_and_discard_round(start("lemon-1", "bare-1", "lemon-2"))
    boards = [p.canvas.board for p in state.players]
    state = with_canvases(state, [all_lemon(boards[1]), rulebook_canvas(), all_lemon(boards[0])])
    scores = apply(state, ScoreRound()).scores[0].players
    assert [(p.total, p.position, p.keep_allowance) for p in scores] == [
        (20, 3, 2),
        (35, 2, 1),
        (40, 1, 0),
    ]


def test_kept_tiles_stay_exactly_as_they_were_and_empty_spaces_are_primed_in_order() -> None:
    state = start("lemon-1", "bare-1")
    state = apply(state, Rotate(0, 3, 2))
    state = apply(take_and_discard_round(state), ScoreRound())
    kept0 = state.players[0].canvas.at(3)
    kept1 = (state.players[1].canvas.at(1), state.players[1].canvas.at(6))
    assert kept0 is not None
    assert kept0.rotation == 2
    gone = [
        placed.tile
        for seat, keep in ((0, (3,)), (1, (1, 6)))
        for space, placed in enumerate(state.players[seat].canvas.spaces, start=1)
        if placed is not None and space not in keep
    ]
    cards = [tile for p in state.players for tile in p.card]
    palette = [tile for tile in state.piles.palette if tile is not None]
    foundation = state.piles.deck(TileKind.FOUNDATION)
    round2 = state.piles.deck(TileKind.ROUND2)

    state = apply(state, Keep(0, (3,)))
    assert state.phase is Phase.KEEPING
    state = apply(state, Keep(1, (1, 6)))

    assert state.round == 2
    assert state.phase is Phase.PLAYING
    assert state.turn == Turn(0)
    assert state.players[0].canvas.at(3) == kept0
    assert (state.players[1].canvas.at(1), state.players[1].canvas.at(6)) == kept1
    primed0 = [state.players[0].canvas.at(s) for s in (1, 2, 4, 5, 6)]
    primed1 = [state.players[1].canvas.at(s) for s in (2, 3, 4, 5)]
    assert primed0 == [PlacedTile(tile, 0) for tile in foundation[:5]]
    assert primed1 == [PlacedTile(tile, 0) for tile in foundation[5:9]]
    assert state.piles.deck(TileKind.FOUNDATION) == foundation[9:]
    # Replaced tiles, player cards and the old Palette all went to the central discard.
    assert Counter(state.piles.discard) == Counter([*gone, *cards, *palette])
    assert [p.card for p in state.players] == [(), ()]
    assert state.piles.palette == round2[:3]
    assert [p.keep for p in state.players] == [None, None]


def test_keep_choices_are_checked() -> None:
    state = apply(take_and_discard_round(start("lemon-1", "bare-1")), ScoreRound())
    error = refused(state, Keep(0, (1, 2)), "keep-allowance")
    assert "player 0 may keep 1 tiles, not 2" in error.message
    refused(state, Keep(1, (1, 2, 3)), "keep-allowance")
    refused(state, Keep(1, (4, 4)), "keep-allowance")
    refused(state, Keep(1, (7,)), "canvas-spaces")
    state = apply(state, Keep(1, (2, 5)))
    error = refused(state, Keep(1, ()), "keep-allowance")
    assert "already chosen" in error.message


def test_nothing_but_keeping_between_rounds() -> None:
    state = start("lemon-1", "bare-1")
    refused(state, Keep(0, ()), "between-rounds")
    state = apply(take_and_discard_round(state), ScoreRound())
    refused(state, ScoreRound(), "between-rounds")
    refused(state, TakeFromDeck(0), "between-rounds")
    refused(state, Discard(0), "between-rounds")


def play_to_round_3_scoring(state: GameState) -> GameState:
    for _ in range(2):
        state = keep_nothing(apply(take_and_discard_round(state), ScoreRound()))
    return take_and_discard_round(state)


def test_the_game_ends_after_round_3_and_refuses_further_actions() -> None:
    state = play_to_round_3_scoring(start("lemon-1", "bare-1", "bare-2"))
    assert state.round == 3
    assert [p.turns_taken for p in state.players] == [4, 4, 4]
    over = apply(state, ScoreRound())
    assert over.phase is Phase.OVER
    assert [r.round for r in over.scores] == [1, 2, 3]
    assert over.totals() == (120, 60, 60)
    assert over.outcome == Outcome((0,), "points")
    refused(over, ScoreRound(), "game-over")
    refused(over, Rotate(0, 1, 1), "game-over")
    refused(over, Keep(1, ()), "game-over")


def test_a_tie_on_points_goes_to_the_larger_round_3_patch_bonus() -> None:
    state = play_to_round_3_scoring(start("bare-1", "bare-2"))
    boards = [p.canvas.board for p in state.players]
    doubled = canvas(boards[0], LEMON, "lemon lemon:2 lemon lemon", *[LEMON] * 4)
    state = with_canvases(state, [doubled, lemon_over_navy(boards[1])])
    over = apply(state, ScoreRound())
    last = over.scores[-1].players
    assert [(p.canvas.edge_points, p.canvas.patch.points) for p in last] == [(15, 6), (13, 8)]
    assert over.totals() == (61, 61)
    assert over.outcome == Outcome((1,), "patch bonus")


def test_then_more_unused_inspiration_tokens_win() -> None:
    # All-lemon tiles look the same in every rotation: player 1's token changes no score.
    state = apply(start("bare-1", "bare-2"), Rotate(1, 2, 1))
    over = apply(play_to_round_3_scoring(state), ScoreRound())
    assert over.totals() == (60, 60)
    assert [p.canvas.patch.points for p in over.scores[-1].players] == [6, 6]
    assert (over.tokens_left(0), over.tokens_left(1)) == (3, 2)
    assert over.outcome == Outcome((0,), "unused inspiration tokens")


def test_otherwise_the_victory_is_shared() -> None:
    over = apply(play_to_round_3_scoring(start("bare-1", "bare-2")), ScoreRound())
    assert over.totals() == (60, 60)
    assert [p.canvas.patch.points for p in over.scores[-1].players] == [6, 6]
    assert (over.tokens_left(0), over.tokens_left(1)) == (3, 3)
    assert over.outcome == Outcome((0, 1), "shared")
