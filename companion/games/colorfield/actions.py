"""What players do in a game of Color Field, and the names of the rules that can refuse it.

Players are seats ``0..n-1``; seat 0 holds the First Player marker. Every action but
``ScoreRound`` names the player who does it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Rule(StrEnum):
    """The rule an ``IllegalActionError`` names: stable, hyphenated machine names."""

    NOT_YOUR_TURN = "not-your-turn"
    ONE_TILE_PER_TURN = "one-tile-per-turn"
    TAKE_BEFORE_PLACING = "take-before-placing"
    PALETTE = "palette"
    PALETTE_REFRESH = "palette-refresh"
    DECK_EXHAUSTION = "deck-exhaustion"
    TURNS_PER_ROUND = "turns-per-round"
    INSPIRATION = "inspiration"
    INSPIRATION_TOKENS = "inspiration-tokens"
    COMMUNITY_TOOLS = "community-tools"
    BETWEEN_ROUNDS = "between-rounds"
    KEEP_ALLOWANCE = "keep-allowance"
    CANVAS_SPACES = "canvas-spaces"
    ROTATION = "rotation"
    PLAYERS = "players"
    GAME_OVER = "game-over"


@dataclass(frozen=True)
class RefreshPalette:
    """Clear all three Palette tiles to the central discard and refill, before taking."""

    player: int


@dataclass(frozen=True)
class TakeFromPalette:
    """Take the Palette tile in ``slot`` (0..2, left to right)."""

    player: int
    slot: int


@dataclass(frozen=True)
class TakeFromDeck:
    """Take the top tile of the current round's deck."""

    player: int


@dataclass(frozen=True)
class Place:
    """Put the taken tile in ``space`` with ``rotation``; the tile there goes to the player card."""

    player: int
    space: int
    rotation: int = 0


@dataclass(frozen=True)
class Discard:
    """Put the taken tile on the player card instead of the canvas."""

    player: int


@dataclass(frozen=True)
class Pass:
    """Forfeit the turn: legal only when neither the Palette nor the deck can give a tile."""

    player: int


@dataclass(frozen=True)
class Rotate:
    """Spend an Inspiration token: turn the tile in ``space`` to ``rotation``."""

    player: int
    space: int
    rotation: int


@dataclass(frozen=True)
class Swap:
    """Spend an Inspiration token: exchange two tiles, each keeping its rotation."""

    player: int
    first: int
    second: int


@dataclass(frozen=True)
class Decline:
    """Do without the whole effect of this round's Community Tools card."""

    player: int


@dataclass(frozen=True)
class ScoreRound:
    """Score every canvas once all turns are taken (Inspiration is allowed until then)."""


@dataclass(frozen=True)
class Keep:
    """Between rounds: the spaces whose tiles stay, unchanged, for the next round."""

    player: int
    spaces: tuple[int, ...] = ()


Action = (
    RefreshPalette
    | TakeFromPalette
    | TakeFromDeck
    | Place
    | Discard
    | Pass
    | Rotate
    | Swap
    | Decline
    | ScoreRound
    | Keep
)
