"""Pigment Lab values: chips, bands, pan sizes, pans and shades (games.md section 4).

A pan's slots are not typed: a pan is full when every slot holds a chip, whatever the chip, and
the binder rule then decides whether the mix is sound.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from companion.words import plural


class Chip(StrEnum):
    """The five chip kinds, spelled as on the Atom Key."""

    FE2O3 = "Fe2O3"
    FEOOH = "FeO(OH)"
    ULTRAMARINE = "ultramarine"
    TIO2 = "TiO2"
    BINDER = "binder"

    @property
    def is_pigment(self) -> bool:
        return self is not Chip.BINDER

    @property
    def looks(self) -> str:
        """The chip's printed colour, as a player would call it."""
        return _LOOKS[self]


_LOOKS = {
    Chip.FE2O3: "red",
    Chip.FEOOH: "yellow",
    Chip.ULTRAMARINE: "blue",
    Chip.TIO2: "white",
    Chip.BINDER: "binder",
}

PIGMENTS = (Chip.FE2O3, Chip.FEOOH, Chip.ULTRAMARINE, Chip.TIO2)


class Band(StrEnum):
    """The six bands of white light, from short wavelengths to long."""

    VIOLET = "violet"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"
    ORANGE = "orange"
    RED = "red"


BANDS = tuple(Band)


class PanSize(StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"

    @property
    def windows(self) -> int:
        """Pigment windows printed on the board."""
        return {PanSize.SMALL: 1, PanSize.MEDIUM: 2, PanSize.LARGE: 3}[self]

    @property
    def binder_slots(self) -> int:
        return {PanSize.SMALL: 1, PanSize.MEDIUM: 1, PanSize.LARGE: 2}[self]

    @property
    def slots(self) -> int:
        return self.windows + self.binder_slots

    @property
    def points(self) -> int:
        return {PanSize.SMALL: 2, PanSize.MEDIUM: 5, PanSize.LARGE: 9}[self]


# The pans of one palette board, in board order, and the names the scanner gives them.
BOARD = (PanSize.SMALL, PanSize.MEDIUM, PanSize.MEDIUM, PanSize.LARGE)
PAN_NAMES = ("small", "medium-1", "medium-2", "large")


def canonical(chips: Iterable[Chip]) -> tuple[Chip, ...]:
    """Chips as a multiset in one fixed order, so equal multisets compare equal."""
    order = tuple(Chip)
    return tuple(sorted(chips, key=order.index))


def spell(chips: Iterable[Chip]) -> str:
    """``Fe2O3 + FeO(OH)``: a multiset of chips in words."""
    names = [chip.value for chip in canonical(chips)]
    return " + ".join(names) if names else "nothing"


@dataclass(frozen=True)
class Pan:
    """One pan and the chips in its slots (in no particular order)."""

    size: PanSize
    chips: tuple[Chip, ...] = ()

    def __post_init__(self) -> None:
        if len(self.chips) > self.size.slots:
            raise ValueError(
                f"a {self.size} pan has {self.size.slots} slots, not room for {len(self.chips)}"
            )

    @property
    def full(self) -> bool:
        return len(self.chips) == self.size.slots

    @property
    def room(self) -> int:
        return self.size.slots - len(self.chips)

    @property
    def pigments(self) -> tuple[Chip, ...]:
        return canonical(chip for chip in self.chips if chip.is_pigment)

    @property
    def binders(self) -> int:
        return sum(1 for chip in self.chips if chip is Chip.BINDER)

    def with_chips(self, chips: Iterable[Chip]) -> Pan:
        return Pan(self.size, canonical(chips))

    def count(self, chip: Chip) -> int:
        return Counter(self.chips)[chip]


MAX_RECIPE = PanSize.LARGE.windows


@dataclass(frozen=True)
class Shade:
    """A shade card: a colour's name and its one recipe (a multiset of 1..3 pigments)."""

    name: str
    recipe: tuple[Chip, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.recipe) <= MAX_RECIPE:
            raise ValueError(f"a recipe holds 1 to {MAX_RECIPE} pigments")
        if any(not chip.is_pigment for chip in self.recipe):
            raise ValueError("a recipe lists pigments only; binder is not part of it")
        if self.recipe != canonical(self.recipe):
            # A recipe is a multiset: store it in canonical order so equal recipes compare equal.
            object.__setattr__(self, "recipe", canonical(self.recipe))


ROUNDS = 5


@dataclass(frozen=True)
class Tally:
    """One player's final tally: pressed pans, Spill Line chips per round, wrong diagnoses."""

    pressed: tuple[PanSize, ...]
    spill_lines: tuple[int, ...]
    wrong_diagnoses: int = 0

    def __post_init__(self) -> None:
        for size, count in Counter(self.pressed).items():
            if count > BOARD.count(size):
                raise ValueError(f"a palette board has {plural(BOARD.count(size), f'{size} pan')}")
        if len(self.spill_lines) > ROUNDS or any(n < 0 for n in self.spill_lines):
            raise ValueError(f"at most {ROUNDS} rounds of Spill Line chip counts, none negative")
        if self.wrong_diagnoses < 0:
            raise ValueError("wrong diagnoses cannot be negative")
