"""The state of a Pigment Lab game: the Market, every palette board, the decks, whose turn.

Immutable values: the engine (``game.py``) returns a new state for each action.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from companion.games.pigments.faults import FaultCard
from companion.games.pigments.model import BOARD, Chip, Pan, PanSize, Shade, Tally, canonical
from companion.games.pigments.shades import ShadeCatalogue

SPILL: Literal["spill"] = "spill"
# Where a player's chip lies: one of the four pans (0..3, board order) or the Spill Line.
Place = int | Literal["spill"]

CHIPS_PER_CRATE = 3
SHADE_ROW = 8
MAX_HELD_SHADES = 2
MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class BoardPan:
    """A pan on a palette board, the shade card tucked under it, and whether it is pressed."""

    pan: Pan
    shade: Shade | None = None
    pressed: bool = False

    def with_chips(self, chips: tuple[Chip, ...]) -> BoardPan:
        return replace(self, pan=self.pan.with_chips(chips))


def empty_board() -> tuple[BoardPan, ...]:
    return tuple(BoardPan(Pan(size)) for size in BOARD)


@dataclass(frozen=True)
class PlayerState:
    pans: tuple[BoardPan, ...]
    spill_line: tuple[Chip, ...] = ()
    water: int = 0
    spill_history: tuple[int, ...] = ()  # chips on the Spill Line at the end of each round
    wrong_diagnoses: int = 0

    @property
    def held_shades(self) -> int:
        """Claimed shade cards under pans not yet pressed (a pressed pan's card is kept)."""
        return sum(1 for p in self.pans if p.shade is not None and not p.pressed)

    @property
    def pressed(self) -> tuple[PanSize, ...]:
        return tuple(p.pan.size for p in self.pans if p.pressed)

    def tally(self) -> Tally:
        return Tally(self.pressed, self.spill_history, self.wrong_diagnoses)

    def with_pan(self, index: int, pan: BoardPan) -> PlayerState:
        pans = list(self.pans)
        pans[index] = pan
        return replace(self, pans=tuple(pans))

    def chips_at(self, place: Place) -> tuple[Chip, ...]:
        return self.spill_line if place == SPILL else self.pans[int(place)].pan.chips

    def with_chips_at(self, place: Place, chips: tuple[Chip, ...]) -> PlayerState:
        if place == SPILL:
            return replace(self, spill_line=canonical(chips))
        index = int(place)
        return self.with_pan(index, self.pans[index].with_chips(chips))


@dataclass(frozen=True)
class PendingDiagnosis:
    """A Fault card drawn for a pan: its owner must name the cause before anything else."""

    pan: int
    card: FaultCard


@dataclass(frozen=True)
class PendingRemedy:
    """A right diagnosis: swap a pan chip for a Spill Line chip, return one, or decline."""

    pan: int


Pending = PendingDiagnosis | PendingRemedy


@dataclass(frozen=True)
class GameState:
    players: tuple[PlayerState, ...]
    crates: tuple[tuple[Chip, ...], ...]
    tray: tuple[Chip, ...]  # the Spill Tray
    supply: tuple[Chip, ...]  # the face-down pile, top first
    box: tuple[Chip, ...]  # chips out of play
    shade_row: tuple[Shade, ...]
    shade_deck: tuple[Shade, ...]  # face down, top first
    fault_deck: tuple[FaultCard, ...]  # top first; a drawn card goes back at the bottom
    catalogue: ShadeCatalogue
    round: int = 1
    first_player: int = 0  # holds the First Chemist token
    current: int = 0
    drafted: bool = False
    sifted: bool = False
    pending: Pending | None = None
    over: bool = False

    @property
    def player(self) -> PlayerState:
        return self.players[self.current]

    def with_player(self, player: PlayerState) -> GameState:
        players = list(self.players)
        players[self.current] = player
        return replace(self, players=tuple(players))

    @property
    def market_empty(self) -> bool:
        return not self.tray and not any(self.crates)

    def all_chips(self) -> tuple[Chip, ...]:
        """Every chip in the game wherever it lies: the count never changes."""
        chips = [*self.supply, *self.box, *self.tray]
        for crate in self.crates:
            chips.extend(crate)
        for player in self.players:
            chips.extend(player.spill_line)
            for pan in player.pans:
                chips.extend(pan.pan.chips)
        return canonical(chips)
