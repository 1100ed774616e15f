"""A Paintings position's optional ``hand``: read, checked, written back."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.content.paintings import default_content
from companion.errors import FieldError
from companion.fields import Field
from companion.games.paintings.position import parse_position, position_to_json

CONTENT = default_content()
BLANK: dict[str, Any] = {"slots": [[], [], [], [], []]}


def position(**changes: Any) -> dict[str, Any]:
    base = {
        "game": "paintings",
        "scoring_cards": ["variety", "repetition", "emphasis", "composition"],
        "paintings": [[{"card": "A-01"}, {"card": "A-02"}, {"card": "A-03"}]],
    }
    return base | changes


def test_no_hand_is_none_and_is_not_written() -> None:
    parsed = parse_position(Field(position()), CONTENT)
    assert parsed.hand is None
    assert "hand" not in position_to_json(parsed)


def test_a_hand_round_trips_with_catalogue_ids() -> None:
    parsed = parse_position(Field(position(hand=[{"card": "A-04"}, BLANK])), CONTENT)
    assert parsed.hand is not None
    assert [card.id for card in parsed.hand] == ["A-04", None]
    assert parse_position(Field(position_to_json(parsed)), CONTENT) == parsed


def test_with_a_hand_no_painting_need_be_done() -> None:
    parsed = parse_position(Field(position(paintings=[], hand=[])), CONTENT)
    assert parsed.paintings == () and parsed.hand == ()


@pytest.mark.parametrize(
    ("changes", "path", "message"),
    [
        ({"paintings": []}, "paintings", "at least 1"),
        ({"hand": [BLANK] * 6}, "hand", "at most 5"),
        ({"hand": {"card": "A-04"}}, "hand", "expected a list"),
        ({"hand": [{"card": "A-01"}]}, "hand[0]", "already in paintings[0]"),
        ({"hand": [{"slots": [[], []]}]}, "hand[0].slots", "expected 5 entries"),
        ({"paintings": [[BLANK] * 3] * 3, "hand": []}, "paintings", "all 3 paintings are done"),
    ],
)
def test_bad_hands_name_the_field(changes: dict[str, Any], path: str, message: str) -> None:
    with pytest.raises(FieldError, match=re.escape(message)) as caught:
        parse_position(Field(position(**changes)), CONTENT)
    assert caught.value.field == path
