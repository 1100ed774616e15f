"""Isle of Colors legality between a sheet and the same sheet one round later: each rule on a
hand-made change, the legal changes that must not warn, and whole engine games that never warn."""

from __future__ import annotations

import random

from companion.content.isle import default_content
from companion.games.isle.game import deal
from companion.games.isle.hexgrid import Cell
from companion.games.isle.legality import Round, check
from companion.games.isle.model import Colour, Sheet
from companion.games.isle.placements import placements

ISLAND = default_content().islands["default"]
G, B, R = Colour.GREEN, Colour.BLUE, Colour.RED


def sheet(**cells: list[tuple[int, int]]) -> Sheet:
    return Sheet.from_cells(
        ISLAND, {Cell(r, c): Colour(name) for name, found in cells.items() for r, c in found}
    )


def rules(before: Sheet, after: Sheet, round_: Round) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.rule, v.components) for v in check(before, after, round_)]


START = sheet(green=[(0, 2), (0, 3)])


def test_a_group_of_the_roll_in_one_colour_is_legal() -> None:
    after = sheet(green=[(0, 2), (0, 3)], blue=[(4, 4), (4, 5), (4, 6)])
    assert rules(START, after, Round(roll=3, previous_colour=G)) == []


def test_an_erased_and_a_recoloured_cell_are_named() -> None:
    after = sheet(blue=[(0, 2), (4, 4)])
    found = check(START, after, Round(roll=1))
    assert [(v.rule, v.components) for v in found] == [
        ("cell-erased", ("cell (0,3)",)),
        ("cell-recoloured", ("cell (0,2)",)),
    ]
    assert found[0].message == (
        "a filled cell stays filled, but the cell at row 1, place 4 is empty now"
    )
    assert found[1].message == (
        "a filled cell keeps its colour, but the cell at row 1, place 3 was green, now blue"
    )


def test_two_colours_two_groups_and_the_wrong_size() -> None:
    after = sheet(green=[(0, 2), (0, 3), (4, 4)], blue=[(8, 8)])
    assert rules(START, after, Round(roll=3)) == [
        ("one-colour", ("cell (4,4)", "cell (8,8)")),
        ("one-group", ("cell (4,4)", "cell (8,8)")),
        ("roll-size", ("cell (4,4)", "cell (8,8)")),
    ]


def test_without_a_roll_only_more_than_a_die_shows_is_the_wrong_size() -> None:
    row = [(4, c) for c in range(7)]
    assert rules(START, sheet(green=[(0, 2), (0, 3)], red=row[:6]), Round()) == []
    assert rules(START, sheet(green=[(0, 2), (0, 3)], red=row), Round()) == [
        ("roll-size", tuple(f"cell (4,{c})" for c in range(7)))
    ]


def test_filling_nothing_is_legal_only_without_room() -> None:
    assert rules(START, START, Round(roll=6)) == [("room-left", ())]
    assert rules(START, START, Round()) == []
    # Every cell but three scattered ones filled: no group of 2 fits, one of 1 does.
    spots = {Cell(0, 2), Cell(4, 5), Cell(8, 8)}
    full = Sheet.from_cells(ISLAND, {cell: G for cell in ISLAND.cells if cell not in spots})
    assert rules(full, full, Round(roll=2)) == []
    assert rules(full, full, Round(roll=1)) == [("room-left", ())]


def test_the_colour_given_away_in_the_swap_is_not_used_again() -> None:
    after = sheet(green=[(0, 2), (0, 3), (0, 4)])
    assert rules(START, after, Round(roll=1, previous_colour=G)) == [
        ("colour-given-away", ("cell (0,4)",))
    ]
    assert rules(START, after, Round(roll=1, previous_colour=G, players=1)) == [
        ("colour-given-away", ("cell (0,4)",))
    ]
    # With more players than the swap is written for, who holds green is unknown.
    assert rules(START, after, Round(roll=1, previous_colour=G, players=3)) == []
    assert rules(START, after, Round(roll=1, previous_colour=R)) == []


def test_engine_games_never_warn() -> None:
    """Random two-player games played by the engine: every round's change, judged with the roll
    and the colour each player used the round before, is legal."""
    for seed in range(12):
        rng = random.Random(seed)
        game = deal(ISLAND, 2, rng)
        previous: list[Colour | None] = [None, None]
        while not game.over:
            roll = rng.randint(1, 6)
            game = game.rolled(roll)
            before = [p.sheet for p in game.players]
            used: list[Colour | None] = [None, None]
            for player in range(2):
                if not game.can_fill(player):
                    game = game.fill_nothing(player)
                    continue
                colour = rng.choice(game.players[player].hand)
                options = list(placements(ISLAND, before[player].empty_mask, roll))
                cells = ISLAND.cells_of(rng.choice(options[:50]))
                game = game.fill(player, colour, cells)
                used[player] = colour
            for player in range(2):
                after = game.players[player].sheet
                round_ = Round(roll, previous[player])
                assert check(before[player], after, round_) == (), (seed, player)
            previous = used
