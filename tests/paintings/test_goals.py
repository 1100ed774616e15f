"""Each scoring card's goal at and around its threshold, with the icons that earned the ribbon."""

from __future__ import annotations

import pytest

from companion.games.paintings.model import Goal, Icon
from companion.games.paintings.ribbons import GOALS, ribbons_for, silver_awards
from tests.paintings.builders import shows

CASES = [
    # composition: every slot shows an icon; a bonus icon fills a slot too
    (Goal.COMPOSITION, "hue | shape | tone | texture | hue", 1),
    (Goal.COMPOSITION, "hue | shape | - | texture | hue", 0),
    (Goal.COMPOSITION, "hue | shape | bonus-tone | texture | hue", 1),
    (Goal.COMPOSITION, "- | - | - | - | -", 0),
    # consistency: exactly 6 element icons; bonus icons are not elements
    (Goal.CONSISTENCY, "hue hue | shape | tone | texture | -", 0),
    (Goal.CONSISTENCY, "hue hue | shape | tone | texture | hue", 1),
    (Goal.CONSISTENCY, "hue hue | shape shape | tone | texture | hue", 0),
    (Goal.CONSISTENCY, "hue hue | shape bonus-hue | tone | texture | hue bonus-tone", 1),
    (Goal.CONSISTENCY, "hue hue | shape bonus-hue | tone | texture | bonus-tone", 0),
    # emphasis: exactly one hue
    (Goal.EMPHASIS, "- | shape | - | - | -", 0),
    (Goal.EMPHASIS, "- | shape | hue | - | -", 1),
    (Goal.EMPHASIS, "hue | shape | hue | - | -", 0),
    (Goal.EMPHASIS, "bonus-hue | shape | hue | - | -", 1),
    # hierarchy: tone at least every other element; read literally, no elements earns it
    (Goal.HIERARCHY, "tone | shape | tone | shape | -", 1),
    (Goal.HIERARCHY, "tone | shape | hue | shape | -", 0),
    (Goal.HIERARCHY, "tone tone | shape | hue | shape | texture", 1),
    (Goal.HIERARCHY, "- | - | - | - | -", 1),
    (Goal.HIERARCHY, "bonus-hue | - | - | - | -", 1),
    (Goal.HIERARCHY, "hue | - | bonus-tone | - | -", 0),
    # proportion: one element 3+ times and another 2+ times
    (Goal.PROPORTION, "hue | hue | hue | shape | shape", 1),
    (Goal.PROPORTION, "hue | hue | hue | shape | tone", 0),
    (Goal.PROPORTION, "hue | hue | tone | shape | shape", 0),
    (Goal.PROPORTION, "hue hue | hue | hue | hue | -", 0),
    (Goal.PROPORTION, "tone | tone | tone | shape shape | shape", 1),
    (Goal.PROPORTION, "hue | hue | hue | shape | bonus-shape", 0),
    # repetition: one ribbon per two shapes
    (Goal.REPETITION, "- | - | - | - | -", 0),
    (Goal.REPETITION, "shape | - | - | - | -", 0),
    (Goal.REPETITION, "shape | - | - | - | shape", 1),
    (Goal.REPETITION, "shape | shape | - | - | shape", 1),
    (Goal.REPETITION, "shape shape | shape | - | - | shape", 2),
    (Goal.REPETITION, "shape shape | shape | shape | - | shape", 2),
    (Goal.REPETITION, "shape shape | shape shape | shape | - | shape", 3),
    (Goal.REPETITION, "shape | bonus-shape | - | - | -", 0),
    # style: three or more textures
    (Goal.STYLE, "texture | texture | - | - | -", 0),
    (Goal.STYLE, "texture | texture | - | - | texture", 1),
    (Goal.STYLE, "texture texture | texture texture | texture | - | -", 1),
    (Goal.STYLE, "texture | texture | bonus-texture | - | -", 0),
    # symmetry: slots 1 and 5, or 2 and 4, share an element
    (Goal.SYMMETRY, "hue | - | - | - | hue", 1),
    (Goal.SYMMETRY, "- | tone | - | tone shape | -", 1),
    (Goal.SYMMETRY, "hue | tone | - | tone | hue", 1),
    (Goal.SYMMETRY, "hue | - | - | hue | -", 0),
    (Goal.SYMMETRY, "- | - | hue | - | hue", 0),
    (Goal.SYMMETRY, "hue shape | - | - | - | tone texture", 0),
    (Goal.SYMMETRY, "bonus-hue | - | - | - | bonus-hue", 0),
    # variety: all four elements
    (Goal.VARIETY, "hue | shape | texture | tone | -", 1),
    (Goal.VARIETY, "hue | shape | texture | bonus-tone | -", 0),
    (Goal.VARIETY, "hue shape | texture tone | - | - | -", 1),
    (Goal.VARIETY, "hue | shape | texture | - | -", 0),
    # movement: an element in 3 consecutive slots, at most one per element
    (Goal.MOVEMENT, "hue | hue | hue | - | -", 1),
    (Goal.MOVEMENT, "hue | hue | - | hue | hue", 0),
    (Goal.MOVEMENT, "hue | hue | hue | hue | hue", 1),
    (Goal.MOVEMENT, "- | - | shape | shape | shape tone", 1),
    (Goal.MOVEMENT, "hue tone | hue tone | hue tone | - | -", 2),
    (Goal.MOVEMENT, "hue hue | hue hue | - | - | -", 0),
    (Goal.MOVEMENT, "bonus-hue | hue | hue | - | -", 0),
    (Goal.MOVEMENT, "hue tone | hue tone | hue tone | shape | texture", 2),
]


def _ids(case: tuple[Goal, str, int]) -> str:
    return f"{case[0].value}:{case[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_goal_at_and_around_its_threshold(case: tuple[Goal, str, int]) -> None:
    goal, spec, expected = case
    result = ribbons_for(goal, shows(spec))
    assert result.count == expected, result.note
    assert len(result.ribbons) == result.count


def test_every_goal_has_a_rule() -> None:
    assert set(GOALS) == set(Goal)


def test_every_ribbon_names_only_visible_icons_that_fit_its_goal() -> None:
    visible = shows("hue tone | hue tone | hue tone | shape texture | shape")
    for goal in Goal:
        result = ribbons_for(goal, visible)
        for ribbon in result.ribbons:
            assert ribbon.icons, (goal, ribbon)
            assert set(ribbon.icons) <= set(visible.icons())
            assert ribbon.reason


def test_movement_names_the_run() -> None:
    result = ribbons_for(Goal.MOVEMENT, shows("- | shape | shape | shape | shape"))
    (ribbon,) = result.ribbons
    assert [v.slot for v in ribbon.icons] == [2, 3, 4, 5]
    assert ribbon.reason == "shape in consecutive slots 2, 3, 4, 5"


def test_symmetry_names_the_shared_pair() -> None:
    (ribbon,) = ribbons_for(Goal.SYMMETRY, shows("- | texture | - | hue texture | -")).ribbons
    assert [(v.slot, v.icon) for v in ribbon.icons] == [(2, Icon.TEXTURE), (4, Icon.TEXTURE)]


def test_repetition_pairs_shapes_in_slot_order() -> None:
    result = ribbons_for(Goal.REPETITION, shows("shape | - | shape shape | - | shape"))
    assert [[v.slot for v in r.icons] for r in result.ribbons] == [[1, 3], [3, 5]]


def test_proportion_names_both_elements() -> None:
    (ribbon,) = ribbons_for(Goal.PROPORTION, shows("tone | hue | tone | hue | tone")).ribbons
    assert ribbon.reason == "tone appears 3 times and hue 2"
    assert sorted(v.slot for v in ribbon.icons) == [1, 2, 3, 4, 5]


def test_hierarchy_says_which_element_beats_tone() -> None:
    result = ribbons_for(Goal.HIERARCHY, shows("tone | shape | shape | - | -"))
    assert result.count == 0
    assert result.note == "tone 1 is fewer than shape 2"


SILVER = [
    ("bonus-shape | shape | shape | shape | -", 3),
    ("bonus-shape | shape | - | - | bonus-shape", 2),
    ("bonus-tone | shape | - | - | -", 0),
    ("bonus-hue bonus-hue | hue | - | hue | -", 4),
    ("bonus-texture | texture | bonus-tone | tone tone | -", 3),
]


@pytest.mark.parametrize(("spec", "expected"), SILVER)
def test_silver_ribbons_one_per_visible_icon_of_the_bonus_element(spec: str, expected: int) -> None:
    awards = silver_awards(shows(spec))
    assert sum(a.count for a in awards) == expected
    for award in awards:
        assert all(v.icon is award.bonus.icon.element for v in award.matches)
