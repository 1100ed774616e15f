"""Every command-line error about an unknown value names the valid choices: whole when few, the
closest first when many. In-process: each is one call of ``main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.choices import known_choices
from companion.cli.main import main

EXAMPLES = Path(__file__).parents[1] / "companion" / "content" / "examples"
DICTIONARIES = "4X4_100, 4X4_1000, 4X4_250, 4X4_50, 5X5_100"
SHADES = "apricot, azure, blush, coral, cornflower, cream, ice, mint, ochre, peach, sage, salmon"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line a user's mistake gives, once its exit status 2 is checked."""
    try:
        status = main(argv)
    except SystemExit as exit:  # argparse's own refusals
        status = int(str(exit.code))
    captured = capsys.readouterr()
    assert status == 2, captured
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


def position(tmp_path: Path, example: str, old: str, new: str) -> str:
    """A bundled example with one value replaced, written to a file of its own."""
    text = (EXAMPLES / example).read_text()
    assert old in text
    path = tmp_path / "position.json"
    path.write_text(text.replace(old, new, 1))
    return str(path)


CASES = {
    "pigment": (
        ["pigments", "mix", "Fe2O3", "xyz"],
        "unknown chip 'xyz' (known: Fe2O3, FeO(OH), ultramarine, TiO2, binder)",
    ),
    "shade": (
        ["pigments", "check", "--shade", "cora", "--chips", "Fe2O3", "Fe2O3"],
        f"--shade: unknown shade 'cora' (known: {SHADES}, shell, sky, soot, white)",
    ),
    "pan": (
        ["pigments", "check", "--shade", "coral", "--chips", "Fe2O3", "--pan", "huge"],
        "--pan: unknown pan 'huge' (known: small, medium, large)",
    ),
    "print game": (
        ["print", "chess", "-o", "{tmp}/sheets"],
        "unknown game 'chess' (known: colorfield, paintings, isle, pigments, calibration, all)",
    ),
    "random game": (
        ["render", "--random", "chess", "-o", "{tmp}/t.jpg"],
        "--random: unknown game 'chess' (known: colorfield, paintings, isle, pigments)",
    ),
    "scan game": (
        ["scan", "x.jpg", "--game", "chess"],
        "invalid choice: 'chess' (choose from 'colorfield', 'paintings', 'isle', 'pigments')",
    ),
    "scoring card": (
        ["scan", "x.jpg", "--scoring-cards", "style,spacing,emphasis,variety"],
        "--scoring-cards: unknown scoring card 'spacing' (known: composition, consistency,",
    ),
    "condition colour": (
        ["scan", "x.jpg", "--conditions", "pink=hamlet"],
        "--conditions: unknown colour 'pink' (known: green, blue, brown, red)",
    ),
    "condition": (
        ["scan", "x.jpg", "--conditions", "red=city"],
        "--conditions: unknown condition 'city' for red (known: hamlet, village, town)",
    ),
    "marker dictionary": (
        ["markers", "x.jpg", "--dict", "6x6_2500"],
        f"--dict: unknown marker dictionary '6x6_2500' (known: {DICTIONARIES},",
    ),
    "calibration dictionary": (
        ["calibrate", "camera", "x.jpg", "--charuco", "5x7", "--square", "20", "--marker",
         "10", "--dict", "6x6_2500"],
        f"--dict: unknown marker dictionary '6x6_2500' (known: {DICTIONARIES},",
    ),
    "bench game": (
        ["bench", "vision", "--game", "chess"],
        "--game: unknown game 'chess' (one of colorfield, paintings, isle, pigments)",
    ),
    "bench split": (
        ["bench", "vision", "--split", "dev"],
        "--split: unknown split 'dev' (one of train, validation, test)",
    ),
    "perturbation": (
        ["bench", "vision", "--perturb", "fog"],
        "--perturb: unknown family 'fog' (one of all, FAMILY:all, noise, ev+1,",
    ),
    "LED text": (
        ["led", "show", "/dev/null", "?"],
        "TEXT: the displays cannot show '?' (they show A-Z, 0-9, space, - = _ and .",
    ),
    "LED mode": (
        ["serve", "--led", "emulater", "--data", "{tmp}/data"],
        "--led: unknown choice 'emulater' (known: auto, emulator, or a serial port such as",
    ),
    "suite": (
        ["bench", "speed"],
        "invalid choice: 'speed' (choose from 'rules', 'markers', 'vision', 'web', 'led', "
        "'live', 'hub')",
    ),
    "difficulty": (
        ["render", "--random", "isle", "-o", "t.jpg", "--difficulty", "extreme"],
        "invalid choice: 'extreme' (choose from 'easy', 'medium', 'hard')",
    ),
}  # fmt: skip


@pytest.mark.parametrize(("argv", "expected"), CASES.values(), ids=CASES)
def test_an_unknown_value_is_refused_with_the_choices(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = run([arg.format(tmp=tmp_path) for arg in argv], capsys)
    assert expected in line
    assert not (tmp_path / "data").exists()  # refused before anything is made


POSITIONS = {
    "game": ("colorfield-rulebook.json", '"colorfield"', '"chess"',
             "game: unknown game 'chess' (known: colorfield, paintings, isle, pigments)"),
    "colour": ("colorfield-rulebook.json", '"coral"', '"pink"',
               "unknown colour 'pink' (known: lemon, coral, navy, turquoise)"),
    "art card": ("paintings.json", '"A-03"', '"a-3"',
                 "unknown art card 'a-3' (60 known, A-01 to A-60; closest: A-03, A-13, A-23)"),
    "shade": ("pigments-palette.json", '"mint"', '"mintt"', "unknown shade 'mintt' (known:"),
}  # fmt: skip


@pytest.mark.parametrize(("example", "old", "new", "expected"), POSITIONS.values(), ids=POSITIONS)
def test_an_unknown_value_in_a_position_names_the_choices(
    example: str,
    old: str,
    new: str,
    expected: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert expected in run(["score", position(tmp_path, example, old, new)], capsys)


def test_a_tile_of_a_canvas_names_the_closest_tiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tiles = ["r1-7", "F-01", "F-02", "F-03", "F-04", "F-05"]
    board = {"game": "colorfield", "canvas": "canvas-1", "spaces": [{"tile": t} for t in tiles]}
    path = tmp_path / "canvas.json"
    path.write_text(json.dumps(board))
    line = run(["score", str(path)], capsys)
    assert line == (
        f"atelier: {path}: spaces[0].tile: unknown tile 'r1-7' "
        "(120 known, F-01 to R3-24; closest: R1-07, R1-17, R1-01)"
    )


def test_a_long_list_with_nothing_alike_gives_its_size_and_range() -> None:
    names = [f"T-{n:02}" for n in range(1, 31)]
    assert known_choices(names, "zzz") == "30 known, T-01 to T-30"
    assert known_choices(names[:3], "zzz") == "known: T-01, T-02, T-03"
