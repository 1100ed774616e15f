"""Short names and small constructors shared by the Pigment Lab tests."""

from __future__ import annotations

from dataclasses import replace

from companion.content.pigments import default_content
from companion.games.pigments.faults import Cause, FaultCard, Symptom
from companion.games.pigments.model import Chip, Pan, PanSize, Shade
from companion.games.pigments.shades import ShadeCatalogue
from companion.games.pigments.state import BoardPan, GameState, PlayerState, empty_board

R, Y, U, T, B = Chip.FE2O3, Chip.FEOOH, Chip.ULTRAMARINE, Chip.TIO2, Chip.BINDER
SMALL, MEDIUM, LARGE = PanSize.SMALL, PanSize.MEDIUM, PanSize.LARGE
CRUMBLES = FaultCard(Symptom.CRUMBLES, Cause.NOT_ENOUGH_BINDER)
GLAZED = FaultCard(Symptom.GLAZED, Cause.TOO_MUCH_BINDER)


def catalogue() -> ShadeCatalogue:
    return default_content().catalogue


def shade(name: str) -> Shade:
    return default_content().shades[name]


def board(*pans: BoardPan | None) -> tuple[BoardPan, ...]:
    """A palette board; None keeps the empty pan of that position."""
    empty = empty_board()
    return tuple(p if p is not None else empty[i] for i, p in enumerate(pans)) + empty[len(pans) :]


def pan(
    size: PanSize, *chips: Chip, shade_name: str | None = None, pressed: bool = False
) -> BoardPan:
    return BoardPan(Pan(size, chips), shade(shade_name) if shade_name else None, pressed)


def table(
    crates: tuple[tuple[Chip, ...], ...] = ((R, R, Y), (U, T, B), (Y, Y, Y)),
    tray: tuple[Chip, ...] = (),
    players: tuple[PlayerState, ...] | None = None,
    supply: tuple[Chip, ...] = (),
    box: tuple[Chip, ...] = (),
    fault_deck: tuple[FaultCard, ...] = (CRUMBLES, GLAZED),
    **changes: object,
) -> GameState:
    """A two-player table with the given Market; everything else empty."""
    content = default_content()
    state = GameState(
        players=players or (PlayerState(empty_board()), PlayerState(empty_board())),
        crates=crates,
        tray=tray,
        supply=supply,
        box=box,
        shade_row=content.catalogue.shades[:8],
        shade_deck=content.catalogue.shades[8:],
        fault_deck=fault_deck,
        catalogue=content.catalogue,
    )
    return replace(state, **changes)  # type: ignore[arg-type]
