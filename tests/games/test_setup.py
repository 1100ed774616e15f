"""Setting games up through the interface (options, refusals), and whose turn and which round it
is as each game goes on."""

from __future__ import annotations

import random
from itertools import islice

import pytest

from companion.content.isle import default_content as isle_content
from companion.errors import AtelierError, IllegalActionError
from companion.games.colorfield import actions as cf
from companion.games.isle.actions import Fill, Roll
from companion.games.isle.game import deal, roll_die
from companion.games.isle.model import Condition, Conditions
from companion.games.isle.rules import IsleRules
from companion.games.paintings.model import Goal
from companion.games.paintings.state import TakeCard
from companion.games.pigments.actions import Draft, EndTurn
from companion.games.protocol import Setup
from companion.games.registry import games


@pytest.mark.parametrize(
    ("game", "setup", "message"),
    [
        ("colorfield", Setup(1, 0), "Color Field is for 2 to 4 players, not 1"),
        (
            "colorfield",
            Setup(2, 0, {"tools": []}),
            "options.tools: unknown key (expected one of: canvases, community_tools)",
        ),
        (
            "colorfield",
            Setup(2, 0, {"community_tools": ["easel"]}),
            "unknown Community Tools card 'easel' (known: local-collective, mahl-stick)",
        ),
        (
            "paintings",
            Setup(6, 0),
            "Paintings is for 1 to 5 players, not 6 (rule: player-count)",
        ),
        (
            "paintings",
            Setup(2, 0, {"scoring_cards": ["style"]}),
            "options.scoring_cards: expected 4 entries, got 1",
        ),
        ("isle", Setup(3, 0), "Isle of Colors is for 1 or 2 players, not 3"),
        (
            "isle",
            Setup(2, 0, {"island": "atlantis"}),
            "options.island: unknown island 'atlantis' (known: default)",
        ),
        (
            "isle",
            Setup(2, 0, {"conditions": {"green": "river"}}),
            "options.conditions.blue: missing",
        ),
        ("pigments", Setup(5, 0), "Pigment Lab is for 2 to 4 players, not 5"),
        (
            "pigments",
            Setup(2, 0, {"first_player": 2}),
            "options.first_player: 2 is out of range (0..1)",
        ),
    ],
)
def test_a_setup_the_game_does_not_allow_is_refused_in_one_line(
    game: str, setup: Setup, message: str
) -> None:
    with pytest.raises(AtelierError) as caught:
        games()[game].rules.new_game(setup)
    assert str(caught.value) == message


def test_colorfield_options_choose_the_cards_and_the_canvases() -> None:
    rules = games()["colorfield"].rules
    setup = Setup(2, 7, {"community_tools": ["mahl-stick"], "canvases": ["canvas-3", "canvas-1"]})
    state = rules.new_game(setup)
    assert state.tool.card.id == "mahl-stick"
    assert [p.canvas.board.id for p in state.players] == ["canvas-3", "canvas-1"]
    assert rules.new_game(setup) == state


def test_colorfield_turns_the_table_scoring_and_choices_between_rounds() -> None:
    rules = games()["colorfield"].rules
    state = rules.new_game(Setup(2, 3))
    assert (rules.whose_turn(state), rules.round(state)) == (0, 1)
    for _ in range(5):
        for seat in (0, 1):
            assert rules.whose_turn(state) == seat
            state = rules.apply(rules.apply(state, cf.TakeFromDeck(seat)), cf.Discard(seat))
    assert rules.whose_turn(state) is None  # round 1 waits to be scored: the table's action
    assert cf.ScoreRound() in rules.legal_actions(state)
    state = rules.apply(state, cf.ScoreRound())
    assert [(p.cumulative, p.keep_allowance) for p in state.scores[0].players] == [(10, 1), (7, 2)]
    # Both choose before round 2, each choice once: 1 + 6 for the leader, 1 + 6 + 15 for seat 1.
    assert rules.whose_turn(state) == 0
    assert len(rules.legal_actions(state)) == 7 + 22
    state = rules.apply(state, cf.Keep(0, ()))
    assert (rules.whose_turn(state), rules.round(state)) == (1, 1)
    assert len(rules.legal_actions(state)) == 22
    state = rules.apply(state, cf.Keep(1, (2, 5)))
    assert (rules.whose_turn(state), rules.round(state)) == (0, 2)


def test_paintings_options_fix_the_scoring_cards_and_a_round_is_a_pass_around_the_table() -> None:
    rules = games()["paintings"].rules
    state = rules.new_game(
        Setup(3, 7, {"scoring_cards": ["style", "space", "variety", "hierarchy"]})
    )
    assert [c.goal for c in state.scoring_cards] == [
        Goal.STYLE,
        Goal.SPACE,
        Goal.VARIETY,
        Goal.HIERARCHY,
    ]
    seen = []
    for _ in range(7):
        seen.append((rules.whose_turn(state), rules.round(state)))
        state = rules.apply(state, TakeCard(0))
    assert seen == [(0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2), (0, 3)]


def test_paintings_refuses_any_action_once_over() -> None:
    rules = games()["paintings"].rules
    state = rules.new_game(Setup(1, 3))
    while not rules.over(state):
        state = rules.apply(state, rules.legal_actions(state)[-1])
    with pytest.raises(IllegalActionError) as caught:
        rules.apply(state, TakeCard(0))
    assert caught.value.rule == "game-over"


def test_isle_deals_from_the_seed_and_the_conditions_can_be_chosen() -> None:
    rules = IsleRules()
    dealt = rules.new_game(Setup(2, 3))
    expected = deal(isle_content().islands["default"], 2, random.Random(3))
    assert dealt == expected
    chosen = {"green": "swamp", "blue": "river", "brown": "beach", "red": "village"}
    state = rules.new_game(Setup(2, 3, {"conditions": chosen}))
    assert state.conditions == Conditions(
        Condition.SWAMP, Condition.RIVER, Condition.BEACH, Condition.VILLAGE
    )
    assert [p.hand for p in state.players] == [p.hand for p in dealt.players]


def test_isle_rolls_are_the_dealing_generators_next_draws() -> None:
    rng = random.Random(5)
    deal(isle_content().islands["default"], 1, rng)
    assert list(islice(IsleRules().rolls(Setup(1, 5)), 8)) == [roll_die(rng) for _ in range(8)]


def test_isle_the_table_rolls_then_the_players_fill_in_seat_order_or_at_once() -> None:
    rules = IsleRules()
    state = rules.new_game(Setup(2, 3))
    assert rules.whose_turn(state) is None
    assert rules.legal_actions(state) == tuple(Roll(value) for value in range(1, 7))
    state = rules.apply(state, Roll(1))
    legal = rules.legal_actions(state)
    # 79 cells, 2 colours, 2 players still to fill.
    assert len(legal) == 2 * 2 * 79
    assert rules.whose_turn(state) == 0
    second = next(a for a in legal if isinstance(a, Fill) and a.player == 1)
    state = rules.apply(state, second)  # the second player may fill first
    assert rules.whose_turn(state) == 0
    assert {a.player for a in rules.legal_actions(state) if isinstance(a, Fill)} == {0}
    state = rules.apply(state, rules.legal_actions(state)[0])
    assert (rules.whose_turn(state), rules.round(state)) == (None, 2)


def test_pigments_the_first_player_option_and_the_turn_order() -> None:
    rules = games()["pigments"].rules
    state = rules.new_game(Setup(3, 7, {"first_player": 2}))
    assert (rules.whose_turn(state), rules.round(state)) == (2, 1)
    assert EndTurn() not in rules.legal_actions(state)
    draft = next(a for a in rules.legal_actions(state) if isinstance(a, Draft))
    state = rules.apply(rules.apply(state, draft), EndTurn())
    assert rules.whose_turn(state) == 0
