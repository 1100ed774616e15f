"""The colour model: which bands a mix swallows, which survive, and how much TiO2 lightens it.

A band survives a mix only if no pigment in it swallows that band. TiO2 swallows nothing and
scatters every band back, so its share of the pigments lightens the colour. Two mixes show the
same colour when the same bands survive with the same TiO2 share; a mix in which no band survives
is black, whatever its TiO2 (there is nothing left for the TiO2 to scatter).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from types import MappingProxyType

from companion.games.pigments.model import BANDS, MAX_RECIPE, PIGMENTS, Band, Chip, canonical

SWALLOWS: Mapping[Chip, frozenset[Band]] = MappingProxyType(
    {
        Chip.FE2O3: frozenset({Band.VIOLET, Band.BLUE, Band.GREEN}),
        Chip.FEOOH: frozenset({Band.VIOLET, Band.BLUE}),
        Chip.ULTRAMARINE: frozenset({Band.YELLOW, Band.ORANGE, Band.RED}),
        Chip.TIO2: frozenset(),
    }
)


def in_order(bands: Iterable[Band]) -> tuple[Band, ...]:
    chosen = set(bands)
    return tuple(band for band in BANDS if band in chosen)


def swallowed(pigments: Iterable[Chip]) -> tuple[Band, ...]:
    """Every band some pigment of the mix swallows (binder chips are ignored)."""
    gone: set[Band] = set()
    for chip in pigments:
        if chip.is_pigment:
            gone |= SWALLOWS[chip]
    return in_order(gone)


def surviving(pigments: Iterable[Chip]) -> tuple[Band, ...]:
    """The bands no pigment swallows: all six for a mix without pigment."""
    gone = set(swallowed(pigments))
    return tuple(band for band in BANDS if band not in gone)


def tio2_share(pigments: Iterable[Chip]) -> Fraction:
    """TiO2 chips over pigment chips; 0 for a mix without pigment."""
    counts = Counter(chip for chip in pigments if chip.is_pigment)
    total = sum(counts.values())
    return Fraction(counts[Chip.TIO2], total) if total else Fraction(0)


@dataclass(frozen=True)
class Colour:
    """What the eye sees: the surviving bands and the TiO2 share that lightens them."""

    bands: tuple[Band, ...]
    tio2: Fraction

    def __post_init__(self) -> None:
        if self.bands != in_order(self.bands):
            raise ValueError("bands must be distinct and in spectral order")
        if not 0 <= self.tio2 <= 1:
            raise ValueError("the TiO2 share lies between 0 and 1")
        if not self.bands and self.tio2:
            raise ValueError("black is black whatever its TiO2: give its share as 0")

    @property
    def is_black(self) -> bool:
        return not self.bands

    def describe(self) -> str:
        """``yellow, orange, red, lightened by TiO2 (1/3 of the pigments)``."""
        if self.is_black:
            return "no band (black)"
        text = ", ".join(self.bands)
        if self.tio2 == 1:
            return f"{text}, all TiO2"
        if self.tio2:
            return f"{text}, lightened by TiO2 ({self.tio2} of the pigments)"
        return text


def colour_of(pigments: Iterable[Chip]) -> Colour:
    chips = canonical(chip for chip in pigments if chip.is_pigment)
    bands = surviving(chips)
    return Colour(bands, tio2_share(chips) if bands else Fraction(0))


def _recipes_by_colour() -> Mapping[Colour, tuple[tuple[Chip, ...], ...]]:
    table: dict[Colour, list[tuple[Chip, ...]]] = {}
    for size in range(1, MAX_RECIPE + 1):
        for recipe in combinations_with_replacement(PIGMENTS, size):
            table.setdefault(colour_of(recipe), []).append(recipe)
    return MappingProxyType({colour: tuple(recipes) for colour, recipes in table.items()})


# Every recipe a pan can hold, by the colour it shows: 34 recipes, worked out once.
RECIPES_BY_COLOUR = _recipes_by_colour()


def recipes_for(colour: Colour) -> tuple[tuple[Chip, ...], ...]:
    """Every recipe of 1..3 pigments that shows ``colour``, smallest first."""
    return RECIPES_BY_COLOUR.get(colour, ())
