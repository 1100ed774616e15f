"""``atelier score``, ``--version`` and ``--help``: through the real console script for its exit
statuses, streams and standard input; the positions and files it refuses through its main()."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import __version__
from companion.cli.main import COMMANDS
from tests.cli import assert_user_error, atelier, atelier_main

EXAMPLE = Path(__file__).parents[1] / "companion/content/examples/colorfield-rulebook.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def write(tmp_path: Path, data: object, name: str = "position.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_version() -> None:
    run = atelier("--version")
    assert run.status == 0
    assert run.stdout.strip() == f"atelier {__version__}"


def test_help_lists_commands_with_an_example() -> None:
    run = atelier("--help")
    assert run.status == 0
    assert "score" in run.stdout and "bench" in run.stdout
    assert "atelier score" in run.stdout
    score_help = atelier("score", "--help")
    assert score_help.status == 0
    assert "example:" in score_help.stdout


def test_help_before_a_command_still_lists_every_command() -> None:
    run = atelier_main("-h", "score")
    assert run.status == 0
    listed = re.findall(r"^    (\S+)", run.stdout, re.MULTILINE)
    assert listed == list(COMMANDS)


def test_a_command_imports_only_its_own_module() -> None:
    # A fresh interpreter: the test process has imported every command already.
    script = (
        "import sys\n"
        "from companion.cli.main import main\n"
        f"main(['score', {str(EXAMPLE)!r}])\n"
        "print(*sorted(m for m in sys.modules if m.startswith('companion.cli.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True)
    assert done.stdout.decode().splitlines()[-1].split() == [
        "companion.cli.main",
        "companion.cli.position_command",
        "companion.cli.score",
    ]


def test_score_prints_json_on_stdout_only() -> None:
    run = atelier("score", EXAMPLE)
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["total"] == 35
    assert data["edge_points"] == 30
    assert data["patch"] == data["patch"] | {"color": "coral", "size": 5, "points": 5}
    assert [t["points"] for t in data["tiles"]] == [2, 6, 6, 5, 5, 6]
    assert run.stderr == ""


def test_explain_prints_the_breakdown_for_people() -> None:
    run = atelier_main("score", "--explain", EXAMPLE)
    assert run.status == 0
    assert json.loads(run.stdout)["total"] == 35
    text = run.stderr
    assert text.startswith("Color Field canvas: 35 points (30 edge points + 5 largest patch)")
    assert "Space 4" in text and "coral x3" in text and "matches space 5 (coral): +3" in text
    assert "Largest patch: coral, size 5 (space 3, space 4, space 5, space 6, canvas right[0])" in (
        text
    )


def test_score_reads_standard_input() -> None:
    run = atelier("score", "-", stdin=EXAMPLE.read_text())
    assert run.status == 0
    assert json.loads(run.stdout)["total"] == 35


def test_catalogue_tiles_and_boards_score_like_their_inline_form(tmp_path: Path) -> None:
    by_id = {
        "game": "colorfield",
        "canvas": "canvas-2",
        "spaces": [{"tile": f"F-{i:02d}", "rotation": i % 4} for i in range(1, 7)],
    }
    inline = atelier_main("score", write(tmp_path, by_id))
    assert inline.status == 0, inline.stderr
    catalogue = json.loads(
        (Path(__file__).parents[1] / "companion/content/colorfield.json").read_text()
    )
    tiles = {t["id"]: t for t in catalogue["tiles"]}
    board = next(c for c in catalogue["canvases"] if c["id"] == "canvas-2")
    spelled = {
        "game": "colorfield",
        "canvas": {k: v for k, v in board.items() if k != "id"},
        "spaces": [{"edges": tiles[f"F-{i:02d}"]["edges"], "rotation": i % 4} for i in range(1, 7)],
    }
    run = atelier_main("score", write(tmp_path, spelled, "spelled.json"))
    assert json.loads(run.stdout)["total"] == json.loads(inline.stdout)["total"]


def mutate(path: str, value: object) -> dict[str, Any]:
    """The example with the value at a dotted/indexed path replaced (or removed for ...)."""
    data = example()
    target: Any = data
    keys: list[str | int] = [
        int(k) if k.isdigit() else k for k in path.replace("[", ".").replace("]", "").split(".")
    ]
    for key in keys[:-1]:
        target = target[key]
    if value is ...:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return data


BAD_POSITIONS = [
    (mutate("spaces[3].edges[1]", ["pink", 1]), "spaces[3].edges[1]: unknown colour 'pink'"),
    (mutate("spaces[0].edges[0]", ["lemon", 4]), "spaces[0].edges[0]: 4 is out of range"),
    (mutate("spaces[0].edges", [["lemon", 1]] * 3), "spaces[0].edges: expected 4 entries"),
    (mutate("spaces[2].rotation", 4), "spaces[2].rotation: 4 is out of range"),
    (mutate("spaces[2].rotation", True), "spaces[2].rotation: expected a whole number"),
    (mutate("spaces[2].rotaton", 1), "spaces[2].rotaton: unknown key"),
    (mutate("spaces[5]", ...), "spaces: expected 6 entries, got 5"),
    (mutate("spaces[1]", {"tile": "Z-99"}), "spaces[1].tile: unknown tile 'Z-99'"),
    (mutate("spaces[1]", {"rotation": 1}), "spaces[1]: a space needs 'edges' or 'tile'"),
    (mutate("spaces[1]", "F-01"), "spaces[1]: expected an object"),
    (mutate("canvas.top[1]", ["navy", "navy"]), "canvas.top[1][1]: a segment shows two"),
    (mutate("canvas.left", [["navy", "lemon"]]), "canvas.left: expected 2 entries, got 1"),
    (mutate("canvas", "canvas-9"), "canvas: unknown canvas board 'canvas-9'"),
    (mutate("canvas.right", ...), "canvas.right: missing"),
    (mutate("game", "chess"), "game: unknown game 'chess'"),
    (mutate("game", 7), "game: expected a string"),
    (mutate("game", ...), "game: missing"),
    (mutate("extra", 1), "extra: unknown key"),
    ([1, 2, 3], "expected a position object"),
]


@pytest.mark.parametrize(("data", "message"), BAD_POSITIONS)
def test_bad_positions_are_one_line_naming_file_and_field(
    tmp_path: Path, data: object, message: str
) -> None:
    path = write(tmp_path, data)
    assert_user_error(atelier_main("score", path), str(path), message)


def test_tile_id_with_edges_that_disagree_is_refused(tmp_path: Path) -> None:
    data = copy.deepcopy(example())
    data["spaces"][0] = {"tile": "F-01", "edges": data["spaces"][0]["edges"], "rotation": 0}
    path = write(tmp_path, data)
    assert_user_error(
        atelier_main("score", path), "spaces[0].edges: do not match catalogue tile 'F-01'"
    )


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"game": "colorfield",\n  "canvas": }')
    assert_user_error(atelier_main("score", path), str(path), "line 2 column 13: not valid JSON")


def test_missing_file_directory_and_binary(tmp_path: Path) -> None:
    assert_user_error(atelier_main("score", tmp_path / "nope.json"), "nope.json: no such file")
    assert_user_error(atelier_main("score", tmp_path), "is a directory")
    binary = tmp_path / "photo.json"
    binary.write_bytes(b"\xff\xd8\xff\xe0 not text")
    assert_user_error(atelier_main("score", binary), "photo.json: not UTF-8 text")


def test_empty_and_broken_standard_input() -> None:
    assert_user_error(atelier_main("score", "-", stdin=""), "<stdin>: empty input")
    assert_user_error(atelier_main("score", "-", stdin="{"), "<stdin>: line 1 column 2")


def test_usage_errors_are_one_line_with_status_2() -> None:
    assert_user_error(
        atelier("score"),
        "atelier score: the following arguments are required: FILE",
        "see 'atelier score --help'",
    )
    assert_user_error(atelier("frobnicate"), "invalid choice: 'frobnicate'")


def test_user_deck_file_replaces_the_tiles(tmp_path: Path) -> None:
    deck = {
        "format": 1,
        "game": "colorfield",
        "tiles": [
            {"id": "MY-1", "kind": "foundation", "edges": [["navy", 3]] * 4},
        ],
    }
    deck_path = write(tmp_path, deck, "deck.json")
    position = {
        "game": "colorfield",
        "canvas": "canvas-1",
        "spaces": [{"tile": "MY-1"}] + [None] * 5,
    }
    pos_path = write(tmp_path, position)
    run = atelier_main("score", "--deck", deck_path, pos_path)
    assert run.status == 0, run.stderr
    assert json.loads(run.stdout)["tiles"][0]["tile"] == "MY-1"
    default = atelier_main("score", pos_path)
    assert_user_error(default, "spaces[0].tile: unknown tile 'MY-1'")


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ({"format": 1, "game": "colorfield"}, "tiles: missing"),
        ({"format": 2, "game": "colorfield", "tiles": []}, "format: unsupported format"),
        ({"format": 1, "game": "isle", "tiles": []}, "game: this is not a Color Field catalogue"),
        (
            {
                "format": 1,
                "game": "colorfield",
                "tiles": [
                    {"id": "A", "kind": "foundation", "edges": [["navy", 1]] * 4},
                    {"id": "A", "kind": "round1", "edges": [["navy", 1]] * 4},
                ],
            },
            "tiles[1].id: duplicate tile id 'A'",
        ),
        (
            {
                "format": 1,
                "game": "colorfield",
                "tiles": [{"id": "A", "kind": "round9", "edges": [["navy", 1]] * 4}],
            },
            "tiles[0].kind: unknown tile kind 'round9'",
        ),
    ],
)
def test_bad_deck_files(tmp_path: Path, deck: object, message: str) -> None:
    deck_path = write(tmp_path, deck, "deck.json")
    run = atelier_main("score", "--deck", deck_path, EXAMPLE)
    assert_user_error(run, "deck.json", message)


def test_deep_nesting_and_huge_numbers_are_user_errors(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 1_000 + "]" * 1_000)
    assert_user_error(atelier_main("score", deep), f"{deep}: nested more than 32 levels deep")
    huge = '{"game": "isle", "cells": [[0, ' + "2" * 5_000 + ', "green"]]}'
    assert_user_error(
        atelier_main("score", "-", stdin=huge), "<stdin>: a whole number out of range"
    )
    wide = '{"game": "isle", "cells": [[0, 99999999999999999999, "green"]]}'
    assert_user_error(
        atelier_main("score", "-", stdin=wide), "<stdin>: cells[0][1]: a whole number out of range"
    )
