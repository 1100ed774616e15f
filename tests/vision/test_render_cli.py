"""``atelier render`` as a user runs it: files written, the same seed the same bytes, and every
mistake one line with exit status 2 and nothing left behind."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from companion.errors import SourceError
from companion.positions import evaluate_document
from companion.samples import random_position
from tests.cli import assert_user_error, atelier_main
from vision.render.envelope import Difficulty
from vision.render.files import write_rendering
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions

EXAMPLES = Path(__file__).resolve().parents[2] / "companion" / "content" / "examples"


def test_a_position_renders_to_an_image_and_its_truth_the_same_each_time(tmp_path: Path) -> None:
    position = EXAMPLES / "isle.json"
    first, second = tmp_path / "a" / "isle.jpg", tmp_path / "b" / "isle.jpg"
    first.parent.mkdir()
    second.parent.mkdir()
    for out in (first, second):
        run = atelier_main("render", position, "-o", out, "--seed", "4", "--difficulty", "easy")
        assert run.status == 0, run.stderr
        truth = out.with_name("isle.truth.json")
        assert json.loads(run.stdout) == {"image": str(out), "truth": str(truth)}
    assert first.read_bytes() == second.read_bytes()
    assert (
        first.with_name("isle.truth.json").read_bytes()
        == second.with_name("isle.truth.json").read_bytes()
    )
    assert first.read_bytes()[:2] == b"\xff\xd8"  # a JPEG
    truth = json.loads(first.with_name("isle.truth.json").read_text())
    assert truth["positions"] == [json.loads(position.read_text())]
    assert truth["render"]["seed"] == 4


@pytest.mark.parametrize("game", ["colorfield", "paintings", "isle", "pigments"])
def test_random_draws_a_valid_position_of_each_game(game: str, tmp_path: Path) -> None:
    out = tmp_path / f"{game}.png"
    run = atelier_main("render", "--random", game, "--seed", "9", "-o", out, "--size", "960x540")
    assert run.status == 0, run.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"
    truth = json.loads(out.with_name(f"{game}.truth.json").read_text())
    (position,) = truth["positions"]
    assert position == random_position(game, random.Random(9))
    evaluate_document(position, "truth")
    assert truth["size"] == [960, 540]
    assert {c["game"] for c in truth["components"]} == {game}


def test_a_position_can_come_from_standard_input(tmp_path: Path) -> None:
    out = tmp_path / "pan.jpg"
    run = atelier_main("render", "-", "-o", out, stdin=(EXAMPLES / "pigments-pan.json").read_text())
    assert run.status == 0, run.stderr
    assert out.exists() and out.with_name("pan.truth.json").exists()


@pytest.mark.parametrize(
    ("arguments", "fragments"),
    [
        (["--random", "chess"], ["--random: unknown game 'chess'"]),
        (["--random", "isle", "--size", "12"], ["--size: expected WIDTHxHEIGHT", "'12'"]),
        (["--random", "isle", "--size", "100x100"], ["--size: 100x100 is out of range"]),
        (["--random", "isle", "--seed", "-1"], ["--seed: expected 0 or more, got -1"]),
        ([], ["give a POSITION file or --random GAME"]),
        ([str(EXAMPLES / "isle.json"), "--random", "isle"], ["give a POSITION file or --random"]),
        ([str(EXAMPLES / "pigments-tally.json")], ["pigments-tally.json", "a final tally lists"]),
        ([str(EXAMPLES / "colorfield-rulebook.json")], ["canvas: no printed canvas board"]),
        (["no-such-file.json"], ["no-such-file.json: no such file"]),
        (["--random", "isle", "--difficulty", "extreme"], ["invalid choice: 'extreme'"]),
    ],
)
def test_mistakes_are_one_line_exit_2_and_leave_no_files(
    arguments: list[str], fragments: list[str], tmp_path: Path
) -> None:
    run = atelier_main("render", *arguments, "-o", tmp_path / "out.jpg")
    assert_user_error(run, *fragments)
    assert list(tmp_path.iterdir()) == []


def test_a_bad_position_file_names_the_file_and_field(tmp_path: Path) -> None:
    position = tmp_path / "bad.json"
    position.write_text('{"game": "isle", "conditions": {}, "cells": []}')
    run = atelier_main("render", position, "-o", tmp_path / "out.jpg")
    assert_user_error(run, "bad.json: conditions.green: missing")
    assert [p.name for p in tmp_path.iterdir()] == ["bad.json"]


@pytest.mark.parametrize(
    ("name", "fragment"),
    [("out.gif", "unsupported image type (use .jpg, .jpeg, .png)"), ("none/out.jpg", "no folder")],
)
def test_an_output_that_cannot_be_written_is_refused_before_rendering(
    name: str, fragment: str, tmp_path: Path
) -> None:
    run = atelier_main("render", "--random", "isle", "-o", tmp_path / name)
    assert_user_error(run, name, fragment)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_neither_file(tmp_path: Path) -> None:
    plan = plan_table(json.loads((EXAMPLES / "pigments-pan.json").read_text()), "pan")
    rendering = Renderer().render(plan, RenderOptions(1, Difficulty.EASY, (320, 180)))
    image = tmp_path / "pan.jpg"
    (tmp_path / "pan.truth.json").mkdir()  # the truth cannot take this name
    with pytest.raises(SourceError, match=r"pan\.jpg: cannot write"):
        write_rendering(rendering, image)
    assert [p.name for p in tmp_path.iterdir()] == ["pan.truth.json"]
    assert np.asarray(rendering.image).shape == (180, 320, 3)
