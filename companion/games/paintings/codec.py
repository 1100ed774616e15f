"""Paintings values to and from their JSON form (positions.md), with path-named errors."""

from __future__ import annotations

from typing import Any

from companion.fields import Field
from companion.games.paintings.model import SLOT_CAPACITY, SLOTS, ArtCard, Goal, Icon, Slots


def parse_icon(field: Field) -> Icon:
    return field.enum(Icon, "icon")


def parse_goal(field: Field) -> Goal:
    return field.enum(Goal, "scoring card")


def parse_slots(field: Field) -> Slots:
    """Five lists of zero to two icons; a slot may hold the same icon twice."""
    return tuple(
        tuple(parse_icon(icon) for icon in slot.array(max_len=SLOT_CAPACITY))
        for slot in field.array(length=len(SLOTS))
    )


def slots_to_json(slots: Slots) -> list[list[str]]:
    return [[icon.value for icon in icons] for icons in slots]


def card_to_json(card: ArtCard) -> dict[str, Any]:
    out: dict[str, Any] = {"slots": slots_to_json(card.slots)}
    if card.id is not None:
        out["card"] = card.id
    return out
