"""Community Tools: Mahl Stick, Local Collective, declining, and effects plugged in as data or code.

Hand-worked values use ``plain_content`` (all-lemon tiles): a canvas on a lemon board has six
perfect tiles and scores 40; on a bare board it has none and scores 20.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

import pytest

from companion.content.colorfield import ColorFieldContent, ToolCard, default_content
from companion.errors import AtelierError, IllegalActionError
from companion.games.colorfield.actions import Action, Decline, Rotate, ScoreRound, Swap
from companion.games.colorfield.game import apply, new_game
from companion.games.colorfield.scoring import CanvasScore, score_canvas
from companion.games.colorfield.standings import Outcome
from companion.games.colorfield.state import GameState, Phase
from companion.games.colorfield.tools import (
    DEFAULT_EFFECTS,
    Effect,
    ToolBonus,
    perfect_tiles_of_others,
)
from tests.colorfield.builders import canvas, rulebook_canvas
from tests.colorfield.game_support import (
    LEMON_BOARDS,
    MAHL_STICK,
    keep_nothing,
    plain_content,
    play,
    take_and_discard_round,
)


def refused(state: GameState, action: Action, rule: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert caught.value.rule == rule
    return caught.value


def mahl_stick_game() -> GameState:
    boards = ["lemon-1", "bare-1", "lemon-2"]
    return new_game(plain_content(), 3, seed=2, community_tools=["mahl-stick"], canvases=boards)


# Mahl Stick ---------------------------------------------------------------------------------------


def test_mahl_stick_scores_the_perfect_tiles_on_every_other_canvas() -> None:
    lemon = score_canvas(canvas(LEMON_BOARDS["lemon-1"], *["lemon lemon lemon lemon"] * 6))
    rulebook = score_canvas(rulebook_canvas())
    assert (lemon.perfect_tiles, rulebook.perfect_tiles) == (6, 4)
    scores = [lemon, rulebook, rulebook]
    assert perfect_tiles_of_others(MAHL_STICK, 0, scores) == ToolBonus(
        8, "Mahl Stick: 8 perfect tiles on the other canvases x 1 = 8"
    )
    assert perfect_tiles_of_others(MAHL_STICK, 1, scores).points == 10
    assert perfect_tiles_of_others(MAHL_STICK, 2, scores).points == 10
    triple = ToolCard("mahl-stick", "Mahl Stick", "", MappingProxyType({"points": 3}), "")
    assert perfect_tiles_of_others(triple, 0, scores).points == 24


def test_mahl_stick_in_a_game() -> None:
    state = mahl_stick_game()
    assert state.tool is not None
    assert state.tool.card.name == "Mahl Stick"
    record = apply(take_and_discard_round(state), ScoreRound()).scores[0]
    assert record.card == "mahl-stick"
    assert [p.canvas.perfect_tiles for p in record.players] == [6, 0, 6]
    assert [p.tool.points for p in record.players] == [6, 12, 6]
    assert record.players[1].tool.reason == (
        "Mahl Stick: 12 perfect tiles on the other canvases x 1 = 12"
    )
    assert [p.total for p in record.players] == [46, 32, 46]
    assert [(p.position, p.keep_allowance) for p in record.players] == [(1, 0), (2, 1), (1, 0)]


def test_a_player_who_declines_mahl_stick_scores_no_bonus_but_still_counts_for_others() -> None:
    state = apply(mahl_stick_game(), Decline(2))
    record = apply(take_and_discard_round(state), ScoreRound()).scores[0]
    assert [p.tool.points for p in record.players] == [6, 12, 0]
    assert record.players[2].tool.reason == "Mahl Stick: declined"
    assert [p.total for p in record.players] == [46, 32, 40]
    assert [(p.position, p.keep_allowance) for p in record.players] == [(1, 0), (3, 2), (2, 1)]


def test_the_card_lasts_one_round() -> None:
    state = keep_nothing(apply(take_and_discard_round(mahl_stick_game()), ScoreRound()))
    assert state.round == 2
    assert state.tool is None
    record = apply(take_and_discard_round(state), ScoreRound()).scores[1]
    assert record.card is None
    assert [p.tool for p in record.players] == [
        ToolBonus(0, "no Community Tools card this round")
    ] * 3
    assert [p.cumulative for p in record.players] == [86, 52, 86]


# Local Collective ---------------------------------------------------------------------------------


def local_collective_game() -> GameState:
    return new_game(default_content(), players=2, seed=3, community_tools=["local-collective"])


def spend(state: GameState, seat: int, tokens: int) -> GameState:
    """Spend tokens on rotations that always change something (a quarter turn further)."""
    for index in range(tokens):
        space = index % 6 + 1
        placed = state.players[seat].canvas.at(space)
        assert placed is not None
        state = apply(state, Rotate(seat, space, (placed.rotation + 1) % 4))
    return state


def test_local_collective_allows_five_tokens_while_its_round_lasts() -> None:
    state = local_collective_game()
    assert (state.tokens_left(0), state.tokens_left(1)) == (5, 5)
    state = spend(state, 0, 5)
    assert state.tokens_left(0) == 0
    error = refused(state, Swap(0, 1, 2), "inspiration-tokens")
    assert "player 0 has used 5 of 5 Inspiration tokens" in error.message


def test_tokens_used_with_local_collective_stay_used_in_later_rounds() -> None:
    state = spend(spend(local_collective_game(), 0, 5), 1, 2)
    state = keep_nothing(apply(take_and_discard_round(state), ScoreRound()))
    assert state.round == 2
    assert state.tool is None
    assert (state.tokens_left(0), state.tokens_left(1)) == (0, 1)
    refused(state, Rotate(0, 1, 3), "inspiration-tokens")
    state = spend(state, 1, 1)
    refused(state, Rotate(1, 1, 3), "inspiration-tokens")


def test_declining_local_collective_keeps_the_usual_three() -> None:
    state = apply(spend(local_collective_game(), 0, 3), Decline(0))
    assert state.tokens_left(0) == 0
    refused(state, Rotate(0, 4, 1), "inspiration-tokens")
    assert state.tokens_left(1) == 5


def test_declining_is_too_late_once_a_token_only_the_card_allowed_was_spent() -> None:
    state = spend(local_collective_game(), 1, 4)
    error = refused(state, Decline(1), "community-tools")
    assert "player 1 has already used Local Collective this round" in error.message


def test_declining_is_once_per_round_during_the_round() -> None:
    state = apply(local_collective_game(), Decline(0))
    refused(state, Decline(0), "community-tools")
    state = take_and_discard_round(state)
    assert state.phase is Phase.SCORING
    state = apply(state, Decline(1))  # still allowed in the scoring step
    state = apply(state, ScoreRound())
    refused(state, Decline(0), "community-tools")
    state = keep_nothing(state)
    error = refused(state, Decline(0), "community-tools")
    assert "there is no card this round" in error.message


def test_decline_is_refused_without_advanced_play() -> None:
    state = new_game(default_content(), players=2, seed=3)
    refused(state, Decline(0), "community-tools")


def test_unused_tokens_at_the_end_count_round_3s_card() -> None:
    apprentice = ToolCard(
        "apprentice", "Apprentice", "perfect-tiles-of-others", MappingProxyType({"points": 0}), ""
    )
    content = plain_content(extra_tools=[apprentice])
    cards = ["mahl-stick", "apprentice", "local-collective"]
    games = (
        new_game(content, 2, seed, community_tools=cards, canvases=["bare-1", "bare-2"])
        for seed in range(100)
    )
    # The first seed whose shuffled tool deck reveals Local Collective in round 3.
    state = next(game for game in games if game.tool_deck[2].card.id == "local-collective")
    state = spend(state, 1, 3)
    for _ in range(2):
        state = keep_nothing(apply(take_and_discard_round(state), ScoreRound()))
    assert state.tool is not None
    assert state.tool.card.id == "local-collective"
    state = spend(state, 0, 4)  # all-lemon tiles: rotations change no score
    over = apply(take_and_discard_round(state), ScoreRound())
    assert over.totals() == (60, 60)
    assert (over.tokens_left(0), over.tokens_left(1)) == (1, 2)
    assert over.outcome == Outcome((1,), "unused inspiration tokens")


# Plugging in further cards ------------------------------------------------------------------------


def own_perfect_tiles(card: ToolCard, seat: int, scores: Sequence[CanvasScore]) -> ToolBonus:
    count = scores[seat].perfect_tiles
    return ToolBonus(count * card.params["points"], f"{card.name}: {count} perfect tiles of mine")


def one_token_less(card: ToolCard, allowed: int) -> int:
    return allowed - card.params["fewer"]


SIGNATURE = ToolCard(
    "signature", "Signature", "own-perfect-tiles", MappingProxyType({"points": 2}), ""
)
APPRENTICE = ToolCard(
    "apprentice", "Apprentice", "inspiration-tokens", MappingProxyType({"tokens": 4}), ""
)
DRY_BRUSH = ToolCard("dry-brush", "Dry Brush", "fewer-tokens", MappingProxyType({"fewer": 1}), "")
EFFECTS = {
    **DEFAULT_EFFECTS,
    "own-perfect-tiles": Effect(("points",), round_bonus=own_perfect_tiles),
    "fewer-tokens": Effect(("fewer",), tokens_allowed=one_token_less),
}


def plugged(card_id: str) -> GameState:
    content: ColorFieldContent = plain_content(extra_tools=[SIGNATURE, APPRENTICE, DRY_BRUSH])
    return new_game(
        content,
        2,
        seed=1,
        community_tools=[card_id],
        canvases=["lemon-1", "bare-1"],
        effects=EFFECTS,
    )


def test_a_scoring_effect_plugged_in_as_a_function() -> None:
    record = apply(take_and_discard_round(plugged("signature")), ScoreRound()).scores[0]
    assert [p.tool for p in record.players] == [
        ToolBonus(12, "Signature: 6 perfect tiles of mine"),
        ToolBonus(0, "Signature: 0 perfect tiles of mine"),
    ]
    assert [p.total for p in record.players] == [52, 20]


def test_a_token_effect_plugged_in_as_a_function() -> None:
    state = plugged("dry-brush")
    assert state.tokens_left(0) == 2
    state = play(state, Rotate(0, 1, 1), Rotate(0, 1, 2))
    refused(state, Rotate(0, 1, 3), "inspiration-tokens")
    assert apply(state, Decline(0)).tokens_left(0) == 1


def test_a_card_added_as_data_reusing_an_effect_kind() -> None:
    state = plugged("apprentice")
    assert (state.tokens_left(0), state.tokens_left(1)) == (4, 4)
    record = apply(take_and_discard_round(state), ScoreRound()).scores[0]
    assert [p.tool.points for p in record.players] == [0, 0]
    assert record.players[0].tool.reason == "Apprentice: no points at scoring"


def test_a_plugged_effect_needs_its_table_at_set_up() -> None:
    content = plain_content(extra_tools=[SIGNATURE])
    with pytest.raises(AtelierError, match="unknown effect 'own-perfect-tiles'"):
        new_game(content, 2, seed=1, community_tools=["signature"])
