"""The move advisor: the best immediate gain, a one-round look-ahead, bounded work."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.isle.advisor import Limits, advise, advise_player, outlook_sixths
from companion.games.isle.game import Game
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, Condition, Conditions, Sheet
from companion.games.isle.placements import placements
from companion.games.isle.scoring import score_sheet
from tests.isle.drawing import default_island, draw

G, B, N, R = Colour.GREEN, Colour.BLUE, Colour.BROWN, Colour.RED
GRASS_FJORDS = Conditions(Condition.GRASS, Condition.FJORDS, Condition.CAVES, Condition.TOWN)
ROW = "G G G . . . . . ."


def full_gain(sheet: Sheet, conditions: Conditions, mask: int, colour: Colour) -> int:
    before = score_sheet(sheet, conditions).total
    return score_sheet(sheet.with_fill(mask, colour), conditions).total - before


def test_the_best_immediate_gain_without_look_ahead() -> None:
    sheet = draw("G G G G . . .")
    advice = advise(sheet, GRASS_FJORDS, (B, G), 1, next_colours=None)
    assert advice is not None
    assert (advice.colour, advice.cells, advice.gain) == (G, (Cell(0, 4),), 6)
    assert advice.looked_ahead == 0 and advice.outlook == 0
    assert advice.fills_tried == 3 * 2  # three empty cells, two colours


def test_nothing_to_advise_when_nothing_fits() -> None:
    assert advise(draw("G . G"), GRASS_FJORDS, (G, B), 2, next_colours=None) is None


def test_the_look_ahead_keeps_green_for_the_next_round() -> None:
    # Now every fill gains 0. Green at (0,3) leaves blue for next round: a blue group of 3 or 4
    # (rolls 3 and 4) scores 4: 8 sixths. Blue at (0,6) keeps green: rolls 2 and 3 complete a
    # green group of 5 or 6 for 6 each: 12 sixths. The reserve's red cannot score town alone.
    sheet = draw(ROW)
    hand, next_colours = (G, B), {G: (B, R), B: (G, R)}
    greedy = advise(sheet, GRASS_FJORDS, hand, 1, next_colours=None)
    assert greedy is not None and (greedy.colour, greedy.cells) == (G, (Cell(0, 3),))
    advice = advise(sheet, GRASS_FJORDS, hand, 1, next_colours)
    assert advice is not None
    assert (advice.colour, advice.cells, advice.gain) == (B, (Cell(0, 6),), 0)
    assert advice.outlook_sixths == 12 and advice.outlook == 2.0
    assert advice.looked_ahead == 8  # four fills of each colour
    green_first = sheet.with_fill(sheet.island.mask_of([Cell(0, 3)]), G)
    assert outlook_sixths(green_first, GRASS_FJORDS, (B, R)) == 8


def test_the_budget_bounds_the_look_ahead() -> None:
    sheet = draw(ROW)
    next_colours = {G: (B, R), B: (G, R)}
    # A look-ahead scores at most the 21 connected sets of the 6 empty cells in a row, in two
    # colours: 42 evaluations; one fill of each of the two colours costs 84.
    small = advise(sheet, GRASS_FJORDS, (G, B), 1, next_colours, Limits(budget=83))
    assert small is not None and small.looked_ahead == 0
    assert (small.colour, small.cells) == (G, (Cell(0, 3),))
    one_each = advise(sheet, GRASS_FJORDS, (G, B), 1, next_colours, Limits(budget=84))
    assert one_each is not None and one_each.looked_ahead == 2
    # Shortlisted: green (0,3), 8 sixths, and blue (0,3), 6 sixths (only a 5 from (0,4) to
    # (0,8) makes a new green group of 5). Green wins.
    assert (one_each.colour, one_each.cells, one_each.outlook_sixths) == (G, (Cell(0, 3),), 8)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4), st.sampled_from([(G, B), (N, R), (B, R)]))
def test_the_advice_is_a_best_fill_by_full_rescoring(
    seed: int, roll: int, hand: tuple[Colour, Colour]
) -> None:
    rng = random.Random(seed)
    island = draw(". . . . . .\n . . . . . .\n. . . . . .\n . . . . . .").island
    fills = tuple(rng.choice([None, None, *Colour]) for _ in island.cells)
    sheet = Sheet(island, fills)
    conditions = Conditions(
        rng.choice((Condition.GRASS, Condition.FOREST, Condition.SWAMP)),
        rng.choice((Condition.SHORE, Condition.RIVER, Condition.FJORDS)),
        rng.choice((Condition.BEACH, Condition.DESERT, Condition.CAVES)),
        rng.choice((Condition.HAMLET, Condition.VILLAGE, Condition.TOWN)),
    )
    advice = advise(sheet, conditions, hand, roll, next_colours=None)
    gains = [
        full_gain(sheet, conditions, mask, colour)
        for mask in placements(island, sheet.empty_mask, roll)
        for colour in hand
    ]
    if advice is None:
        assert gains == []
        return
    assert advice.gain == max(gains)
    mask = island.mask_of(advice.cells)
    assert full_gain(sheet, conditions, mask, advice.colour) == advice.gain


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32))
def test_the_outlook_is_the_best_next_gain_for_each_face(seed: int) -> None:
    rng = random.Random(seed)
    island = draw(". . . . .\n . . . . .\n. . . . .").island
    sheet = Sheet(island, tuple(rng.choice([None, None, *Colour]) for _ in island.cells))
    conditions = Conditions(Condition.SWAMP, Condition.RIVER, Condition.DESERT, Condition.HAMLET)
    expected = 0
    for face in range(1, 7):
        gains = [
            full_gain(sheet, conditions, mask, colour)
            for mask in placements(island, sheet.empty_mask, face)
            for colour in (G, R)
        ]
        expected += max(gains, default=0)
    assert outlook_sixths(sheet, conditions, (G, R)) == expected


def test_advice_for_a_player_of_a_game() -> None:
    conditions = Conditions(Condition.GRASS, Condition.SHORE, Condition.CAVES, Condition.TOWN)
    game = Game.start(default_island(), conditions, [(G, B)], reserve=(N, R)).rolled(2)
    advice = advise_player(game, 0, Limits(budget=0))
    assert advice is not None
    assert advice.colour is B and advice.gain == 2  # two blue edge cells
    island = game.island
    mask = island.mask_of(advice.cells)
    assert len(advice.cells) == 2 and mask & island.edge_mask == mask
    assert advice.to_json()["color"] == "blue"
