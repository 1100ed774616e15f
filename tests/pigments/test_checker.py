"""The recipe checker: verdicts, the band arithmetic in words, and same-colour recipes; the
shade card's recipe (the back of the card) named only when revealed."""

from __future__ import annotations

from companion.games.pigments.checker import Verdict, check_pan, mix
from companion.games.pigments.explain import explain_mix
from companion.games.pigments.faults import Cause
from companion.games.pigments.model import Chip, Pan, PanSize, Shade

from .builders import LARGE, MEDIUM, SMALL, B, R, T, U, Y, catalogue, shade

CORAL_WORDS = (
    "Fe2O3 swallows violet, blue, green; FeO(OH) swallows violet, blue; "
    "left: yellow, orange, red: coral"
)


def test_mix_says_the_band_arithmetic() -> None:
    result = mix([R, Y], catalogue())
    assert result.arithmetic() == CORAL_WORDS
    assert result.shade == shade("coral")


def test_mix_with_tio2_repeats_and_black() -> None:
    assert mix([U, Y, T], catalogue()).arithmetic() == (
        "FeO(OH) swallows violet, blue; ultramarine swallows yellow, orange, red; "
        "TiO2 swallows nothing; left: green, lightened by TiO2 (1/3 of the pigments): sage"
    )
    assert mix([R, R], catalogue()).arithmetic() == (
        "Fe2O3 x2 swallows violet, blue, green; left: yellow, orange, red: coral"
    )
    assert mix([R, U], catalogue()).arithmetic() == (
        "Fe2O3 swallows violet, blue, green; ultramarine swallows yellow, orange, red; "
        "left: nothing: soot"
    )


def test_mix_lists_other_recipes_of_the_same_colour() -> None:
    data = mix([U, Y], catalogue()).to_json()
    assert data["shade"] == "mint"
    assert data["same_colour_recipes"] == [
        ["FeO(OH)", "FeO(OH)", "ultramarine"],
        ["FeO(OH)", "ultramarine", "ultramarine"],
    ]
    assert data["bands"] == ["green"]
    assert data["tio2_share"] == "0"


def test_pressed() -> None:
    check = check_pan(Pan(MEDIUM, (R, Y, B)), shade("coral"), catalogue(), reveal=True)
    assert check.verdict is Verdict.PRESSED
    assert (check.full, check.sound, check.fault, check.pressed, check.points) == (
        True,
        True,
        None,
        True,
        5,
    )
    assert check.reasons() == (
        "Binder rule: 2 pigments need 1 binder (one for every two, rounded up); "
        "the pan holds 1: sound.",
        CORAL_WORDS + ".",
        "Pressed: the pan holds coral's recipe, Fe2O3 + FeO(OH). Worth 5 points.",
        "The same colour also comes from Fe2O3 + Fe2O3, but only coral's own recipe presses.",
    )


def test_different_recipe_same_colour_presses_nothing_and_says_so() -> None:
    check = check_pan(Pan(MEDIUM, (R, R, B)), shade("coral"), catalogue(), reveal=True)
    assert check.verdict is Verdict.NOTHING_HAPPENS
    assert check.same_colour
    assert (check.pressed, check.points) == (False, 0)
    assert check.reasons()[-1] == (
        "Nothing happens (a wrong guess is free). The pan holds Fe2O3 + Fe2O3: a different "
        "recipe that gives the same colour as coral (coral is Fe2O3 + FeO(OH))."
    )


def test_wrong_colour_names_what_the_pan_makes() -> None:
    check = check_pan(Pan(LARGE, (U, Y, T, B, B)), shade("mint"), catalogue(), reveal=True)
    assert check.verdict is Verdict.NOTHING_HAPPENS
    assert not check.same_colour
    assert check.reasons()[-1] == (
        "Nothing happens (a wrong guess is free). The pan holds FeO(OH) + ultramarine + TiO2, "
        "which makes sage; mint is FeO(OH) + ultramarine. Its recipe has 2 pigments; a sound "
        "large pan holds 3."
    )


def test_by_default_the_verdicts_keep_the_cards_recipe_hidden() -> None:
    def last(chips: tuple[Chip, ...], name: str, size: PanSize = MEDIUM) -> str:
        check = check_pan(Pan(size, chips), shade(name), catalogue())
        assert not check.reveal
        return check.reasons()[-1]

    nothing = "Nothing happens (a wrong guess is free). The pan holds"
    assert check_pan(Pan(MEDIUM, (R, Y, B)), shade("coral"), catalogue()).reasons()[-2:] == (
        "Pressed: the pan holds coral's recipe. Worth 5 points.",
        "The same colour also comes from Fe2O3 + Fe2O3, but only coral's own recipe presses.",
    )
    assert last((R, R, B), "coral") == (
        f"{nothing} Fe2O3 + Fe2O3: a different recipe that gives the same colour as coral."
    )
    assert last((R, Y, B), "mint") == (
        f"{nothing} Fe2O3 + FeO(OH), which makes coral; the bands press a different shade: "
        "mint leaves green."
    )
    assert last((R, Y, B), "soot") == (
        f"{nothing} Fe2O3 + FeO(OH), which makes coral; the bands press a different shade: "
        "soot leaves no band (black)."
    )
    # Same bands, another TiO2 share: lighter or darker is what the card's face shows; the
    # recipe's size (2 pigments for mint, against a large pan's 3) is on the back.
    assert last((U, Y, T, B, B), "mint", LARGE) == (
        f"{nothing} FeO(OH) + ultramarine + TiO2, which makes sage: the same bands as mint, "
        "but lighter than the card."
    )
    assert last((U, Y, B), "sage") == (
        f"{nothing} FeO(OH) + ultramarine, which makes mint: the same bands as sage, "
        "but darker than the card."
    )
    assert last((R, Y, B), "coral", LARGE) == (
        "The pan holds Fe2O3 + FeO(OH), which makes coral, the colour of the card."
    )


def test_the_json_names_the_cards_recipe_only_when_revealed() -> None:
    hidden = check_pan(Pan(MEDIUM, (R, R, B)), shade("coral"), catalogue()).to_json()
    assert hidden["shade"] == {"name": "coral"}
    assert "FeO(OH)" not in hidden["reason"] and "coral is" not in hidden["reason"]
    assert "shade_recipe" not in hidden["colour"]
    shown = check_pan(Pan(MEDIUM, (R, R, B)), shade("coral"), catalogue(), reveal=True).to_json()
    assert shown["shade"] == {"name": "coral", "recipe": ["Fe2O3", "FeO(OH)"]}
    assert shown["reason"].endswith("(coral is Fe2O3 + FeO(OH)).")


def test_mix_names_the_cards_recipe_only_when_revealed() -> None:
    result = mix([R, R], catalogue())
    assert "shade_recipe" not in result.to_json()
    assert result.to_json(reveal=True)["shade_recipe"] == ["Fe2O3", "FeO(OH)"]
    assert mix([R, U, Y], catalogue()).to_json(reveal=True)["shade_recipe"] == [
        "Fe2O3",
        "ultramarine",
    ]
    assert "card's recipe" not in explain_mix(result)
    assert explain_mix(result, reveal=True).splitlines()[-1] == (
        "The coral card's recipe is Fe2O3 + FeO(OH)."
    )


def test_structural_fault_comes_before_the_recipe() -> None:
    # The pigments are coral's recipe, but a medium pan with no binder is not sound.
    check = check_pan(Pan(MEDIUM, (R, Y, T)), shade("coral"), catalogue())
    assert check.verdict is Verdict.STRUCTURAL_FAULT
    assert check.fault is Cause.NOT_ENOUGH_BINDER
    assert (check.full, check.sound, check.pressed) == (True, False, False)
    assert check.reasons()[0] == (
        "Binder rule: 3 pigments need 2 binders (one for every two, rounded up); the pan holds "
        "0: not enough binder, a structural fault. Draw a Fault card."
    )
    assert check.reasons()[-1] == "The recipe against coral is checked only once the pan is sound."
    too_much = check_pan(Pan(SMALL, (B, B)), shade("white"), catalogue())
    assert too_much.fault is Cause.TOO_MUCH_BINDER
    assert too_much.mix.colour.bands == mix([], catalogue()).colour.bands


def test_not_full_and_no_shade() -> None:
    check = check_pan(Pan(LARGE, (R, B)), shade("coral"), catalogue())
    assert check.verdict is Verdict.NOT_FULL
    assert (check.full, check.sound, check.fault, check.pressed) == (False, False, None, False)
    assert check.reasons()[0] == (
        "Not full: 2 of the large pan's 5 slots hold a chip, so it cannot be pressed yet."
    )
    bare = check_pan(Pan(SMALL, (T, B)), None, catalogue())
    assert bare.verdict is Verdict.NO_SHADE
    assert bare.sound and not bare.pressed


def test_inline_shade_name_is_free_text_the_recipe_decides() -> None:
    check = check_pan(Pan(SMALL, (T, B)), Shade("snow", (T,)), catalogue())
    assert check.pressed
    assert check.mix.shade == shade("white")
    wrong = check_pan(Pan(SMALL, (T, B)), Shade("white", (R,)), catalogue())
    assert not wrong.pressed
