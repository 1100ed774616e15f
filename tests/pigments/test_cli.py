"""``atelier pigments mix / check`` and ``atelier score`` for pigments, run as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import atelier_main

EXAMPLES = Path(__file__).parents[2] / "companion" / "content" / "examples"


def test_mix_prints_json_and_the_reason() -> None:
    result = atelier_main("pigments", "mix", "Fe2O3", "FeO(OH)")
    assert result.status == 0
    data = json.loads(result.stdout)
    assert data["bands"] == ["yellow", "orange", "red"]
    assert data["shade"] == "coral"
    assert data["srgb"] == "#ff4d00"
    assert result.stderr.splitlines()[0] == (
        "Fe2O3 swallows violet, blue, green; FeO(OH) swallows violet, blue; "
        "left: yellow, orange, red: coral."
    )


def test_check_pressed_and_nothing_happens() -> None:
    result = atelier_main(
        "pigments", "check", "--shade", "coral", "--chips", "Fe2O3", "FeO(OH)", "binder"
    )
    assert result.status == 0
    data = json.loads(result.stdout)
    assert (data["pan"], data["verdict"], data["pressed"], data["points"]) == (
        "medium",
        "pressed",
        True,
        5,
    )
    assert "Pressed: the pan holds coral's recipe" in result.stderr
    other = atelier_main(
        "pigments", "check", "--shade", "coral", "--chips", "Fe2O3", "Fe2O3", "binder"
    )
    data = json.loads(other.stdout)
    assert (data["verdict"], data["same_colour"]) == ("nothing-happens", True)
    assert "a different recipe that gives the same colour as coral" in other.stderr


def test_check_and_mix_name_the_cards_recipe_only_with_reveal() -> None:
    args = ("pigments", "check", "--shade", "coral", "--chips", "Fe2O3", "Fe2O3", "binder")
    hidden, shown = atelier_main(*args), atelier_main(*args, "--reveal")
    assert (hidden.status, shown.status) == (0, 0)
    assert json.loads(hidden.stdout)["shade"] == {"name": "coral"}
    assert json.loads(shown.stdout)["shade"] == {"name": "coral", "recipe": ["Fe2O3", "FeO(OH)"]}
    assert hidden.stderr.splitlines()[-1] == (
        "  Nothing happens (a wrong guess is free). The pan holds Fe2O3 + Fe2O3: a different "
        "recipe that gives the same colour as coral."
    )
    assert shown.stderr.splitlines()[-1] == (
        "  Nothing happens (a wrong guess is free). The pan holds Fe2O3 + Fe2O3: a different "
        "recipe that gives the same colour as coral (coral is Fe2O3 + FeO(OH))."
    )
    plain, told = (
        atelier_main("pigments", "mix", "Fe2O3"),
        atelier_main("pigments", "mix", "Fe2O3", "--reveal"),
    )
    assert "card's recipe" not in plain.stderr and "shade_recipe" not in json.loads(plain.stdout)
    assert told.stderr.splitlines()[-1] == "The coral card's recipe is Fe2O3 + FeO(OH)."
    assert json.loads(told.stdout)["shade_recipe"] == ["Fe2O3", "FeO(OH)"]


def test_check_fault_and_a_pan_not_full() -> None:
    fault = json.loads(
        atelier_main("pigments", "check", "--shade", "white", "--chips", "binder", "binder").stdout
    )
    assert (fault["pan"], fault["fault"], fault["verdict"]) == (
        "small",
        "too-much-binder",
        "structural-fault",
    )
    partial = json.loads(
        atelier_main(
            "pigments", "check", "--pan", "large", "--shade", "sage", "--chips", "TiO2"
        ).stdout
    )
    assert (partial["full"], partial["verdict"]) == (False, "not-full")


def test_check_with_a_user_deck(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text(
        json.dumps(
            {
                "format": 1,
                "game": "pigments",
                "shades": [{"name": "rust", "recipe": ["Fe2O3", "Fe2O3"]}],
            }
        )
    )
    result = atelier_main(
        "pigments",
        "check",
        "--deck",
        str(deck),
        "--shade",
        "rust",
        "--chips",
        "Fe2O3",
        "Fe2O3",
        "binder",
    )
    assert json.loads(result.stdout)["pressed"] is True


@pytest.mark.parametrize("name", ["pan", "palette", "tally"])
def test_score_examples(name: str) -> None:
    result = atelier_main("score", "--explain", str(EXAMPLES / f"pigments-{name}.json"))
    assert result.status == 0
    data = json.loads(result.stdout)
    expected = {"pan": ("points", 5), "palette": ("total", 2), "tally": ("total", 12)}[name]
    assert data[expected[0]] == expected[1]
    assert result.stderr


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["pigments", "mix"], "atelier: PIGMENT: name at least one pigment"),
        (["pigments", "mix", "Fe2O3", "pink"], "atelier: PIGMENT[1]: unknown chip 'pink'"),
        (["pigments", "mix", "binder"], "atelier: PIGMENT[0]: binder is not a pigment"),
        (["pigments", "check", "--chips", "TiO2", "binder"], "atelier: --shade: missing"),
        (["pigments", "check", "--shade", "white"], "atelier: --chips: missing"),
        (["pigments", "check", "--shade", "white", "--chips"], "atelier: --chips: missing"),
        (
            ["pigments", "check", "--shade", "teal", "--chips", "TiO2", "binder"],
            "atelier: --shade: unknown shade 'teal' (known: apricot, azure, blush, coral, ",
        ),
        (
            ["pigments", "check", "--shade", "white", "--chips", "TiO2", "glue"],
            "atelier: --chips[1]: unknown chip 'glue'",
        ),
        (
            [
                "pigments",
                "check",
                "--shade",
                "white",
                "--chips",
                "TiO2",
                "TiO2",
                "binder",
                "binder",
            ],
            "atelier: --chips: 4 chips fill no pan",
        ),
        (
            [
                "pigments",
                "check",
                "--pan",
                "small",
                "--shade",
                "white",
                "--chips",
                "TiO2",
                "binder",
                "binder",
            ],
            "atelier: --chips: a small pan has 2 slots, but 3 chips are listed",
        ),
        (
            ["pigments", "check", "--pan", "huge", "--shade", "white", "--chips", "TiO2"],
            "atelier: --pan: unknown pan 'huge'",
        ),
        (
            ["pigments", "mix", "TiO2", "--deck", "/nonexistent/deck.json"],
            "atelier: /nonexistent/deck.json: no such file",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], start: str) -> None:
    result = atelier_main(*args)
    assert result.status == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(start)


def test_bad_deck_and_bad_position_files(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text('{"format": 1, "game": "pigments", "shades": [{"name": "x", "recipe": []}]}')
    result = atelier_main("pigments", "mix", "TiO2", "--deck", str(deck))
    assert (result.status, result.stdout) == (2, "")
    assert (
        result.stderr == f"atelier: {deck}: shades[0].recipe: expected at least 1 entries, got 0\n"
    )
    position = tmp_path / "pan.json"
    position.write_text('{"game": "pigments", "pan": "small", "chips": ["TiO2", "TiO2", "TiO2"]}')
    result = atelier_main("score", str(position))
    assert (result.status, result.stdout) == (2, "")
    assert result.stderr == (
        f"atelier: {position}: chips: a small pan has 2 slots, but 3 chips are listed\n"
    )


@pytest.mark.parametrize("args", [["pigments"], ["pigments", "mix"], ["pigments", "check"]])
def test_help_has_an_example(args: list[str]) -> None:
    result = atelier_main(*args, "--help")
    assert result.status == 0
    assert "example" in result.stdout
    assert "atelier pigments" in result.stdout
