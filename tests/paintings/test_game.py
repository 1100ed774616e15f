"""The game as a state machine: setup, the Art Row economy, hand limit, paintings, the end."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content.paintings import default_content
from companion.errors import IllegalActionError
from companion.games.paintings.game import legal_actions, new_game, play, standings, winners
from companion.games.paintings.model import ArtCard, Goal, Painting
from companion.games.paintings.state import (
    CompletePainting,
    GameState,
    PlayerState,
    TakeCard,
)
from tests.paintings.builders import BLANK, card, scoring

DECK = default_content().deck()
POOL = tuple(default_content().scoring_cards.values())


def start(players: int = 2, seed: int = 7) -> GameState:
    return new_game(players, seed, DECK, POOL)


def refused(rule: str, state: GameState, player: int, action: TakeCard | CompletePainting) -> None:
    with pytest.raises(IllegalActionError) as caught:
        play(state, player, action)
    assert caught.value.rule == rule


def test_setup_deals_five_face_up_and_four_tokens_each() -> None:
    state = start(players=3)
    assert len(state.row) == 5 and all(rc.tokens == 0 for rc in state.row)
    assert len(state.deck) == 55
    assert [p.tokens for p in state.players] == [4, 4, 4]
    assert all(p.hand == () and p.paintings == () for p in state.players)
    assert len({c.goal for c in state.scoring_cards}) == 4
    assert state.current == 0


def test_setup_is_reproducible_from_its_seed() -> None:
    assert start(seed=11) == start(seed=11)
    assert start(seed=11).row != start(seed=12).row


def test_setup_can_fix_the_scoring_cards() -> None:
    goals = (Goal.STYLE, Goal.SPACE, Goal.VARIETY, Goal.EMPHASIS)
    state = new_game(1, 0, DECK, POOL, goals)
    assert tuple(c.goal for c in state.scoring_cards) == goals


@pytest.mark.parametrize(
    "goals",
    [
        (Goal.STYLE, Goal.STYLE, Goal.VARIETY, Goal.EMPHASIS),
        (Goal.STYLE, Goal.SPACE, Goal.VARIETY),
    ],
)
def test_fixed_scoring_cards_are_four_different_ones(goals: tuple[Goal, ...]) -> None:
    with pytest.raises(ValueError, match="4 different scoring cards"):
        new_game(1, 0, DECK, POOL, goals)


@pytest.mark.parametrize("players", [0, 6])
def test_player_count_is_one_to_five(players: int) -> None:
    with pytest.raises(IllegalActionError) as caught:
        start(players=players)
    assert caught.value.rule == "player-count"


def test_taking_the_first_card_is_free() -> None:
    state = start()
    row = state.row
    after = play(state, 0, TakeCard(0))
    me = after.players[0]
    assert me.hand == (row[0].card,) and me.tokens == 4
    assert [rc.card for rc in after.row] == [
        row[1].card,
        row[2].card,
        row[3].card,
        row[4].card,
        state.deck[0],
    ]
    assert all(rc.tokens == 0 for rc in after.row)
    assert after.current == 1


def test_taking_card_two_pays_a_token_on_each_card_before_it_and_slides_the_row() -> None:
    state = start()
    row = state.row
    after = play(state, 0, TakeCard(2))
    assert after.players[0].tokens == 2
    assert after.players[0].hand == (row[2].card,)
    assert [(rc.card, rc.tokens) for rc in after.row] == [
        (row[0].card, 1),
        (row[1].card, 1),
        (row[3].card, 0),
        (row[4].card, 0),
        (state.deck[0], 0),
    ]
    assert after.deck == state.deck[1:]


def test_the_taker_gains_the_tokens_on_the_taken_card() -> None:
    state = play(start(), 0, TakeCard(3))  # tokens now on row cards 0, 1, 2
    assert [rc.tokens for rc in state.row] == [1, 1, 1, 0, 0]
    # Player 2 takes card 1: pays 1 onto card 0, gains the 1 on card 1.
    after = play(state, 1, TakeCard(1))
    assert after.players[1].tokens == 4 - 1 + 1
    assert [rc.tokens for rc in after.row] == [2, 1, 0, 0, 0]


def test_a_card_beyond_the_players_tokens_is_refused() -> None:
    state = start()
    poor = replace(state, players=(PlayerState(tokens=1), PlayerState()))
    refused("inspiration-cost", poor, 0, TakeCard(2))
    assert play(poor, 0, TakeCard(1)).players[0].tokens == 0


def test_a_card_outside_the_row_is_refused() -> None:
    refused("art-row", start(), 0, TakeCard(5))
    refused("art-row", start(), 0, TakeCard(-1))


def test_a_full_hand_must_paint() -> None:
    state = start()
    full = replace(state, players=(PlayerState(hand=DECK[:5]), PlayerState()))
    refused("hand-limit", full, 0, TakeCard(0))
    after = play(full, 0, CompletePainting((4, 0, 2)))
    me = after.players[0]
    assert me.paintings[0].cards == (DECK[4], DECK[0], DECK[2])
    assert me.hand == (DECK[1], DECK[3])


def test_four_cards_may_take_or_paint() -> None:
    state = start()
    four = replace(state, players=(PlayerState(hand=DECK[:4]), PlayerState()))
    kinds = {type(a) for a in legal_actions(four)}
    assert kinds == {TakeCard, CompletePainting}


def test_painting_needs_three_cards_in_hand() -> None:
    state = start()
    two = replace(state, players=(PlayerState(hand=DECK[:2]), PlayerState()))
    refused("painting-needs-three-cards", two, 0, CompletePainting((0, 1, 2)))


@pytest.mark.parametrize("order", [(0, 0, 1), (0, 1), (0, 1, 2, 3), (0, 1, 5)])
def test_a_painting_is_three_different_hand_cards(order: tuple[int, ...]) -> None:
    state = start()
    hand = replace(state, players=(PlayerState(hand=DECK[:4]), PlayerState()))
    refused("painting-cards", hand, 0, CompletePainting(order))


def test_only_the_current_player_acts() -> None:
    refused("turn-order", start(), 1, TakeCard(0))


def test_a_done_player_is_passed_over_and_the_game_ends_when_all_are_done() -> None:
    blank = Painting((BLANK, BLANK, BLANK))
    players = (
        PlayerState(hand=DECK[:3], paintings=(blank, blank)),
        PlayerState(paintings=(blank, blank, blank)),
        PlayerState(hand=DECK[3:6], paintings=(blank, blank)),
    )
    state = replace(start(players=3), players=players)
    after = play(state, 0, CompletePainting((0, 1, 2)))
    assert after.players[0].done
    assert after.current == 2  # the second player is done already
    refused("turn-order", after, 1, TakeCard(0))
    end = play(after, 2, CompletePainting((2, 1, 0)))
    assert end.over and end.current is None
    refused("game-over", end, 0, TakeCard(0))
    assert legal_actions(end) == ()


def test_a_player_who_cannot_act_is_skipped_and_a_stalled_game_ends() -> None:
    # Two cards in all: nobody can ever paint, so after they are taken the game ends.
    tiny = (card("hue|-|-|-|-", "T-1"), card("shape|-|-|-|-", "T-2"))
    state = new_game(2, 0, tiny, POOL)
    assert len(state.row) == 2 and state.deck == ()
    state = play(state, 0, TakeCard(0))
    assert state.current == 1
    state = play(state, 1, TakeCard(0))
    assert state.over


def test_standings_break_ties_by_tokens_then_share() -> None:
    state = start(players=3)
    shapes = card("shape|-|-|-|shape")
    blank = card("-|-|-|-|-")
    two_shapes = Painting((blank, blank, shapes))
    goals = scoring(Goal.REPETITION, Goal.STYLE, Goal.VARIETY, Goal.EMPHASIS)
    players = (
        PlayerState(tokens=2, paintings=(two_shapes,)),
        PlayerState(tokens=5, paintings=(two_shapes,)),
        PlayerState(tokens=5, paintings=(two_shapes,)),
    )
    final = replace(state, scoring_cards=goals, players=players, current=None)
    table = standings(final)
    assert [(s.player, s.score.total, s.rank) for s in table] == [(1, 3, 1), (2, 3, 1), (0, 3, 3)]
    assert winners(final) == (1, 2)


def _tokens_in_play(state: GameState) -> int:
    return sum(p.tokens for p in state.players) + sum(rc.tokens for rc in state.row)


def _cards_in_play(state: GameState) -> list[ArtCard]:
    cards = list(state.deck) + [rc.card for rc in state.row]
    for p in state.players:
        cards.extend(p.hand)
        cards.extend(c for painting in p.paintings for c in painting.cards)
    return cards


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 5), st.integers(0, 10_000))
def test_random_games_conserve_cards_and_tokens_and_end_with_three_paintings_each(
    players: int, seed: int
) -> None:
    state = new_game(players, seed, DECK, POOL)
    rng = random.Random(seed)
    turns = 0
    while not state.over:
        actions = legal_actions(state)
        assert actions
        assert state.current is not None
        state = play(state, state.current, rng.choice(actions))
        assert _tokens_in_play(state) == 4 * players
        assert sorted(c.id or "" for c in _cards_in_play(state)) == sorted(c.id or "" for c in DECK)
        assert all(len(p.hand) <= 5 for p in state.players)
        turns += 1
        assert turns < 200
    assert all(len(p.paintings) == 3 for p in state.players)
    assert len(standings(state)) == players
