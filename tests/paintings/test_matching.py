"""Proximity and space are maximum disjoint matchings, checked against exhaustive search."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.paintings.covering import Visible, VisibleIcon
from companion.games.paintings.matching import maximum_matching
from companion.games.paintings.model import Goal, Icon
from companion.games.paintings.ribbons import Ribbon, ribbons_for
from tests.paintings.builders import shows


def brute_force_pairs(
    left: Sequence[VisibleIcon],
    right: Sequence[VisibleIcon],
    allowed: Callable[[VisibleIcon, VisibleIcon], bool],
) -> int:
    """The largest matching by trying every choice for the first left item, recursively."""
    if not left:
        return 0
    first, rest = left[0], left[1:]
    best = brute_force_pairs(rest, right, allowed)
    for j, r in enumerate(right):
        if allowed(first, r):
            best = max(best, 1 + brute_force_pairs(rest, [*right[:j], *right[j + 1 :]], allowed))
    return best


def adjacent(a: VisibleIcon, b: VisibleIcon) -> bool:
    return abs(a.slot - b.slot) == 1


def apart(a: VisibleIcon, b: VisibleIcon) -> bool:
    return abs(a.slot - b.slot) >= 2


PROXIMITY = [
    ("texture | tone | - | - | -", 1),
    ("texture tone | - | - | - | -", 0),  # the same slot is not adjacent
    ("texture | - | tone | - | -", 0),
    ("texture | tone | texture | - | -", 1),  # one tone, two textures next to it
    ("texture | tone tone | texture | - | -", 2),
    ("tone | texture texture | tone | - | -", 2),
    ("texture | tone | texture | tone | texture", 2),
    # Textures in odd slots can only reach tones in slots 2 and 4: 2 + 2, not 5.
    ("tone texture | texture tone | tone texture | texture tone | tone texture", 4),
    ("texture | tone | bonus-texture | bonus-tone | -", 1),
]

SPACE = [
    ("hue | - | shape | - | -", 1),
    ("hue | shape | - | - | -", 0),  # adjacent
    ("hue shape | - | - | - | -", 0),  # the same slot
    ("- | - | hue | - | hue shape", 1),
    # Greedy first-fit pairs hue 3 with shape 1 and strands hue 5; the maximum is 2.
    ("shape | - | hue | - | hue shape", 2),
    ("hue hue | - | shape shape | - | shape", 2),
    ("hue | hue | hue | shape | shape", 2),
    ("hue | hue | hue | hue | shape", 1),
    ("shape | - | hue | - | bonus-shape", 1),
]


@pytest.mark.parametrize(("spec", "expected"), PROXIMITY)
def test_proximity_pairs(spec: str, expected: int) -> None:
    result = ribbons_for(Goal.PROXIMITY, shows(spec))
    assert result.count == expected, result.note
    _assert_disjoint_pairs(result.ribbons, Icon.TEXTURE, Icon.TONE, adjacent)


@pytest.mark.parametrize(("spec", "expected"), SPACE)
def test_space_pairs(spec: str, expected: int) -> None:
    result = ribbons_for(Goal.SPACE, shows(spec))
    assert result.count == expected, result.note
    _assert_disjoint_pairs(result.ribbons, Icon.HUE, Icon.SHAPE, apart)


def _assert_disjoint_pairs(
    ribbons: Sequence[Ribbon],
    first: Icon,
    second: Icon,
    allowed: Callable[[VisibleIcon, VisibleIcon], bool],
) -> None:
    used: list[VisibleIcon] = []
    for ribbon in ribbons:
        a, b = ribbon.icons
        assert (a.icon, b.icon) == (first, second)
        assert allowed(a, b)
        used.extend((a, b))
    # By identity: a slot's two identical icons are equal values but separate icons.
    assert len({id(v) for v in used}) == len(used)


SLOT_ICONS = st.lists(st.sampled_from([Icon.HUE, Icon.SHAPE, Icon.TEXTURE, Icon.TONE]), max_size=2)


def _visible(slots: list[list[Icon]]) -> Visible:
    spec = " | ".join(" ".join(i.value for i in s) or "-" for s in slots)
    return shows(spec)


@settings(max_examples=200, deadline=None)
@given(st.lists(SLOT_ICONS, min_size=5, max_size=5))
def test_matchings_equal_exhaustive_search(slots: list[list[Icon]]) -> None:
    visible = _visible(slots)
    textures, tones = visible.of(Icon.TEXTURE), visible.of(Icon.TONE)
    hues, shapes = visible.of(Icon.HUE), visible.of(Icon.SHAPE)
    assert ribbons_for(Goal.PROXIMITY, visible).count == brute_force_pairs(
        textures, tones, adjacent
    )
    assert ribbons_for(Goal.SPACE, visible).count == brute_force_pairs(hues, shapes, apart)


def test_maximum_matching_follows_an_augmenting_path() -> None:
    # Left 0 may take right 0 or 1, left 1 only right 0: first-fit alone would find one pair.
    pairs = maximum_matching(["a", "b"], ["x", "y"], lambda a, b: (a, b) != ("b", "y"))
    assert sorted(pairs) == [("a", "y"), ("b", "x")]
