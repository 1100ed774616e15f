"""The game as a state machine: dealing, rolls, legal fills, swaps, usage, the end and ties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalActionError
from companion.games.isle.game import Game, Trigger, deal, roll_die
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, Condition, Conditions, Island
from companion.games.isle.placements import placements
from tests.isle.drawing import default_island, draw

G, B, N, R = Colour.GREEN, Colour.BLUE, Colour.BROWN, Colour.RED
PLAIN = Conditions(Condition.GRASS, Condition.FJORDS, Condition.CAVES, Condition.TOWN)


def two_players(island: Island | None = None) -> Game:
    return Game.start(island or default_island(), PLAIN, [(G, B), (N, R)])


def solo(island: Island | None = None) -> Game:
    return Game.start(island or default_island(), PLAIN, [(G, B)], reserve=(N, R))


def first_fit(game: Game, player: int) -> tuple[Cell, ...]:
    sheet = game.players[player].sheet
    assert game.roll is not None
    mask = next(placements(sheet.island, sheet.empty_mask, game.roll))
    return sheet.island.cells_of(mask)


def play_round(game: Game, roll: int, colours: list[Colour]) -> Game:
    game = game.rolled(roll)
    for player, colour in enumerate(colours):
        game = game.fill(player, colour, first_fit(game, player))
    return game


def refused(rule: str, action: object, *args: object) -> None:
    with pytest.raises(IllegalActionError) as caught:
        action(*args)  # type: ignore[operator]
    assert caught.value.rule == rule


# --- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2])
def test_deal_gives_two_colours_each_and_a_condition_per_colour(players: int) -> None:
    game = deal(default_island(), players, random.Random(3))
    held = [c for p in game.players for c in p.hand]
    assert len(game.players) == players
    assert all(len(p.hand) == 2 for p in game.players)
    assert sorted(held + list(game.reserve)) == sorted(Colour)
    assert len(game.reserve) == 4 - 2 * players
    for colour, condition in game.conditions.items():
        assert condition.colour is colour
    assert game.round == 1 and game.roll is None and not game.over


def test_dealing_is_repeatable_from_a_seed() -> None:
    assert deal(default_island(), 2, random.Random(9)) == deal(
        default_island(), 2, random.Random(9)
    )
    rolls = [roll_die(random.Random(5)) for _ in range(3)]
    assert len(set(rolls)) == 1 and 1 <= rolls[0] <= 6


def test_start_refuses_a_bad_deal() -> None:
    with pytest.raises(ValueError, match="each player holds 2"):
        Game.start(default_island(), PLAIN, [(G, B), (G, R)])
    with pytest.raises(ValueError, match="1 or 2 players"):
        Game.start(default_island(), PLAIN, [(G,), (B,), (N,), (R,)])


# --- rolls and fills -----------------------------------------------------------------------


def test_the_die_shows_one_to_six_once_per_round() -> None:
    game = two_players()
    refused("die", game.rolled, 0)
    refused("die", game.rolled, 7)
    refused("one-roll", game.rolled(3).rolled, 4)
    refused("roll-first", game.fill, 0, G, [Cell(0, 2)])


def test_illegal_fills_name_the_rule_they_break() -> None:
    game = two_players().rolled(2)
    refused("colour-not-held", game.fill, 0, R, [Cell(0, 2), Cell(0, 3)])
    refused("wrong-size", game.fill, 0, G, [Cell(0, 2)])
    refused("wrong-size", game.fill, 0, G, [Cell(0, 2), Cell(0, 3), Cell(0, 4)])
    refused("wrong-size", game.fill, 0, G, [Cell(0, 2), Cell(0, 2)])
    refused("not-connected", game.fill, 0, G, [Cell(0, 2), Cell(0, 4)])
    refused("off-island", game.fill, 0, G, [Cell(0, 1), Cell(0, 2)])
    refused("no-such-player", game.fill, 2, G, [Cell(0, 2), Cell(0, 3)])
    after = game.fill(0, G, [Cell(0, 2), Cell(0, 3)])
    refused("one-fill-per-round", after.fill, 0, B, [Cell(1, 2), Cell(1, 3)])
    taken = after.fill(1, N, [Cell(4, 4), Cell(4, 5)]).rolled(2)
    assert taken.players[0].hand == (N, B)
    refused("cell-taken", taken.fill, 0, B, [Cell(0, 3), Cell(0, 4)])


def test_a_fill_colours_the_sheet_and_counts_the_use() -> None:
    game = two_players().rolled(3).fill(0, G, [Cell(0, 2), Cell(0, 3), Cell(1, 2)])
    sheet = game.players[0].sheet
    assert [sheet.at(c) for c in (Cell(0, 2), Cell(0, 3), Cell(1, 2))] == [G, G, G]
    assert sheet.at(Cell(0, 4)) is None
    assert game.players[0].used(G) == 1 and game.players[0].used(B) == 0
    assert game.players[1].sheet.empty_mask == game.island.all_mask  # islands are separate


def test_after_both_fill_the_used_colours_are_swapped() -> None:
    game = play_round(two_players(), 1, [G, R])
    assert game.round == 2 and game.roll is None
    assert game.players[0].hand == (R, B)
    assert game.players[1].hand == (N, G)


def test_no_swap_before_everyone_has_acted() -> None:
    game = two_players().rolled(1).fill(0, G, [Cell(0, 2)])
    assert game.round == 1
    assert game.players[0].hand == (G, B)


def test_solo_swaps_with_the_reserve_queue() -> None:
    game = play_round(solo(), 1, [G])
    assert game.players[0].hand == (N, B)
    assert game.reserve == (R, G)
    game = play_round(game, 1, [B])
    assert game.players[0].hand == (N, R)
    assert game.reserve == (G, B)


# --- the end -------------------------------------------------------------------------------


def test_sixth_use_triggers_one_more_round_then_the_end() -> None:
    # Each player uses green whenever they hold it: player 0 in odd rounds, player 1 in even.
    game = two_players()
    while not game.over:
        colours = [G if G in p.hand else p.hand[0] for p in game.players]
        game = play_round(game, 1, colours)
    assert game.triggers[0].round == 11 and game.triggers[0].player == 0
    assert game.triggers[0].reason is Trigger.SIXTH_USE and game.triggers[0].colour is G
    assert game.final_round == 12 and game.round == 12
    assert game.players[0].used(G) == 6 and game.players[1].used(G) == 6
    # Brown, used by each player in the other rounds, reaches 6 too; the final round stays 12.
    assert [(t.round, t.player, t.colour) for t in game.triggers] == [
        (11, 0, G), (11, 1, N), (12, 0, N), (12, 1, G)
    ]  # fmt: skip
    refused("game-over", game.rolled, 1)


def test_the_trigger_round_finishes_before_the_final_round() -> None:
    game = two_players()
    for _ in range(10):
        colours = [G if G in p.hand else p.hand[0] for p in game.players]
        game = play_round(game, 1, colours)
    game = game.rolled(1)
    game = game.fill(0, G, first_fit(game, 0))  # round 11: the 6th green
    assert game.final_round == 12 and not game.over
    game = game.fill(1, N, first_fit(game, 1))
    assert game.round == 12 and not game.over
    assert game.is_final_round


def test_no_room_fills_nothing_and_triggers_the_end() -> None:
    game = solo(draw(". . . . .").island)
    game = play_round(game, 3, [G])  # two cells left
    game = game.rolled(3)
    assert not game.can_fill(0)
    refused("colour-not-held", game.fill, 0, G, [Cell(0, 3), Cell(0, 4)])
    game = game.fill_nothing(0)
    assert game.triggers[0].reason is Trigger.NO_ROOM
    assert game.final_round == 3 and game.round == 3
    assert game.players[0].hand == (N, B)  # nothing used, nothing swapped
    game = game.rolled(2)
    assert game.can_fill(0)
    refused("must-fill", game.fill_nothing, 0)
    game = game.fill(0, N, [Cell(0, 3), Cell(0, 4)])
    assert game.over


def test_a_pass_means_no_swap_for_anyone() -> None:
    tiny = draw(". . .").island
    game = play_round(two_players(tiny), 3, [G, N])
    game = game.rolled(3).fill_nothing(0).fill_nothing(1)
    assert game.players[0].hand == (N, B) and game.players[1].hand == (G, R)
    assert [t.player for t in game.triggers] == [0, 1]


# --- scoring -------------------------------------------------------------------------------


def test_a_tie_is_shared() -> None:
    game = two_players().rolled(1).fill(0, G, [Cell(0, 2)]).fill(1, R, [Cell(0, 2)])
    result = game.result()
    assert [s.total for s in result.scores] == [0, 0]
    assert result.winners == (0, 1)


def test_the_higher_total_wins() -> None:
    game = two_players().rolled(1).fill(0, G, [Cell(0, 2)]).fill(1, N, [Cell(0, 2)])
    result = game.result()
    assert [s.total for s in result.scores] == [0, 3]  # a lone brown cell: a cave of 1
    assert result.winners == (1,)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 2]))
def test_random_games_end_with_legal_sheets(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = deal(default_island(), players, rng)
    while not game.over:
        game = game.rolled(roll_die(rng))
        for p in range(players):
            if not game.can_fill(p):
                game = game.fill_nothing(p)
                continue
            colour = rng.choice(game.players[p].hand)
            game = game.fill(p, colour, first_fit(game, p))
    assert game.final_round == game.round
    assert game.triggers and game.triggers[0].round == game.round - 1
    for state in game.players:
        assert sum(state.uses) <= game.round  # at most one fill a round
        counts = {c: sum(1 for _, x in state.sheet.filled() if x is c) for c in Colour}
        for colour in Colour:
            assert state.used(colour) <= counts[colour] <= 6 * state.used(colour)
