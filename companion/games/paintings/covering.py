"""The covering rule: which icons of a painting stay visible, and which card each came from.

The visible icons of slot s are all the icons of the topmost card with at least one icon in s;
every lower card's icons in that slot are covered and ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.paintings.model import SLOTS, Icon, Painting


@dataclass(frozen=True)
class VisibleIcon:
    """One visible icon: its slot (1..5), the icon, and its card in the painting (0 = bottom)."""

    slot: int
    icon: Icon
    card: int

    def describe(self) -> str:
        return f"{self.icon.value} in slot {self.slot} (card {self.card + 1})"

    def to_json(self) -> dict[str, object]:
        return {"slot": self.slot, "icon": self.icon.value, "card": self.card}


@dataclass(frozen=True)
class Visible:
    """The visible icons of a painting, slot by slot (index 0 is slot 1)."""

    slots: tuple[tuple[VisibleIcon, ...], ...]

    def icons(self) -> tuple[VisibleIcon, ...]:
        """Every visible icon in slot order."""
        return tuple(v for slot in self.slots for v in slot)

    def of(self, icon: Icon) -> tuple[VisibleIcon, ...]:
        return tuple(v for v in self.icons() if v.icon is icon)

    def count(self, icon: Icon) -> int:
        return sum(1 for slot in self.slots for v in slot if v.icon is icon)

    def in_slot(self, slot: int) -> tuple[VisibleIcon, ...]:
        return self.slots[slot - 1]

    def source_cards(self) -> tuple[int | None, ...]:
        """Per slot, the card its icons come from (``None`` when the slot shows nothing)."""
        return tuple(slot[0].card if slot else None for slot in self.slots)

    def to_json(self) -> list[list[str]]:
        return [[v.icon.value for v in slot] for slot in self.slots]


def visible_icons(painting: Painting) -> Visible:
    slots: list[tuple[VisibleIcon, ...]] = []
    for slot in SLOTS:
        shown: tuple[VisibleIcon, ...] = ()
        # Top card first: the first card with an icon in this slot covers all below it.
        for index in reversed(range(len(painting.cards))):
            icons = painting.cards[index].slots[slot - 1]
            if icons:
                shown = tuple(VisibleIcon(slot, icon, index) for icon in icons)
                break
        slots.append(shown)
    return Visible(tuple(slots))
