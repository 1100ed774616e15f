"""Pigment Lab values to and from their JSON form (positions.md), with path-named errors."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from companion.errors import FieldError
from companion.fields import Field
from companion.games.pigments.bonuses import CONDITIONS, PARAMETERS, PaletteBonus
from companion.games.pigments.faults import Cause, FaultCard, Symptom
from companion.games.pigments.model import MAX_RECIPE, Chip, Pan, PanSize, Shade


def parse_chip(field: Field) -> Chip:
    return field.enum(Chip, "chip")


def parse_pigment(field: Field) -> Chip:
    chip = parse_chip(field)
    if not chip.is_pigment:
        raise field.error("binder is not a pigment (a recipe lists pigments only)")
    return chip


def parse_pan_size(field: Field) -> PanSize:
    return field.enum(PanSize, "pan")


def parse_pan(size_field: Field, chips_field: Field) -> Pan:
    """A pan and its chips; more chips than the pan has slots is an error."""
    size = parse_pan_size(size_field)
    chips = tuple(parse_chip(f) for f in chips_field.array())
    if len(chips) > size.slots:
        raise chips_field.error(
            f"a {size} pan has {size.slots} slots, but {len(chips)} chips are listed"
        )
    return Pan(size, chips)


def parse_recipe(field: Field) -> tuple[Chip, ...]:
    return tuple(parse_pigment(f) for f in field.array(min_len=1, max_len=MAX_RECIPE))


def parse_inline_shade(field: Field) -> Shade:
    """``{"name", "recipe"}``: the name is free text, the recipe decides."""
    members = field.members(required=("name", "recipe"))
    return Shade(members["name"].string(), parse_recipe(members["recipe"]))


def parse_shade(field: Field, catalogue: Mapping[str, Shade]) -> Shade | None:
    """A claimed shade: ``null``, a catalogue name, or an inline shade."""
    if field.is_null():
        return None
    if isinstance(field.value, str):
        return field.lookup(catalogue, "shade")
    return parse_inline_shade(field)


def parse_fault_card(field: Field) -> tuple[FaultCard, int]:
    """A Fault deck entry ``{"symptom", "cause", "count"}``: the card and how many copies."""
    members = field.members(required=("symptom", "cause"), optional=("count",))
    card = FaultCard(
        members["symptom"].enum(Symptom, "symptom"), members["cause"].enum(Cause, "cause")
    )
    return card, members["count"].integer(1, 100) if "count" in members else 1


def parse_bonus(field: Field) -> PaletteBonus:
    members = field.members(
        required=("id", "name", "points", "condition"), optional=("params", "text")
    )
    condition = members["condition"].string()
    if condition not in CONDITIONS:
        known = ", ".join(CONDITIONS)
        raise members["condition"].error(f"unknown condition {condition!r} (known: {known})")
    required, optional = PARAMETERS[condition]
    params: dict[str, int] = {}
    if "params" in members:
        given = members["params"].members(required=required, optional=optional)
        params = {key: value.integer(0) for key, value in given.items()}
    elif required:
        needs = ", ".join(sorted(required))
        raise FieldError(f"{field.path}.params", f"missing (needs {needs})")
    return PaletteBonus(
        id=members["id"].string(),
        name=members["name"].string(),
        points=members["points"].integer(-100, 100),
        condition=condition,
        params=MappingProxyType(params),
        text=members["text"].string() if "text" in members else "",
    )


def chips_to_json(chips: tuple[Chip, ...]) -> list[str]:
    return [chip.value for chip in chips]


def shade_to_json(shade: Shade | None, catalogue: Mapping[str, Shade]) -> Any:
    """A catalogue shade by its name; any other shade inline."""
    if shade is None:
        return None
    if catalogue.get(shade.name) == shade:
        return shade.name
    return {"name": shade.name, "recipe": chips_to_json(shade.recipe)}
