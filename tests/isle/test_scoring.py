"""The twelve conditions on hand-drawn islands, at and around every threshold."""

from __future__ import annotations

from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, Condition, Conditions
from companion.games.isle.scoring import score_sheet
from tests.isle.drawing import draw, on_default, points, score

C = Condition


def cells(*pairs: tuple[int, int]) -> tuple[Cell, ...]:
    return tuple(Cell(r, c) for r, c in pairs)


# --- green ---------------------------------------------------------------------------------


def test_grass_a_group_of_four_scores_nothing_and_of_five_scores_six() -> None:
    assert points("G G G G . .", C.GRASS) == 0
    assert points("G G G G G .", C.GRASS) == 6
    assert points("G G G G G G", C.GRASS) == 6  # one group, however large


def test_grass_counts_each_group_of_five_or_more() -> None:
    picture = """
        G G G G G . .
         . . . . . . .
        G G G G G G .
         . . . . . . .
        G G G G . . .
        """
    result = score(picture, C.GRASS)
    assert result.points == 12
    assert [len(s.cells) for s in result.scored] == [5, 6]
    assert result.scored[0].cells == cells((0, 0), (0, 1), (0, 2), (0, 3), (0, 4))


def test_grass_groups_join_across_rows() -> None:
    # (0,0) (0,1) (1,0) (1,1) (2,1): five cells joined through the hex neighbours.
    picture = """
        G G . .
         G G . .
        . G . .
        """
    assert points(picture, C.GRASS) == 6


def test_forest_one_per_green_cell_next_to_blue() -> None:
    picture = """
        G B . G
         . G . .
        """
    result = score(picture, C.FOREST)
    assert result.points == 2
    assert [s.cells for s in result.scored] == [cells((0, 0)), cells((1, 1))]
    assert points("G . B", C.FOREST) == 0


def test_swamp_is_twice_the_second_largest_group() -> None:
    picture = """
        G G G G G G .
         . . . . . . .
        G G G G . . .
         . . . . . . .
        G G . . . . .
        """
    result = score(picture, C.SWAMP)
    assert result.points == 8
    assert result.scored[0].cells == cells((2, 0), (2, 1), (2, 2), (2, 3))


def test_swamp_two_groups_of_five_give_ten() -> None:
    picture = """
        G G G G G .
         . . . . . .
        G G G G G .
        """
    assert points(picture, C.SWAMP) == 10


def test_swamp_needs_two_groups() -> None:
    assert points("G G G . .", C.SWAMP) == 0
    assert points(". . . . .", C.SWAMP) == 0
    assert points("G . G . .", C.SWAMP) == 2


# --- blue ----------------------------------------------------------------------------------


def test_shore_one_per_blue_edge_cell() -> None:
    picture = """
        . . . . .
         . . . . .
        B . B . .
         . . . . .
        . . . . .
        """
    result = score(picture, C.SHORE)
    assert result.points == 1  # (2, 2) has six island neighbours
    assert result.scored[0].cells == cells((2, 0))


def test_shore_on_the_default_island() -> None:
    sheet = on_default({(4, 0): Colour.BLUE, (4, 5): Colour.BLUE, (0, 5): Colour.BLUE})
    conditions = Conditions(C.GRASS, C.SHORE, C.BEACH, C.HAMLET)
    assert score_sheet(sheet, conditions).of(Colour.BLUE).points == 2


def test_river_a_line_is_a_river() -> None:
    assert points(". B B B B .", C.RIVER) == 8
    assert points("B . . . . .", C.RIVER) == 2  # a lone cell is a river of 1
    assert points(". . . . . .", C.RIVER) == 0


def test_river_with_a_branch_is_not_a_river() -> None:
    # (1,1) and (1,2) each have three blue neighbours once (2,2) joins.
    branched = """
        . . . . . .
         B B B B . .
        . . B . . .
         . . . . . .
        B B B . . .
        """
    result = score(branched, C.RIVER)
    assert result.points == 6  # only the line of 3 below is a river
    assert result.scored[0].cells == cells((4, 0), (4, 1), (4, 2))
    unbranched = branched.replace(". . B . . .", ". . . . . .")
    assert points(unbranched, C.RIVER) == 8


def test_river_a_closed_loop_counts() -> None:
    ring = """
        . B B .
         B . B .
        . B B .
        """
    assert points(ring, C.RIVER) == 12  # six cells, each with two blue neighbours
    assert points(ring.replace("B . B", "B B B"), C.RIVER) == 0  # the centre has six
    assert points("B B . .\n . B . .", C.RIVER) == 6  # a triangle: each touches the other two


def test_fjords_four_per_group_of_three_or_four() -> None:
    picture = """
        B B . B B B . B B B B . B B B B B
        """
    result = score(picture, C.FJORDS)
    assert result.points == 8
    assert [len(s.cells) for s in result.scored] == [3, 4]


# --- brown ---------------------------------------------------------------------------------


def test_beach_two_per_brown_cell_next_to_green_and_blue() -> None:
    picture = """
        G N B
         . N .
        """
    result = score(picture, C.BEACH)
    assert result.points == 2
    assert result.scored[0].cells == cells((0, 1))
    assert points("G N . B", C.BEACH) == 0


def test_desert_four_per_brown_group_away_from_blue() -> None:
    picture = """
        N N . B N
         . . . . .
        N . . . .
        """
    result = score(picture, C.DESERT)
    assert result.points == 8
    assert [s.cells for s in result.scored] == [cells((0, 0), (0, 1)), cells((2, 0))]


def test_desert_one_wet_cell_spoils_the_group() -> None:
    assert points("N N N B", C.DESERT) == 0
    assert points("N N N . B", C.DESERT) == 4


def test_caves_along_a_row() -> None:
    assert points(". N N N N .", C.CAVES) == 12
    assert points(". N N . N .", C.CAVES) == 6


def test_caves_along_the_northwest_southeast_axis() -> None:
    picture = """
        N . . . .
         N . . . .
        . N . . .
         . N . . .
        """
    result = score(picture, C.CAVES)
    assert result.points == 12
    assert result.scored[0].cells == cells((0, 0), (1, 0), (2, 1), (3, 1))
    assert "northwest-southeast" in result.scored[0].reason


def test_caves_along_the_northeast_southwest_axis() -> None:
    picture = """
        . . . N .
         . . N . .
        . . N . .
         . N . . .
        """
    result = score(picture, C.CAVES)
    assert result.points == 12
    assert result.scored[0].cells == cells((0, 3), (1, 2), (2, 2), (3, 1))


def test_caves_a_bent_line_is_not_straight() -> None:
    # (0,0) -> (1,0) goes southeast, (1,0) -> (2,0) goes southwest.
    picture = """
        N . .
         N . .
        N . .
        """
    assert points(picture, C.CAVES) == 6
    assert points("N . .", C.CAVES) == 3
    assert points(". . .", C.CAVES) == 0


# --- red -----------------------------------------------------------------------------------


def test_hamlet_three_per_red_cell_next_to_an_empty_cell() -> None:
    picture = """
        R G R .
         G G G G
        """
    result = score(picture, C.HAMLET)
    assert result.points == 3
    assert result.scored[0].cells == cells((0, 2))


def test_village_needs_green_blue_and_brown() -> None:
    assert points("G R B\n . N .", C.VILLAGE) == 3
    assert points("G R B\n . . .", C.VILLAGE) == 0
    # (0,1) touches all three; (1,2) touches blue (0,2) and brown (1,1) but no green.
    assert points("G R B\n . N R", C.VILLAGE) == 3


def test_town_distance_two_versus_three() -> None:
    assert points("R . R . . .", C.TOWN) == 0
    assert points("R . . R . .", C.TOWN) == 8


def test_town_needs_two_groups() -> None:
    assert points("R R . . . .", C.TOWN) == 0
    assert points(". . . . . .", C.TOWN) == 0


def test_town_each_group_against_every_other() -> None:
    result = score("R . . R . R . .", C.TOWN)
    assert result.points == 4  # (0,3) and (0,5) are 2 apart; (0,0) is 3 from both
    assert result.scored[0].cells == cells((0, 0))


def test_town_distance_is_measured_on_the_hex_grid() -> None:
    # (0,0) and (2,2) are 3 apart; (0,0) and (2,1) only 2 (two rows, one sideways step).
    assert points("R . .\n . . .\n. . R", C.TOWN) == 8
    assert points("R . .\n . . .\n. R .", C.TOWN) == 0


def test_town_group_distance_is_between_nearest_cells() -> None:
    assert points("R R R . . R R", C.TOWN) == 8  # nearest cells (0,2) and (0,5): 3 apart
    assert points("R R R . R R R", C.TOWN) == 0


def test_score_json_shape() -> None:
    sheet = draw("G G G G G B N R")
    data = score_sheet(sheet, Conditions(C.GRASS, C.SHORE, C.CAVES, C.HAMLET)).to_json()
    assert data["game"] == "isle"
    assert data["total"] == 6 + 1 + 3 + 0
    assert data["colors"]["green"]["condition"] == "grass"
    assert data["colors"]["green"]["points"] == 6
    assert data["colors"]["green"]["scored"][0]["cells"] == [[0, c] for c in range(5)]
    assert set(data["colors"]) == {"green", "blue", "brown", "red"}
