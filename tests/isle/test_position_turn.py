"""An Isle of Colors position's optional round: `roll`, `hand`, `incoming`, `final_round`."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.content.isle import default_content
from companion.errors import FieldError
from companion.fields import Field
from companion.games.isle.model import Colour
from companion.games.isle.position import Turn, parse_position, position_to_json

CONTENT = default_content()
G, B, N, R = Colour.GREEN, Colour.BLUE, Colour.BROWN, Colour.RED


def position(**changes: Any) -> dict[str, Any]:
    base = {
        "game": "isle",
        "conditions": {"green": "grass", "blue": "river", "brown": "caves", "red": "town"},
        "cells": [[0, 2, "green"]],
    }
    return base | changes


def test_no_round_is_none_and_is_not_written() -> None:
    parsed = parse_position(Field(position()), CONTENT)
    assert parsed.turn is None
    assert set(position_to_json(parsed)) == {"game", "island", "conditions", "cells"}


def test_a_round_round_trips() -> None:
    document = position(roll=4, hand=["red", "blue"], incoming="green", final_round=True)
    parsed = parse_position(Field(document), CONTENT)
    assert parsed.turn == Turn(4, (R, B), G, final_round=True)
    assert parse_position(Field(position_to_json(parsed)), CONTENT) == parsed


def test_next_colours_keep_the_unused_colour_and_the_incoming_one() -> None:
    assert Turn(2, (G, B)).next_colours() == {G: (B,), B: (G,)}
    assert Turn(2, (G, B), incoming=R).next_colours() == {G: (B, R), B: (G, R)}
    assert Turn(2, (G, B), incoming=R, final_round=True).next_colours() is None


@pytest.mark.parametrize(
    ("changes", "path", "message"),
    [
        ({"roll": 3}, "hand", "missing"),
        ({"hand": ["green", "red"]}, "roll", "missing"),
        ({"final_round": True}, "roll", "missing"),
        ({"roll": 7, "hand": ["green", "red"]}, "roll", "out of range"),
        ({"roll": 3, "hand": ["green", "red", "blue"]}, "hand", "expected 2 entries"),
        ({"roll": 3, "hand": ["red", "red"]}, "hand[1]", "held twice"),
        ({"roll": 3, "hand": ["red", "blue"], "incoming": "blue"}, "incoming", "already in hand"),
        ({"roll": 3, "hand": ["red", "blue"], "incoming": "grey"}, "incoming", "unknown colour"),
    ],
)
def test_bad_rounds_name_the_field(changes: dict[str, Any], path: str, message: str) -> None:
    with pytest.raises(FieldError, match=re.escape(message)) as caught:
        parse_position(Field(position(**changes)), CONTENT)
    assert caught.value.field == path
