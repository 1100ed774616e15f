"""Standings through the interface: the shared ranking, and each game's ties broken (or shared)
as its rules say: Color Field by the round-3 patch bonus then unused Inspiration tokens,
Paintings by Inspiration tokens, Pigment Lab by large pans pressed; Isle shares its ties."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.content.isle import IsleContent
from companion.games.colorfield import actions as cf
from companion.games.colorfield.rules import ColorFieldRules
from companion.games.colorfield.standings import Outcome
from companion.games.colorfield.state import GameState as FieldState
from companion.games.colorfield.state import Phase
from companion.games.isle.actions import Fill, FillNothing, Roll
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, Island
from companion.games.isle.rules import IsleRules
from companion.games.paintings.model import Painting
from companion.games.paintings.state import PlayerState as PaintingsPlayer
from companion.games.pigments.results import winners
from companion.games.pigments.state import PlayerState as LabPlayer
from companion.games.protocol import GameRules, Setup, Standing, TieBreak, ranked
from companion.games.registry import games
from tests.colorfield.builders import canvas
from tests.colorfield.game_support import plain_content, with_canvases
from tests.paintings.builders import card
from tests.pigments.builders import LARGE, MEDIUM, SMALL, board, pan

Row = tuple[int, int, int, str, tuple[int, ...]]


def places(table: tuple[Standing, ...]) -> list[Row]:
    """Each standing as (seat, points, rank, decided by, the tie-break values)."""
    return [
        (s.seat, s.points, s.rank, s.decided_by, tuple(t.value for t in s.tie_breaks))
        for s in table
    ]


# The shared ranking ---------------------------------------------------------------------------


def test_equal_points_without_tie_breaks_share_a_rank_and_the_next_rank_is_skipped() -> None:
    assert places(ranked([47, 56, 47, 56])) == [
        (1, 56, 1, "shared", ()),
        (3, 56, 1, "shared", ()),
        (0, 47, 3, "shared", ()),
        (2, 47, 3, "shared", ()),
    ]


def test_tie_breaks_apply_in_order_and_each_seat_names_what_placed_it() -> None:
    table = ranked([10, 10, 10, 5], [("patch", [3, 2, 3, 9]), ("tokens", [0, 0, 1, 0])])
    assert places(table) == [
        (2, 10, 1, "tokens", (3, 1)),
        (0, 10, 2, "tokens", (3, 0)),
        (1, 10, 3, "patch", (2, 0)),
        (3, 5, 4, "points", (9, 0)),
    ]
    assert table[0].tie_breaks == (TieBreak("patch", 3), TieBreak("tokens", 1))


def test_a_solo_game_is_won_on_points() -> None:
    assert places(ranked([12])) == [(0, 12, 1, "points", ())]


# Color Field ----------------------------------------------------------------------------------

PLAIN = ColorFieldRules(plain_content())
BARE = Setup(2, 21, {"canvases": ["bare-1", "bare-2"]})


def discard_every_tile(rules: GameRules[FieldState, cf.Action], state: FieldState) -> FieldState:
    """Every turn takes the deck's top tile and discards it; nothing is kept; up to the scoring
    of round 3."""
    while not (state.round == 3 and state.phase is Phase.SCORING):
        seat = rules.whose_turn(state)
        choices: list[cf.Action] = (
            [cf.ScoreRound()]
            if seat is None
            else [cf.Keep(seat, ()), cf.Discard(seat), cf.TakeFromDeck(seat)]
        )
        legal = rules.legal_actions(state)
        state = rules.apply(state, next(action for action in choices if action in legal))
    return state


def test_colorfield_equal_on_every_criterion_share_the_victory() -> None:
    # An all-lemon canvas on a bare board scores 20 a round (tests/colorfield/game_support.py).
    over = PLAIN.apply(discard_every_tile(PLAIN, PLAIN.new_game(BARE)), cf.ScoreRound())
    assert PLAIN.over(over)
    assert places(PLAIN.standings(over)) == [
        (0, 60, 1, "shared", (6, 3)),
        (1, 60, 1, "shared", (6, 3)),
    ]
    assert over.outcome == Outcome((0, 1), "shared")


def test_colorfield_then_more_unused_inspiration_tokens_win() -> None:
    # All-lemon tiles look the same in every rotation: the token changes no score.
    state = PLAIN.apply(PLAIN.new_game(BARE), cf.Rotate(1, 2, 1))
    over = PLAIN.apply(discard_every_tile(PLAIN, state), cf.ScoreRound())
    assert places(PLAIN.standings(over)) == [
        (0, 60, 1, "unused inspiration tokens", (6, 3)),
        (1, 60, 2, "unused inspiration tokens", (6, 2)),
    ]
    assert over.outcome == Outcome((0,), "unused inspiration tokens")


def test_colorfield_a_tie_on_points_goes_to_the_larger_round_3_patch_bonus() -> None:
    state = discard_every_tile(PLAIN, PLAIN.new_game(BARE))
    first, second = (p.canvas.board for p in state.players)
    lemon, navy = "lemon lemon lemon lemon", "navy navy navy navy"
    # 15 edge points and a patch of 6; 13 edge points and a navy patch of 3 tiles + 5 segments.
    doubled = canvas(first, lemon, "lemon lemon:2 lemon lemon", *[lemon] * 4)
    navy_below = canvas(second, lemon, lemon, lemon, navy, navy, navy)
    over = PLAIN.apply(with_canvases(state, [doubled, navy_below]), cf.ScoreRound())
    assert places(PLAIN.standings(over)) == [
        (1, 61, 1, "patch bonus", (8, 3)),
        (0, 61, 2, "patch bonus", (6, 3)),
    ]
    assert over.outcome == Outcome((1,), "patch bonus")
    assert [PLAIN.score(over, seat).points for seat in (0, 1)] == [21, 21]


# Paintings ------------------------------------------------------------------------------------


def test_paintings_ties_go_to_more_inspiration_tokens_else_they_are_shared() -> None:
    rules = games()["paintings"].rules
    goals = ["repetition", "style", "variety", "emphasis"]
    state = rules.new_game(Setup(3, 7, {"scoring_cards": goals}))
    blank = card("-|-|-|-|-")
    two_shapes = Painting((blank, blank, card("shape|-|-|-|shape")))  # 1 repetition ribbon: 3
    players = tuple(PaintingsPlayer(tokens=t, paintings=(two_shapes,)) for t in (2, 5, 5))
    final = replace(state, players=players, current=None)
    assert rules.over(final)
    assert places(rules.standings(final)) == [
        (1, 3, 1, "shared", (5,)),
        (2, 3, 1, "shared", (5,)),
        (0, 3, 3, "inspiration tokens", (2,)),
    ]


# Isle of Colors -------------------------------------------------------------------------------

DOT = IsleContent("dot", MappingProxyType({"dot": Island("dot", "dot", (Cell(0, 0),))}))
# On a one-cell island only brown scores: a lone brown cell is a desert of 4 points.
DOT_SETUP = Setup(
    2,
    0,
    {
        "island": "dot",
        "conditions": {"green": "grass", "blue": "fjords", "brown": "desert", "red": "town"},
    },
)


def fill_the_dot(colours: tuple[Colour, Colour]) -> tuple[IsleRules, Any]:
    """Round 1 fills the only cell; rounds 2 (the trigger) and 3 (the last) have no room."""
    rules = IsleRules(DOT)
    state = rules.new_game(DOT_SETUP)
    assert [p.hand for p in state.players] == [
        (Colour.GREEN, Colour.BROWN),
        (Colour.BLUE, Colour.RED),
    ]
    state = rules.apply(state, Roll(1))
    for seat, colour in enumerate(colours):
        state = rules.apply(state, Fill(seat, colour, frozenset({Cell(0, 0)})))
    for _ in (2, 3):
        state = rules.apply(state, Roll(1))
        assert rules.legal_actions(state) == (FillNothing(0), FillNothing(1))
        state = rules.apply(rules.apply(state, FillNothing(0)), FillNothing(1))
    assert rules.over(state) and rules.round(state) == 3
    return rules, state


def test_isle_ties_are_shared() -> None:
    rules, over = fill_the_dot((Colour.GREEN, Colour.BLUE))
    assert places(rules.standings(over)) == [(0, 0, 1, "shared", ()), (1, 0, 1, "shared", ())]


def test_isle_the_higher_total_wins() -> None:
    rules, over = fill_the_dot((Colour.BROWN, Colour.BLUE))
    assert places(rules.standings(over)) == [(0, 4, 1, "points", ()), (1, 0, 2, "points", ())]
    assert rules.score(over, 0).data["colors"]["brown"]["points"] == 4


# Pigment Lab ----------------------------------------------------------------------------------


def test_pigments_ties_go_to_more_large_pans_else_they_are_shared() -> None:
    rules = games()["pigments"].rules
    large = LabPlayer(
        board(pan(SMALL, pressed=True), None, None, pan(LARGE, pressed=True)),
        spill_history=(0,),
    )  # 2 + 9
    smalls = LabPlayer(
        board(pan(SMALL, pressed=True), pan(MEDIUM, pressed=True), pan(MEDIUM, pressed=True)),
        spill_history=(2,),
    )  # 2 + 5 + 5, and -1 for the second chip on the Spill Line
    state = replace(rules.new_game(Setup(3, 7)), players=(large, smalls, large))
    assert places(rules.standings(state)) == [
        (0, 11, 1, "shared", (1,)),
        (2, 11, 1, "shared", (1,)),
        (1, 11, 3, "large pans pressed", (0,)),
    ]
    assert winners(state) == (0, 2)
    assert rules.score(state, 1).points == 11
