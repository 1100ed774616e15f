"""Band arithmetic for every pigment, pair and triple; TiO2 share; the display colour."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.pigments.colour import Colour, colour_of, surviving, swallowed
from companion.games.pigments.display import display, linear_rgb
from companion.games.pigments.model import PIGMENTS, Band, Chip

from .builders import B, R, T, U, Y

ALL = "violet blue green yellow orange red"
YOR = "yellow orange red"
GYOR = "green yellow orange red"
VBG = "violet blue green"

# Worked by hand from the absorption chart: R swallows violet, blue, green; Y violet, blue;
# U yellow, orange, red; T nothing. A band survives only if no pigment swallows it.
BANDS_BY_MIX = {
    "R": YOR,
    "Y": GYOR,
    "U": VBG,
    "T": ALL,
    "RR": YOR,
    "RY": YOR,
    "RU": "",
    "RT": YOR,
    "YY": GYOR,
    "YU": "green",
    "YT": GYOR,
    "UU": VBG,
    "UT": VBG,
    "TT": ALL,
    "RRR": YOR,
    "RRY": YOR,
    "RRU": "",
    "RRT": YOR,
    "RYY": YOR,
    "RYU": "",
    "RYT": YOR,
    "RUU": "",
    "RUT": "",
    "RTT": YOR,
    "YYY": GYOR,
    "YYU": "green",
    "YYT": GYOR,
    "YUU": "green",
    "YUT": "green",
    "YTT": GYOR,
    "UUU": VBG,
    "UUT": VBG,
    "UTT": VBG,
    "TTT": ALL,
}
LETTERS = {"R": R, "Y": Y, "U": U, "T": T}


def chips(letters: str) -> tuple[Chip, ...]:
    return tuple(LETTERS[c] for c in letters)


def test_the_table_lists_every_single_pair_and_triple() -> None:
    expected = {
        "".join("RYUT"[PIGMENTS.index(c)] for c in combo)
        for n in (1, 2, 3)
        for combo in combinations_with_replacement(PIGMENTS, n)
    }
    assert set(BANDS_BY_MIX) == expected
    assert len(expected) == 4 + 10 + 20


@pytest.mark.parametrize(("mix", "bands"), sorted(BANDS_BY_MIX.items()))
def test_surviving_bands(mix: str, bands: str) -> None:
    assert [b.value for b in surviving(chips(mix))] == bands.split()
    # Whatever order the chips are listed in.
    assert surviving(chips(mix)[::-1]) == surviving(chips(mix))


def test_coral_arithmetic() -> None:
    assert [b.value for b in swallowed([R, Y])] == ["violet", "blue", "green"]
    assert [b.value for b in surviving([R, Y])] == ["yellow", "orange", "red"]


def test_binder_is_ignored_and_no_pigment_leaves_every_band() -> None:
    assert surviving([B, B]) == tuple(Band)
    assert colour_of([R, Y, B]) == colour_of([R, Y])


@pytest.mark.parametrize(
    ("mix", "share"),
    [("R", 0), ("T", 1), ("RT", Fraction(1, 2)), ("RYT", Fraction(1, 3)), ("RTT", Fraction(2, 3))],
)
def test_tio2_share(mix: str, share: Fraction) -> None:
    assert colour_of(chips(mix)).tio2 == share


def test_black_whatever_its_tio2() -> None:
    assert colour_of(chips("RUT")) == colour_of(chips("RU")) == Colour((), Fraction(0))
    assert display(colour_of(chips("RUT"))).rgb == (0, 0, 0)
    assert display(colour_of(chips("RUT"))).lightness == 0.0


def test_same_colour_from_different_recipes() -> None:
    assert colour_of(chips("RR")) == colour_of(chips("RY"))
    assert colour_of(chips("TT")) == colour_of(chips("T"))
    assert colour_of(chips("RT")) != colour_of(chips("RYT"))  # 1/2 against 1/3 TiO2


# Display colours as the model computes them; they were checked by eye against their names.
@pytest.mark.parametrize(
    ("mix", "hex_colour"),
    [
        ("T", "#ffffff"),
        ("RU", "#000000"),
        ("RY", "#ff4d00"),  # coral: a red-orange
        ("Y", "#ffaf00"),  # ochre
        ("U", "#0085d9"),  # azure blue, not cyan
        ("YU", "#008240"),  # green
        ("RYT", "#ff8b7c"),  # coral lightened: salmon
    ],
)
def test_display_colour(mix: str, hex_colour: str) -> None:
    assert display(colour_of(chips(mix))).hex == hex_colour


def test_display_hues_read_right() -> None:
    red, green, blue = display(colour_of([R, Y])).rgb
    assert red > green > blue
    red, green, blue = display(colour_of([U])).rgb
    assert blue > green > red
    red, green, blue = display(colour_of([U, Y])).rgb
    assert green > blue and green > red


COLOURED_MIXES = [m for m, bands in BANDS_BY_MIX.items() if bands and "T" not in m]


@pytest.mark.parametrize("base", COLOURED_MIXES)
def test_lightness_rises_with_tio2(base: str) -> None:
    """Adding TiO2 to a coloured mix raises its share and, strictly, its lightness."""
    lightness = [display(colour_of(chips(base) + (T,) * n)).lightness for n in range(4)]
    assert lightness == sorted(lightness)
    assert len(set(lightness)) == 4


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(PIGMENTS), min_size=1, max_size=6),
    st.lists(st.sampled_from(PIGMENTS), min_size=1, max_size=6),
)
def test_lightness_is_monotonic_in_the_tio2_share(a: list[Chip], b: list[Chip]) -> None:
    first, second = colour_of(a), colour_of(b)
    if first.bands == second.bands and first.tio2 < second.tio2:
        assert display(first).lightness < display(second).lightness
        assert all(x <= y for x, y in zip(linear_rgb(first), linear_rgb(second), strict=True))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(list(Chip)), max_size=8))
def test_display_is_in_gamut(mix: list[Chip]) -> None:
    shown = display(colour_of(mix))
    assert all(0 <= c <= 255 for c in shown.rgb)
    assert 0 <= shown.lightness <= 100
