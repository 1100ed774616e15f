"""Paintings values: icons, art cards, paintings and scoring cards (games.md section 2).

An art card has 5 icon slots, numbered 1..5 left to right, each holding zero, one or two icons.
A painting is three cards in order, bottom first.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

SLOTS = (1, 2, 3, 4, 5)
SLOT_CAPACITY = 2
CARDS_PER_PAINTING = 3


class Icon(StrEnum):
    HUE = "hue"
    SHAPE = "shape"
    TEXTURE = "texture"
    TONE = "tone"
    BONUS_HUE = "bonus-hue"
    BONUS_SHAPE = "bonus-shape"
    BONUS_TEXTURE = "bonus-texture"
    BONUS_TONE = "bonus-tone"

    @property
    def is_bonus(self) -> bool:
        return self.value.startswith("bonus-")

    @property
    def element(self) -> Icon:
        """The element an icon stands for: itself, or the element a bonus icon rewards."""
        return Icon(self.value.removeprefix("bonus-"))


ELEMENTS = (Icon.HUE, Icon.SHAPE, Icon.TEXTURE, Icon.TONE)
BONUSES = (Icon.BONUS_HUE, Icon.BONUS_SHAPE, Icon.BONUS_TEXTURE, Icon.BONUS_TONE)


class Goal(StrEnum):
    """The twelve scoring cards, by the goal each one rewards."""

    COMPOSITION = "composition"
    CONSISTENCY = "consistency"
    EMPHASIS = "emphasis"
    HIERARCHY = "hierarchy"
    MOVEMENT = "movement"
    PROPORTION = "proportion"
    PROXIMITY = "proximity"
    REPETITION = "repetition"
    SPACE = "space"
    STYLE = "style"
    SYMMETRY = "symmetry"
    VARIETY = "variety"


Slots = tuple[tuple[Icon, ...], ...]


@dataclass(frozen=True)
class ArtCard:
    """A printed art card: the icons of slots 1..5; catalogue cards also have an ``id``."""

    slots: Slots
    id: str | None = None

    def __post_init__(self) -> None:
        if len(self.slots) != len(SLOTS):
            raise ValueError(f"an art card has {len(SLOTS)} slots, not {len(self.slots)}")
        for number, icons in zip(SLOTS, self.slots, strict=True):
            if len(icons) > SLOT_CAPACITY:
                raise ValueError(f"slot {number} holds at most {SLOT_CAPACITY} icons")

    @property
    def icon_count(self) -> int:
        return sum(len(icons) for icons in self.slots)


@dataclass(frozen=True)
class Painting:
    """Three art cards, bottom first: the leftmost card chosen goes in first."""

    cards: tuple[ArtCard, ArtCard, ArtCard]

    def __post_init__(self) -> None:
        if len(self.cards) != CARDS_PER_PAINTING:
            raise ValueError(f"a painting has {CARDS_PER_PAINTING} cards, not {len(self.cards)}")


@dataclass(frozen=True)
class ScoringCard:
    """A scoring card in play: its goal and its track (points for 1, 2, 3... ribbons)."""

    goal: Goal
    track: tuple[int, ...]
    text: str = ""

    def __post_init__(self) -> None:
        if not self.track:
            raise ValueError(f"scoring card {self.goal} needs a track of at least one value")

    def points(self, ribbons: int) -> int:
        """Points for a ribbon count: 0 for none; the last value holds for that count and above."""
        if ribbons <= 0:
            return 0
        return self.track[min(ribbons, len(self.track)) - 1]
