"""Reading and writing a Pigment Lab position (positions.md, "pigments"): one pan, a whole
palette board, or one player's final tally. The keys present say which form a document is.

A palette board may also carry the player's turn at the Market, for ``atelier advise``: the
``crates`` and the ``spill_tray`` on offer, the player's ``spill_line`` count this round, and the
``shade_row`` to claim from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.fields import Field
from companion.games.pigments.codec import (
    chips_to_json,
    parse_chip,
    parse_pan,
    parse_pan_size,
    parse_shade,
    shade_to_json,
)
from companion.games.pigments.model import BOARD, ROUNDS, Chip, Pan, Shade, Tally
from companion.games.pigments.state import CHIPS_PER_CRATE, MAX_PLAYERS, SHADE_ROW

# The Market has one crate more than there are players.
MAX_CRATES = MAX_PLAYERS + 1
# No Spill Line or Spill Tray can hold more chips than the 80-chip mix.
MAX_CHIPS = 80
DRAFT_KEYS = ("crates", "spill_tray", "spill_line", "shade_row")


@dataclass(frozen=True)
class PanPosition:
    pan: Pan
    shade: Shade | None


@dataclass(frozen=True)
class Drafts:
    """What a palette's player may draft this turn, and what the advice needs besides.

    ``crates`` and ``tray`` (the Spill Tray) are the chips on offer; ``spill_line`` is the number
    of chips already on the player's Spill Line this round; ``shade_row`` is the Shade Row to claim
    from, None when not given.
    """

    crates: tuple[tuple[Chip, ...], ...] = ()
    tray: tuple[Chip, ...] = ()
    spill_line: int = 0
    shade_row: tuple[Shade, ...] | None = None

    @property
    def on_offer(self) -> bool:
        return bool(self.tray) or any(self.crates)


@dataclass(frozen=True)
class PalettePosition:
    """The four pans of a palette board, in board order: small, medium, medium, large;
    ``drafts`` when the player's turn at the Market is given."""

    pans: tuple[PanPosition, ...]
    drafts: Drafts | None = None

    def __post_init__(self) -> None:
        if tuple(p.pan.size for p in self.pans) != BOARD:
            raise ValueError("a palette board holds a small, two medium and a large pan")


Position = PanPosition | PalettePosition | Tally


def parse_pan_position(members: dict[str, Field], catalogue: Mapping[str, Shade]) -> PanPosition:
    """``pan``, ``chips`` and ``shade``; a left-out or null shade means no card is claimed."""
    shade = parse_shade(members["shade"], catalogue) if "shade" in members else None
    return PanPosition(parse_pan(members["pan"], members["chips"]), shade)


def parse_chips(field: Field, max_len: int | None = None, what: str = "") -> tuple[Chip, ...]:
    entries = field.array()
    if max_len is not None and len(entries) > max_len:
        raise field.error(f"{what} holds at most {max_len} chips, got {len(entries)}")
    return tuple(parse_chip(f) for f in entries)


def parse_shade_row(field: Field, catalogue: Mapping[str, Shade]) -> tuple[Shade, ...]:
    """Shade cards face up in the row: catalogue names or inline shades, each name once."""
    row: list[Shade] = []
    for entry in field.array(max_len=SHADE_ROW):
        if entry.is_null():
            raise entry.error("expected a shade card, got null")
        shade = parse_shade(entry, catalogue)
        assert shade is not None  # null was refused above
        if any(s.name == shade.name for s in row):
            raise entry.error(f"shade {shade.name!r} is in the row twice")
        row.append(shade)
    return tuple(row)


def parse_drafts(members: dict[str, Field], catalogue: Mapping[str, Shade]) -> Drafts | None:
    """The turn at the Market from ``crates``, ``spill_tray``, ``spill_line``, ``shade_row``;
    None when none of them is given. Whether a draft is on offer is the advisor's question."""
    if not any(key in members for key in DRAFT_KEYS):
        return None
    crates: tuple[tuple[Chip, ...], ...] = ()
    if "crates" in members:
        crates = tuple(
            parse_chips(f, CHIPS_PER_CRATE, "a crate")
            for f in members["crates"].array(max_len=MAX_CRATES)
        )
    tray: tuple[Chip, ...] = ()
    if "spill_tray" in members:
        tray = parse_chips(members["spill_tray"], MAX_CHIPS, "the Spill Tray")
    line = members["spill_line"].integer(0, MAX_CHIPS) if "spill_line" in members else 0
    row = parse_shade_row(members["shade_row"], catalogue) if "shade_row" in members else None
    return Drafts(crates, tray, line, row)


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
        members = field.members(required=("game", "pans"), optional=DRAFT_KEYS)
        palette = parse_palette(members["pans"], catalogue)
        return PalettePosition(palette.pans, parse_drafts(members, catalogue))
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
        out: dict[str, Any] = {
            "game": "pigments",
            "pans": [pan_to_json(p, catalogue) for p in position.pans],
        }
        drafts = position.drafts
        if drafts is not None:
            out |= {
                "crates": [chips_to_json(crate) for crate in drafts.crates],
                "spill_tray": chips_to_json(drafts.tray),
                "spill_line": drafts.spill_line,
            }
            if drafts.shade_row is not None:
                out["shade_row"] = [shade_to_json(s, catalogue) for s in drafts.shade_row]
        return out
    return {
        "game": "pigments",
        "pressed": [size.value for size in position.pressed],
        "spill_lines": list(position.spill_lines),
        "wrong_diagnoses": position.wrong_diagnoses,
    }
