"""Color Field scoring: the rulebook example, each rule in isolation, and invariants."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.colorfield.model import (
    Canvas,
    CanvasBoard,
    Colour,
    Edge,
    PlacedTile,
    SegmentRef,
    Side,
    Tile,
)
from companion.games.colorfield.scoring import score_canvas
from tests.colorfield.builders import board, canvas, rulebook_canvas, tile

# A board whose segments never show lemon, so lemon edges only ever match other tiles.
NO_LEMON = board(
    "navy/coral navy/coral navy/coral",
    "navy/coral navy/coral navy/coral",
    "navy/turquoise navy/turquoise",
    "navy/turquoise navy/turquoise",
)
LEMON = "lemon lemon lemon lemon"


def test_rulebook_example_scores_35() -> None:
    score = score_canvas(rulebook_canvas())
    assert [t.points for t in score.tiles] == [2, 6, 6, 5, 5, 6]
    assert score.edge_points == 30
    assert score.patch.colour is Colour.CORAL
    assert score.patch.spaces == (3, 4, 5, 6)
    assert score.patch.segments == (SegmentRef("right", 0),)
    assert (score.patch.size, score.patch.points) == (5, 5)
    assert score.total == 35


def test_rulebook_example_sides_match_the_rulebook_text() -> None:
    tiles = score_canvas(rulebook_canvas()).tiles
    # Tile 1: top lemon 1, right coral 1, bottom none, left none.
    assert [(s.matched, s.points) for s in tiles[0].sides] == [
        (True, 1),
        (True, 1),
        (False, 0),
        (False, 0),
    ]
    assert [s.against for s in tiles[0].sides] == ["top[0]", "space 2", "space 4", "left[0]"]
    # Tile 4: top none, right coral 3, bottom navy 1, left turquoise 1.
    assert [s.points for s in tiles[3].sides] == [0, 3, 1, 1]
    assert [t.perfect for t in tiles] == [False, True, True, False, True, True]


def test_a_tile_tile_match_scores_from_both_sides_with_each_own_multiplier() -> None:
    c = canvas(NO_LEMON, "navy lemon:3 navy navy", "navy navy navy lemon:1", None, None, None, None)
    score = score_canvas(c)
    east_of_1 = score.tiles[0].sides[Side.E]
    west_of_2 = score.tiles[1].sides[Side.W]
    assert (east_of_1.matched, east_of_1.points) == (True, 3)
    assert (west_of_2.matched, west_of_2.points) == (True, 1)


def test_an_empty_neighbour_never_matches() -> None:
    c = canvas(NO_LEMON, LEMON, None, None, None, None, None)
    sides = score_canvas(c).tiles[0].sides
    assert sides[Side.E].against == "space 2"
    assert sides[Side.E].facing == ()
    assert not sides[Side.E].matched
    assert score_canvas(c).total == 0


def test_border_matches_either_colour_of_the_segment() -> None:
    b = board(
        "lemon/navy coral/turquoise coral/turquoise",
        "coral/turquoise coral/turquoise coral/turquoise",
        "coral/turquoise coral/turquoise",
        "coral/turquoise coral/turquoise",
    )
    first = score_canvas(canvas(b, "lemon navy navy navy", None, None, None, None, None))
    second = score_canvas(canvas(b, "navy:2 navy navy navy", None, None, None, None, None))
    assert first.tiles[0].sides[Side.N].points == 1
    assert second.tiles[0].sides[Side.N].points == 2


def test_rotation_decides_which_printed_edge_faces_each_side() -> None:
    # Printed N, E, S, W = lemon, coral, navy, turquoise; one quarter turn clockwise puts the
    # printed west edge on top: (side - rotation) mod 4.
    placed = PlacedTile(tile("lemon coral navy turquoise"), 1)
    assert [placed.edge(s).colour.value for s in Side] == ["turquoise", "lemon", "coral", "navy"]
    placed = PlacedTile(tile("lemon coral navy turquoise"), 2)
    assert placed.edge(Side.N).colour is Colour.NAVY


def test_perfect_tile_needs_all_four_sides() -> None:
    score = score_canvas(rulebook_canvas())
    assert score.perfect_tiles == 4


def test_patch_counts_tiles_and_segments_and_needs_an_arc() -> None:
    # A lone lemon tile against no lemon anywhere: no patch at all.
    alone = score_canvas(canvas(NO_LEMON, LEMON, None, None, None, None, None))
    assert alone.patch.colour is None
    assert alone.patch.size == 0


def test_patch_of_two_scores_nothing_and_three_scores_three() -> None:
    two = canvas(NO_LEMON, LEMON, LEMON, None, None, None, None)
    three = canvas(NO_LEMON, LEMON, LEMON, LEMON, None, None, None)
    assert (score_canvas(two).patch.size, score_canvas(two).patch.points) == (2, 0)
    assert (score_canvas(three).patch.size, score_canvas(three).patch.points) == (3, 3)


def test_patch_reaches_through_segments_into_tiles() -> None:
    # Lemon on top edges of spaces 1 and 3 only, each touching a lemon segment: two patches of 2.
    b = replace(
        NO_LEMON,
        top=(
            (Colour.LEMON, Colour.NAVY),
            (Colour.NAVY, Colour.CORAL),
            (Colour.LEMON, Colour.NAVY),
        ),
    )
    c = canvas(b, "lemon navy navy navy", None, "lemon navy navy navy", None, None, None)
    patch = score_canvas(c).patch
    assert patch.size == 2
    assert patch.points == 0


def test_a_full_lemon_canvas_on_a_lemon_free_board() -> None:
    c = canvas(NO_LEMON, *([LEMON] * 6))
    score = score_canvas(c)
    # Interior sides: 7 tile-tile contacts, each matched from both sides.
    assert score.edge_points == 14
    assert (score.patch.size, score.patch.points) == (6, 6)
    assert score.total == 20


def test_score_json_has_the_keys_positions_md_promises() -> None:
    data = score_canvas(rulebook_canvas()).to_json()
    assert data["game"] == "colorfield"
    assert data["total"] == 35
    assert data["edge_points"] == 30
    assert data["patch"]["color"] == "coral"
    assert data["patch"]["size"] == 5
    assert data["patch"]["points"] == 5
    assert data["tiles"][0] == data["tiles"][0] | {"space": 1, "points": 2, "perfect": False}
    assert len(data["tiles"]) == 6


# --- invariants -------------------------------------------------------------------------------

colours = st.sampled_from(list(Colour))
edges = st.builds(Edge, colours, st.integers(1, 3))
tiles = st.builds(lambda e: Tile((e[0], e[1], e[2], e[3])), st.lists(edges, min_size=4, max_size=4))
placed = st.one_of(st.none(), st.builds(PlacedTile, tiles, st.integers(0, 3)))
segments = st.lists(colours, min_size=2, max_size=2, unique=True).map(lambda p: (p[0], p[1]))


@st.composite
def canvases(draw: st.DrawFn) -> Canvas:
    segs = [draw(segments) for _ in range(10)]
    b = CanvasBoard(
        top=(segs[0], segs[1], segs[2]),
        bottom=(segs[3], segs[4], segs[5]),
        left=(segs[6], segs[7]),
        right=(segs[8], segs[9]),
    )
    return Canvas(b, tuple(draw(placed) for _ in range(6)))


def rotate_half_turn(c: Canvas) -> Canvas:
    """The whole picture turned 180 degrees: space i goes to 7 - i, each tile turns twice."""

    def flip(s: tuple[Colour, Colour]) -> tuple[Colour, Colour]:
        return (s[1], s[0])

    b = c.board
    turned = CanvasBoard(
        top=(flip(b.bottom[2]), flip(b.bottom[1]), flip(b.bottom[0])),
        bottom=(flip(b.top[2]), flip(b.top[1]), flip(b.top[0])),
        left=(flip(b.right[1]), flip(b.right[0])),
        right=(flip(b.left[1]), flip(b.left[0])),
    )
    spaces = tuple(None if p is None else p.rotated(2) for p in reversed(c.spaces))
    return Canvas(turned, spaces)


def mirror(c: Canvas) -> Canvas:
    """The picture seen in a mirror: columns reversed, each tile's east and west edges swapped."""

    def flip_tile(p: PlacedTile | None) -> PlacedTile | None:
        if p is None:
            return None
        n, e, s, w = (p.edge(side) for side in Side)
        return PlacedTile(Tile((n, w, s, e)), 0)

    b = c.board
    mirrored = CanvasBoard(
        top=(b.top[2], b.top[1], b.top[0]),
        bottom=(b.bottom[2], b.bottom[1], b.bottom[0]),
        left=b.right,
        right=b.left,
    )
    order = (3, 2, 1, 6, 5, 4)
    return Canvas(mirrored, tuple(flip_tile(c.at(i)) for i in order))


def relabel(c: Canvas, mapping: dict[Colour, Colour]) -> Canvas:
    def tile_(p: PlacedTile | None) -> PlacedTile | None:
        if p is None:
            return None
        e = tuple(Edge(mapping[x.colour], x.multiplier) for x in p.tile.edges)
        return PlacedTile(Tile((e[0], e[1], e[2], e[3])), p.rotation)

    def m(s: tuple[Colour, Colour]) -> tuple[Colour, Colour]:
        return (mapping[s[0]], mapping[s[1]])

    b = c.board
    new = CanvasBoard(
        top=(m(b.top[0]), m(b.top[1]), m(b.top[2])),
        bottom=(m(b.bottom[0]), m(b.bottom[1]), m(b.bottom[2])),
        left=(m(b.left[0]), m(b.left[1])),
        right=(m(b.right[0]), m(b.right[1])),
    )
    return Canvas(new, tuple(tile_(p) for p in c.spaces))


@settings(max_examples=150, deadline=None)
@given(canvases())
def test_total_is_tiles_plus_patch(c: Canvas) -> None:
    score = score_canvas(c)
    assert score.total == sum(t.points for t in score.tiles) + score.patch.points
    assert score.patch.points in (0, score.patch.size)
    assert score.patch.size <= 16


@settings(max_examples=150, deadline=None)
@given(canvases())
def test_turning_the_whole_picture_keeps_the_score(c: Canvas) -> None:
    a, b = score_canvas(c), score_canvas(rotate_half_turn(c))
    assert (a.total, a.edge_points, a.patch.size, a.perfect_tiles) == (
        b.total,
        b.edge_points,
        b.patch.size,
        b.perfect_tiles,
    )
    assert sorted(t.points for t in a.tiles) == sorted(t.points for t in b.tiles)


@settings(max_examples=150, deadline=None)
@given(canvases())
def test_mirroring_the_picture_keeps_the_score(c: Canvas) -> None:
    a, b = score_canvas(c), score_canvas(mirror(c))
    assert (a.total, a.patch.size, a.perfect_tiles) == (b.total, b.patch.size, b.perfect_tiles)


@settings(max_examples=150, deadline=None)
@given(canvases(), st.permutations(list(Colour)))
def test_relabelling_colours_keeps_the_score(c: Canvas, perm: list[Colour]) -> None:
    mapping = dict(zip(Colour, perm, strict=True))
    a, b = score_canvas(c), score_canvas(relabel(c, mapping))
    assert (a.total, a.edge_points, a.patch.size) == (b.total, b.edge_points, b.patch.size)
    if a.patch.colour is not None and b.patch.colour is not None:
        assert len(b.patch.spaces) + len(b.patch.segments) == a.patch.size


@settings(max_examples=100, deadline=None)
@given(canvases())
def test_tile_tile_matches_are_symmetric(c: Canvas) -> None:
    score = score_canvas(c)
    by_space = {t.space: t for t in score.tiles}
    for t in score.tiles:
        for side in t.sides:
            if side.against.startswith("space "):
                other = int(side.against.split()[1])
                if other in by_space:
                    back = by_space[other].sides[side.side.opposite]
                    assert back.matched == side.matched
