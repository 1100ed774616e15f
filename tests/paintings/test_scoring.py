"""Tracks, silver points and a player's total over their paintings, with the JSON shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content.paintings import default_content
from companion.fields import Field
from companion.games.paintings.model import ArtCard, Goal, Icon, Painting, ScoringCard
from companion.games.paintings.position import parse_position, position_to_json
from companion.games.paintings.scoring import score_player
from tests.paintings.builders import BLANK, painting, scoring

EXAMPLE = Path(__file__).parents[2] / "companion/content/examples/paintings.json"

TRACKS = {
    Goal.COMPOSITION: (1, 3, 9),
    Goal.CONSISTENCY: (3, 6, 10),
    Goal.EMPHASIS: (1, 4, 11),
    Goal.HIERARCHY: (4, 9, 15),
    Goal.MOVEMENT: (3, 7, 12),
    Goal.PROPORTION: (2, 5, 10),
    Goal.PROXIMITY: (2, 5, 8, 12),
    Goal.REPETITION: (3, 7, 11, 16),
    Goal.SPACE: (2, 4, 7, 11),
    Goal.STYLE: (4, 10, 18),
    Goal.SYMMETRY: (1, 3, 6, 11),
    Goal.VARIETY: (4, 8, 13),
}


def test_default_tracks_are_the_ruled_tracks() -> None:
    cards = default_content().scoring_cards
    assert {goal: card.track for goal, card in cards.items()} == TRACKS


@pytest.mark.parametrize("goal", list(Goal))
def test_track_lookup_at_zero_along_and_past_the_end(goal: Goal) -> None:
    card = default_content().scoring_cards[goal]
    track = TRACKS[goal]
    assert card.points(0) == 0
    for ribbons, value in enumerate(track, start=1):
        assert card.points(ribbons) == value
    # The last value applies to that count and above.
    assert card.points(len(track) + 1) == track[-1]
    assert card.points(len(track) + 5) == track[-1]


def test_track_past_the_end_worked_examples() -> None:
    assert ScoringCard(Goal.STYLE, (4, 10, 18)).points(4) == 18
    assert ScoringCard(Goal.PROXIMITY, (2, 5, 8, 12)).points(7) == 12
    assert ScoringCard(Goal.REPETITION, (3, 7, 11, 16)).points(3) == 11


def test_ribbons_sum_over_paintings_before_the_track() -> None:
    # Each painting shows 2 shapes: one repetition ribbon each; 3 ribbons score 11, not 3 x 3.
    shapes = painting("- | - | - | - | -", "- | - | - | - | -", "shape | - | - | - | shape")
    score = score_player([shapes, shapes, shapes], scoring(Goal.REPETITION))
    assert score.tracks[0].ribbons == 3
    assert score.total == 11


def test_silver_ribbons_are_worth_two_points_each() -> None:
    bonus = painting(
        "shape | - | - | - | -", "- | shape | - | - | -", "bonus-shape | - | shape | - | -"
    )
    score = score_player([bonus], scoring(Goal.STYLE))
    # The top card covers the bottom shape in slot 1: shapes in slots 2 and 3 remain.
    assert score.silver == 2
    assert score.silver_points == 4
    assert score.total == 4


def test_rulebook_style_example_file_worked_by_hand() -> None:
    data = json.loads(EXAMPLE.read_text())
    position = parse_position(Field(data), default_content())
    out = score_player(position.paintings, position.scoring_cards).to_json()
    # Painting 1: 2 shapes, all slots filled, 2 hues, no tone. Painting 2:
    # 3 shapes, all slots, 2 hues, no texture. Painting 3: all four elements, 1 hue, 2 shapes,
    # all slots, and bonus-shape sees 2 shapes.
    assert out["ribbons"] == {"variety": 1, "repetition": 3, "emphasis": 1, "composition": 3}
    assert out["silver"] == 2
    assert out["points"] == {
        "variety": 4,
        "repetition": 11,
        "emphasis": 1,
        "composition": 9,
        "silver": 4,
    }
    assert out["total"] == 29
    first = out["paintings"][0]
    assert first["visible"] == [["texture"], ["hue"], ["shape"], ["shape", "bonus-tone"], ["hue"]]
    assert first["from_card"] == [1, 0, 2, 0, 2]
    assert first["ribbons"] == {"variety": 0, "repetition": 1, "emphasis": 0, "composition": 1}
    assert first["silver"] == 0
    assert out["paintings"][2]["silver"] == 2
    earned = out["paintings"][2]["explained"]["repetition"]["earned"]
    assert earned == [
        {
            "reason": "shapes in slots 3, 5",
            "icons": [
                {"slot": 3, "icon": "shape", "card": 2},
                {"slot": 5, "icon": "shape", "card": 1},
            ],
        }
    ]


def test_position_round_trips_through_json() -> None:
    data = json.loads(EXAMPLE.read_text())
    content = default_content()
    position = parse_position(Field(data), content)
    again = parse_position(Field(position_to_json(position)), content)
    assert again == position


PAINTINGS = st.lists(
    st.lists(st.sampled_from(default_content().deck()), min_size=3, max_size=3).map(
        lambda cards: Painting((cards[0], cards[1], cards[2]))
    ),
    min_size=1,
    max_size=3,
)


@settings(max_examples=60, deadline=None)
@given(PAINTINGS, st.permutations(list(Goal)))
def test_every_point_is_accounted_for(paintings: list[Painting], goals: list[Goal]) -> None:
    cards = scoring(*goals[:4])
    out = score_player(paintings, cards).to_json()
    assert out["total"] == sum(out["points"].values())
    assert out["points"]["silver"] == 2 * out["silver"]
    for goal in goals[:4]:
        per_painting = [p["ribbons"][goal.value] for p in out["paintings"]]
        assert out["ribbons"][goal.value] == sum(per_painting)
    for p in out["paintings"]:
        shown = {(i, icon) for i, slot in enumerate(p["visible"], start=1) for icon in slot}
        for explained in p["explained"].values():
            assert len(explained["earned"]) == explained["ribbons"]
            for ribbon in explained["earned"]:
                assert {(v["slot"], v["icon"]) for v in ribbon["icons"]} <= shown
        assert p["silver"] == sum(a["ribbons"] for a in p["silver_awards"])


def test_cards_and_paintings_refuse_impossible_shapes() -> None:
    with pytest.raises(ValueError, match="5 slots"):
        ArtCard(((), (), ()))
    with pytest.raises(ValueError, match="at most 2 icons"):
        ArtCard(((Icon.HUE,) * 3, (), (), (), ()))
    with pytest.raises(ValueError, match="3 cards"):
        Painting((BLANK, BLANK))  # type: ignore[arg-type]
