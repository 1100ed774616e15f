"""The JSON parser every file and request body goes through: documents past its depth and number
limits are one-line errors naming the field where there is one, never an exception from deep
inside Python's parser."""

from __future__ import annotations

import pytest

from companion.json_input import MAX_DEPTH, MAX_WHOLE, JsonError, parse_json


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_documents_within_the_limits_read_as_json_reads_them() -> None:
    document = '{"seat": -9223372036854775807, "ok": true, "x": [1.5e308, null, "9" ]}'
    assert parse_json(document) == {"seat": -MAX_WHOLE, "ok": True, "x": [1.5e308, None, "9"]}
    deepest: list[object] = []
    for _ in range(MAX_DEPTH - 1):
        deepest = [deepest]
    assert parse_json(nested(MAX_DEPTH)) == deepest
    assert parse_json('"9999999999999999999999"') == "9999999999999999999999"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1_000, 100_000])
def test_deep_nesting_is_refused_however_deep(depth: int) -> None:
    with pytest.raises(JsonError) as refused:
        parse_json(nested(depth))
    assert str(refused.value) == f"nested more than {MAX_DEPTH} levels deep"


def test_deep_objects_are_refused_as_lists_are() -> None:
    text = '{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)
    with pytest.raises(JsonError, match="nested more than"):
        parse_json(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"players": [{"seat": 9223372036854775808}]}',
            "players[0].seat: a whole number out of range",
        ),
        ('{"scan": -9223372036854775808}', "scan: a whole number out of range"),
        # More digits than Python converts at all (4,300): no field can be named.
        ('{"scan": ' + "1" * 5_000 + "}", "a whole number out of range"),
        ("[1, 2, 1e999]", "[2]: expected a finite number"),
        ('{"rms": NaN}', "rms: expected a finite number"),
        ('{"a": {"b": -Infinity}}', "a.b: expected a finite number"),
        ("1e400", "expected a finite number"),
    ],
)
def test_numbers_past_the_limits_are_refused_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(JsonError) as refused:
        parse_json(text)
    assert str(refused.value).startswith(message)
    assert "\n" not in str(refused.value)


def test_a_syntax_error_names_the_line_and_column() -> None:
    with pytest.raises(JsonError) as refused:
        parse_json('{"game":\n }')
    assert str(refused.value) == "line 2 column 2: not valid JSON (Expecting value)"
