"""A board as the table holds it: what the camera read, what people corrected, and its score.

A correction names one component as the scanner named it (``space 3``, ``cell (2,4)``,
``large window 2``, ``painting 1 card top``) and gives its value; the position is rebuilt from
the components, scored again and judged again, so a corrected board is scored exactly as a board
read right the first time would be.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from companion.content import colorfield, isle, paintings, pigments
from companion.errors import FieldError
from companion.fields import Field
from companion.games.isle.model import Colour
from companion.games.pigments.model import BOARD, PAN_NAMES, Chip
from companion.observation import (
    BoardObservation,
    ComponentRead,
    GameOptions,
    ScoredBoard,
    score_observation,
)
from companion.table.legality import TurnContext, judge

PAINTING_PLACES = ("card bottom", "card middle", "card top")


@dataclass(frozen=True)
class BoardReading:
    """One seat's board from one scan (and any corrections made to it since)."""

    seat: int
    game: str
    boards: tuple[str, ...]
    observed: dict[str, Any]  # the position as read, before the table's options
    components: tuple[ComponentRead, ...]
    read_problems: tuple[str, ...]  # the scanner's problems, each naming what it is about
    confidence: float
    scored: ScoredBoard
    context: TurnContext | None
    warnings: tuple[dict[str, Any], ...]
    tokens_spent: int
    corrected: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def total(self) -> int | None:
        return None if self.scored.score is None else int(self.scored.score["total"])

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "game": self.game,
            "boards": list(self.boards),
            "observed": self.observed,
            "components": [
                {**c.to_json(), **({"corrected": True} if c.component in self.corrected else {})}
                for c in self.components
            ],
            "read_problems": list(self.read_problems),
            "confidence": round(self.confidence, 3),
            "position": self.scored.position,
            "score": self.scored.score,
            "explanation": self.scored.explanation,
            "problems": list(self.scored.problems),
            "context": None if self.context is None else self.context.to_json(),
            "warnings": list(self.warnings),
            "tokens_spent": self.tokens_spent,
            "corrected": dict(self.corrected),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> BoardReading:
        components = tuple(
            ComponentRead(
                c["component"],
                c["value"],
                c["confidence"],
                c.get("problem"),
                tuple(c.get("candidates", ())),  # readings stored before candidates have none
            )
            for c in data["components"]
        )
        observation = BoardObservation(
            data["game"],
            data["seat"],
            tuple(data["boards"]),
            data["observed"],
            data["confidence"],
            tuple(data["problems"]),
            components,
        )
        scored = ScoredBoard(
            observation, data["position"], data["score"], data["explanation"], observation.problems
        )
        context = None if data["context"] is None else TurnContext.from_json(data["context"])
        return BoardReading(
            data["seat"],
            data["game"],
            tuple(data["boards"]),
            data["observed"],
            components,
            tuple(data["read_problems"]),
            data["confidence"],
            scored,
            context,
            tuple(data["warnings"]),
            data["tokens_spent"],
            MappingProxyType(dict(data["corrected"])),
        )


def _about(problem: str, components: Collection[str]) -> bool:
    """Whether the scanner's ``problem`` is about one of ``components`` (it names it first)."""
    return any(problem.startswith(f"{name}:") for name in components)


def read_board(
    observation: BoardObservation, seat: int, options: GameOptions, context: TurnContext | None
) -> BoardReading:
    """A scanned board, scored with the table's options and judged against the seat's last."""
    scored = score_observation(observation, options)
    verdict = judge(observation.game, context, scored.position)
    return BoardReading(
        seat,
        observation.game,
        observation.boards,
        observation.position,
        observation.components,
        observation.problems,
        observation.confidence,
        scored,
        context,
        verdict.warnings if scored.score is not None else (),
        verdict.tokens_spent if scored.score is not None else 0,
    )


def rejudged(reading: BoardReading, context: TurnContext) -> BoardReading:
    """The reading judged again with what the table learnt since (a roll, a diagnosis)."""
    if reading.scored.score is None:
        return replace(reading, context=context)
    verdict = judge(reading.game, context, reading.scored.position)
    return replace(reading, context=context, warnings=verdict.warnings)


def correct(
    reading: BoardReading, component: str, value: Field, options: GameOptions
) -> BoardReading:
    """The reading with ``component`` set to ``value`` by a person, scored and judged again."""
    names = [c.component for c in reading.components]
    if component not in names:
        listed = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        raise FieldError("component", f"no component {component!r} on this board ({listed})")
    parsed = VALUE_PARSERS[reading.game](component, value)
    components = tuple(
        ComponentRead(c.component, parsed, 1.0) if c.component == component else c
        for c in reading.components
    )
    values = {c.component: c.value for c in components}
    position = REBUILDERS[reading.game](reading.observed, values)
    fixed = {*reading.corrected, component}
    problems = tuple(p for p in reading.read_problems if not _about(p, fixed))
    observation = BoardObservation(
        reading.game,
        reading.seat,
        reading.boards,
        position,
        reading.confidence,
        problems,
        components,
    )
    scored = score_observation(observation, options)
    if scored.score is None and scored.problems and scored.problems[0].startswith("position:"):
        # The corrected components make no valid position (a tile used twice, say).
        raise value.error(scored.problems[0].removeprefix("position: "))
    verdict = judge(reading.game, reading.context, scored.position)
    return replace(
        reading,
        observed=position,
        components=components,
        scored=scored,
        warnings=verdict.warnings if scored.score is not None else (),
        tokens_spent=verdict.tokens_spent if scored.score is not None else 0,
        corrected=MappingProxyType({**reading.corrected, component: parsed}),
    )


def _colorfield_value(component: str, value: Field) -> object:
    if value.is_null():
        return None
    members = value.members(required=("tile",), optional=("rotation",))
    tile = members["tile"].string()
    members["tile"].lookup(colorfield.default_content().tiles, "tile")
    rotation = members["rotation"].integer(0, 3) if "rotation" in members else 0
    return {"tile": tile, "rotation": rotation}


def _paintings_value(component: str, value: Field) -> object:
    if value.is_null():
        return None
    value.lookup(paintings.default_content().cards, "art card")
    return value.string()


def _isle_value(component: str, value: Field) -> object:
    return None if value.is_null() else value.enum(Colour, "colour").value


def _pigments_value(component: str, value: Field) -> object:
    if value.is_null():
        return None
    if component.startswith("shade "):
        value.lookup(pigments.default_content().shades, "shade")
        return value.string()
    return value.enum(Chip, "chip").value


def _colorfield_position(observed: dict[str, Any], values: dict[str, object]) -> dict[str, Any]:
    spaces = list(observed["spaces"])
    for number in range(1, len(spaces) + 1):
        name = f"space {number}"
        if name in values:
            spaces[number - 1] = values[name]
    return {**observed, "spaces": spaces}


def _paintings_position(observed: dict[str, Any], values: dict[str, object]) -> dict[str, Any]:
    numbers = sorted({int(name.split()[1]) for name in values if name.startswith("painting ")})
    built = [
        [
            {"card": card}
            for place in PAINTING_PLACES
            if (card := values.get(f"painting {number} {place}")) is not None
        ]
        for number in numbers
    ]
    return {**observed, "paintings": built}


def _isle_position(observed: dict[str, Any], values: dict[str, object]) -> dict[str, Any]:
    island = isle.default_content().islands[observed.get("island", "default")]
    cells = [
        [row, column, colour]
        for row, column in island.cells
        if (colour := values.get(f"cell ({row},{column})")) is not None
    ]
    return {**observed, "cells": cells}


def _pigments_position(observed: dict[str, Any], values: dict[str, object]) -> dict[str, Any]:
    pans = []
    for name, size, read in zip(PAN_NAMES, BOARD, observed["pans"], strict=True):
        slots = [f"{name} window {i}" for i in range(1, size.windows + 1)]
        slots += [f"{name} binder {i}" for i in range(1, size.binder_slots + 1)]
        if not any(slot in values for slot in slots):
            chips = list(read["chips"])  # no slot was read (a covered pan): keep what was
        else:
            chips = [chip for slot in slots if (chip := values.get(slot)) is not None]
        shade = values.get(f"shade {name}", read["shade"])
        pans.append({**read, "chips": chips, "shade": shade})
    return {**observed, "pans": pans}


VALUE_PARSERS: Mapping[str, Callable[[str, Field], object]] = MappingProxyType(
    {
        "colorfield": _colorfield_value,
        "paintings": _paintings_value,
        "isle": _isle_value,
        "pigments": _pigments_value,
    }
)
REBUILDERS: Mapping[str, Callable[[dict[str, Any], dict[str, object]], dict[str, Any]]] = (
    MappingProxyType(
        {
            "colorfield": _colorfield_position,
            "paintings": _paintings_position,
            "isle": _isle_position,
            "pigments": _pigments_position,
        }
    )
)
