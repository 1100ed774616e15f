"""Reading and writing a Pigment Lab position (positions.md, "pigments"): one pan, a whole
palette board, or one player's final tally. The keys present say which form a document is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.fields import Field
from companion.games.pigments.codec import (
    chips_to_json,
    parse_pan,
    parse_pan_size,
    parse_shade,
    shade_to_json,
)
from companion.games.pigments.model import BOARD, ROUNDS, Pan, Shade, Tally


@dataclass(frozen=True)
class PanPosition:
    pan: Pan
    shade: Shade | None


@dataclass(frozen=True)
class PalettePosition:
    """The four pans of a palette board, in board order: small, medium, medium, large."""

    pans: tuple[PanPosition, ...]

    def __post_init__(self) -> None:
        if tuple(p.pan.size for p in self.pans) != BOARD:
            raise ValueError("a palette board holds a small, two medium and a large pan")


Position = PanPosition | PalettePosition | Tally


def parse_pan_position(members: dict[str, Field], catalogue: Mapping[str, Shade]) -> PanPosition:
    """``pan``, ``chips`` and ``shade``; a left-out or null shade means no card is claimed."""
    shade = parse_shade(members["shade"], catalogue) if "shade" in members else None
    return PanPosition(parse_pan(members["pan"], members["chips"]), shade)


def parse_palette(field: Field, catalogue: Mapping[str, Shade]) -> PalettePosition:
    pans = []
    for entry, size in zip(field.array(length=len(BOARD)), BOARD, strict=True):
        members = entry.members(required=("pan", "chips"), optional=("shade",))
        if parse_pan_size(members["pan"]) is not size:
            order = ", ".join(s.value for s in BOARD)
            raise members["pan"].error(f"expected a {size} pan here (board order: {order})")
        pans.append(parse_pan_position(members, catalogue))
    return PalettePosition(tuple(pans))


def parse_tally(members: dict[str, Field]) -> Tally:
    pressed_field = members["pressed"]
    pressed = tuple(parse_pan_size(f) for f in pressed_field.array(max_len=len(BOARD)))
    for size, count in Counter(pressed).items():
        if count > BOARD.count(size):
            raise pressed_field.error(
                f"{count} {size} pans pressed, but a palette board has {BOARD.count(size)}"
            )
    spill = tuple(f.integer(0, 80) for f in members["spill_lines"].array(max_len=ROUNDS))
    wrong = members["wrong_diagnoses"].integer(0) if "wrong_diagnoses" in members else 0
    return Tally(pressed, spill, wrong)


def parse_position(field: Field, catalogue: Mapping[str, Shade]) -> Position:
    """A whole document (its ``game`` key already checked by the dispatcher)."""
    value = field.value if isinstance(field.value, dict) else {}
    if "pans" in value:
        members = field.members(required=("game", "pans"))
        return parse_palette(members["pans"], catalogue)
    if "pressed" in value or "spill_lines" in value:
        members = field.members(
            required=("game", "pressed", "spill_lines"), optional=("wrong_diagnoses",)
        )
        return parse_tally(members)
    if "pan" in value:
        members = field.members(required=("game", "pan", "chips"), optional=("shade",))
        return parse_pan_position(members, catalogue)
    raise field.error(
        "a pigments position has 'pan' (one pan), 'pans' (a palette board) "
        "or 'pressed' and 'spill_lines' (a final tally)"
    )


def pan_to_json(position: PanPosition, catalogue: Mapping[str, Shade]) -> dict[str, Any]:
    return {
        "pan": position.pan.size.value,
        "chips": chips_to_json(position.pan.chips),
        "shade": shade_to_json(position.shade, catalogue),
    }


def position_to_json(position: Position, catalogue: Mapping[str, Shade]) -> dict[str, Any]:
    if isinstance(position, PanPosition):
        return {"game": "pigments", **pan_to_json(position, catalogue)}
    if isinstance(position, PalettePosition):
        return {"game": "pigments", "pans": [pan_to_json(p, catalogue) for p in position.pans]}
    return {
        "game": "pigments",
        "pressed": [size.value for size in position.pressed],
        "spill_lines": list(position.spill_lines),
        "wrong_diagnoses": position.wrong_diagnoses,
    }
