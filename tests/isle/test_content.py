"""Island files and position documents: validated on load, every mistake named by its field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.content.isle import content_for, default_content, parse_content
from companion.errors import FieldError, SourceError
from companion.fields import Field
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, Condition
from companion.games.isle.position import parse_position, position_to_json

EXAMPLE = Path(__file__).parents[2] / "companion/content/examples/isle.json"


def island_file(**island: Any) -> dict[str, Any]:
    return {"format": 1, "game": "isle", "islands": [{"id": "tiny", "rows": [[0, 2]], **island}]}


def position(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "game": "isle",
        "island": "default",
        "conditions": {"green": "grass", "blue": "river", "brown": "caves", "red": "town"},
        "cells": [[0, 2, "green"], [4, 10, "blue"]],
    }
    document.update(changes)
    return document


def test_an_island_file_with_spans_nulls_and_lakes() -> None:
    content = parse_content(island_file(rows=[[0, 2], None, [1, 3]], lakes=[[2, 2]], name="Tiny"))
    island = content.islands["tiny"]
    assert island.name == "Tiny"
    assert island.cells == (Cell(0, 0), Cell(0, 1), Cell(0, 2), Cell(2, 1), Cell(2, 3))


@pytest.mark.parametrize(
    ("islands", "field", "words"),
    [
        ([{"id": "x", "rows": [[3, 1]]}], "islands[0].rows[0][1]", "left of"),
        ([{"id": "x", "rows": [[0, 99]]}], "islands[0].rows[0][1]", "out of range"),
        ([{"id": "x", "rows": [None]}], "islands[0].rows", "at least one cell"),
        ([{"id": "x", "rows": [[0, 1]], "lakes": [[0, 5]]}], "islands[0].lakes[0]", "not on"),
        ([{"id": "x", "rows": [[0, 1]], "shape": 1}], "islands[0].shape", "unknown key"),
        ([{"id": "x", "rows": [[0, 1]]}, {"id": "x", "rows": [[0, 1]]}], "islands[1].id", "dup"),
    ],
)
def test_bad_island_files_name_the_field(islands: object, field: str, words: str) -> None:
    with pytest.raises(FieldError) as caught:
        parse_content({"format": 1, "game": "isle", "islands": islands})
    assert caught.value.field == field
    assert words in caught.value.message


def test_a_user_file_adds_islands_and_keeps_the_default(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(island_file()))
    content = content_for(path)
    assert set(content.islands) == {"default", "tiny"}
    assert len(content.islands["tiny"].cells) == 3


def test_a_bad_user_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"format": 1, "game": "colorfield", "islands": []}))
    with pytest.raises(SourceError, match=r"mine\.json: game: this is not an Isle"):
        content_for(path)


def test_the_example_position_round_trips() -> None:
    document = json.loads(EXAMPLE.read_text())
    parsed = parse_position(Field(document), default_content())
    again = position_to_json(parsed)
    assert sorted(map(tuple, again["cells"])) == sorted(map(tuple, document["cells"]))
    assert again["conditions"] == document["conditions"]
    assert parse_position(Field(again), default_content()) == parsed


def test_a_position_without_an_island_uses_the_default() -> None:
    document = position()
    del document["island"]
    parsed = parse_position(Field(document), default_content())
    assert parsed.sheet.island.id == "default"
    assert parsed.sheet.at(Cell(0, 2)) is Colour.GREEN
    assert parsed.conditions.of(Colour.RED) is Condition.TOWN


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"cells": [[0, 1, "green"]]}, "cells[0]", "not on island 'default'"),
        ({"cells": [[9, 5, "green"]]}, "cells[0]", "not on island"),
        ({"cells": [[0, 2, "green"], [0, 2, "red"]]}, "cells[1]", "listed twice"),
        ({"cells": [[0, 2, "pink"]]}, "cells[0][2]", "unknown colour 'pink'"),
        ({"cells": [[0, 2]]}, "cells[0]", "expected 3 entries"),
        ({"cells": [[0, "2", "red"]]}, "cells[0][1]", "whole number"),
        ({"island": "atlantis"}, "island", "unknown island 'atlantis'"),
        ({"conditions": {"green": "river", "blue": "river", "brown": "caves", "red": "town"}},
         "conditions.green", "is a blue condition"),
        ({"conditions": {"green": "grass", "blue": "river", "brown": "caves"}},
         "conditions.red", "missing"),
        ({"conditions": {"green": "lawn", "blue": "river", "brown": "caves", "red": "town"}},
         "conditions.green", "unknown condition 'lawn'"),
        ({"colour": "x"}, "colour", "unknown key"),
    ],
)  # fmt: skip
def test_bad_positions_name_the_field(changes: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(FieldError) as caught:
        parse_position(Field(position(**changes)), default_content())
    assert caught.value.field == field
    assert words in caught.value.message
