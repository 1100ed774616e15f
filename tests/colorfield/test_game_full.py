"""Whole seeded games driven to the end by a scripted policy, invariants checked at every action."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content.colorfield import default_content
from companion.games.colorfield.actions import Action, Discard, Pass, Place, ScoreRound
from companion.games.colorfield.game import apply, new_game
from companion.games.colorfield.state import TURNS_PER_ROUND, GameState, Phase
from companion.games.colorfield.tools import DEFAULT_EFFECTS
from tests.colorfield.game_support import play_out

TOOLS = ("mahl-stick", "local-collective")


def replay(
    players: int, seed: int, tools: Sequence[str] | None, actions: Sequence[Action]
) -> GameState:
    state = new_game(default_content(), players, seed, community_tools=tools)
    for action in actions:
        state = apply(state, action)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("tools", [None, TOOLS])
def test_a_full_game_to_the_end(players: int, tools: Sequence[str] | None) -> None:
    content = default_content()
    seed = 40 + players
    state = new_game(content, players, seed, community_tools=tools)
    end, actions = play_out(state, content, random.Random(seed))
    assert end.phase is Phase.OVER
    assert end.round == 3
    assert [r.round for r in end.scores] == [1, 2, 3]
    assert end.outcome is not None
    assert end.outcome.winners
    best = max(end.totals())
    assert all(end.totals()[seat] == best for seat in end.outcome.winners)
    # Every round's positions and allowances follow from the cumulative totals.
    for record in end.scores:
        cumulative = [p.cumulative for p in record.players]
        for p in record.players:
            assert p.position == len({c for c in cumulative if c > p.cumulative}) + 1
    turns = sum(TURNS_PER_ROUND) * players
    assert sum(isinstance(action, Place | Discard | Pass) for action in actions) == turns
    assert sum(isinstance(action, ScoreRound) for action in actions) == 3
    # The same seed and actions give the same game, state for state.
    assert replay(players, seed, tools, actions) == end


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    tools=st.sampled_from([None, ("mahl-stick",), ("local-collective",), TOOLS]),
)
def test_any_seeded_game_keeps_the_invariants_and_replays(
    players: int, seed: int, tools: Sequence[str] | None
) -> None:
    content = default_content()
    state = new_game(content, players, seed, community_tools=tools, effects=DEFAULT_EFFECTS)
    end, actions = play_out(state, content, random.Random(seed))
    assert end.phase is Phase.OVER
    assert replay(players, seed, tools, actions) == end


def test_different_seeds_give_different_games() -> None:
    content = default_content()
    ends = {
        seed: play_out(new_game(content, 3, seed), content, random.Random(0))[0].totals()
        for seed in (1, 2, 3)
    }
    assert len(set(ends.values())) > 1
