"""Hex geometry and islands: neighbours exactly as games.md gives them, distances, edges, lines."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.isle.hexgrid import Axis, Cell, distance, neighbours, step
from companion.games.isle.model import Colour
from tests.isle.drawing import default_island, draw

DEFAULT_ROWS = [(2, 8), (1, 8), (1, 9), (0, 9), (0, 10), (0, 9), (1, 9), (1, 8), (2, 8)]
cells = st.builds(Cell, st.integers(-20, 20), st.integers(-20, 20))


def test_neighbours_of_an_even_row_cell() -> None:
    assert set(neighbours(Cell(2, 4))) == {
        Cell(2, 3), Cell(2, 5), Cell(1, 3), Cell(1, 4), Cell(3, 3), Cell(3, 4)
    }  # fmt: skip


def test_neighbours_of_an_odd_row_cell() -> None:
    assert set(neighbours(Cell(3, 4))) == {
        Cell(3, 3), Cell(3, 5), Cell(2, 4), Cell(2, 5), Cell(4, 4), Cell(4, 5)
    }  # fmt: skip


@settings(max_examples=60)
@given(cells)
def test_neighbours_are_symmetric_and_one_step_away(cell: Cell) -> None:
    around = neighbours(cell)
    assert len(set(around)) == 6
    for other in around:
        assert cell in neighbours(other)
        assert distance(cell, other) == 1


@settings(max_examples=60)
@given(cells, cells, cells)
def test_distance_is_a_metric(a: Cell, b: Cell, c: Cell) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_distances_worked_by_hand() -> None:
    assert distance(Cell(0, 0), Cell(0, 3)) == 3
    assert distance(Cell(0, 0), Cell(2, 1)) == 2  # (0,0) -> (1,0) -> (2,1)
    assert distance(Cell(0, 0), Cell(2, 2)) == 3
    assert distance(Cell(1, 0), Cell(3, 0)) == 2  # (1,0) -> (2,0) -> (3,0)
    assert distance(Cell(0, 0), Cell(4, 0)) == 4


@settings(max_examples=60)
@given(cells, st.sampled_from(list(Axis)))
def test_steps_along_an_axis_are_neighbours_and_reversible(cell: Cell, axis: Axis) -> None:
    ahead = step(cell, axis)
    assert ahead in neighbours(cell)
    assert step(ahead, axis, -1) == cell
    assert distance(cell, step(ahead, axis)) == 2  # straight: two steps stay two apart


def test_axis_steps_worked_by_hand() -> None:
    assert step(Cell(2, 4), Axis.EAST_WEST) == Cell(2, 5)
    assert step(Cell(2, 4), Axis.NORTHWEST_SOUTHEAST) == Cell(3, 4)
    assert step(Cell(3, 4), Axis.NORTHWEST_SOUTHEAST) == Cell(4, 5)
    assert step(Cell(2, 4), Axis.NORTHEAST_SOUTHWEST) == Cell(3, 3)
    assert step(Cell(3, 4), Axis.NORTHEAST_SOUTHWEST) == Cell(4, 4)


def test_the_default_island_has_the_rows_of_the_rules() -> None:
    island = default_island()
    assert len(island.cells) == 79
    for row, (first, last) in enumerate(DEFAULT_ROWS):
        assert [c.col for c in island.cells if c.row == row] == list(range(first, last + 1))


def test_default_island_edges_are_the_top_and_bottom_rows_and_each_row_end() -> None:
    island = default_island()
    edge = set(island.cells_of(island.edge_mask))
    expected = {c for c in island.cells if c.row in (0, 8)}
    expected |= {Cell(row, end) for row, span in enumerate(DEFAULT_ROWS) for end in span}
    assert edge == expected
    assert len(edge) == 28
    assert Cell(2, 8) not in edge  # (2, 9) lies beyond it, so it has six neighbours


def test_neighbours_off_the_island_do_not_count() -> None:
    island = default_island()
    corner = island.index[Cell(0, 2)]
    assert {island.cells[j] for j in island.neighbours[corner]} == {
        Cell(0, 3), Cell(1, 1), Cell(1, 2)
    }  # fmt: skip


def test_lines_of_the_default_island_along_each_axis() -> None:
    island = default_island()
    rows = island.lines(Axis.EAST_WEST)
    assert [len(line) for line in rows] == [7, 8, 9, 10, 11, 10, 9, 8, 7]
    for axis in Axis:
        lines = island.lines(axis)
        assert sorted(c for line in lines for c in line) == list(island.cells)
        for line in lines:
            for a, b in itertools.pairwise(line):
                assert step(a, axis) == b
    southeast = island.lines(Axis.NORTHWEST_SOUTHEAST)
    assert (Cell(0, 2), Cell(1, 2), Cell(2, 3), Cell(3, 3), Cell(4, 4)) == southeast[0][:5]


def test_groups_are_maximal_connected_sets_of_one_colour() -> None:
    sheet = draw(
        """
        G G . G
         . G . G
        B . . .
        """
    )
    assert sheet.groups(Colour.GREEN) == (
        (Cell(0, 0), Cell(0, 1), Cell(1, 1)),
        (Cell(0, 3), Cell(1, 3)),
    )
    assert sheet.groups(Colour.BLUE) == ((Cell(2, 0),),)
    assert sheet.groups(Colour.RED) == ()
