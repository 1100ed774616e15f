"""Paintings game state: the Art Row, the draw pile, and each player's hand, tokens and paintings.

Values only; the moves between states are in ``game``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.paintings.model import ArtCard, Painting, ScoringCard

MIN_PLAYERS, MAX_PLAYERS = 1, 5
ART_ROW_SIZE = 5
STARTING_TOKENS = 4
HAND_LIMIT = 5
PAINTINGS_PER_PLAYER = 3


@dataclass(frozen=True)
class RowCard:
    """A face-up card of the Art Row and the Inspiration tokens lying on it."""

    card: ArtCard
    tokens: int = 0


@dataclass(frozen=True)
class PlayerState:
    hand: tuple[ArtCard, ...] = ()
    tokens: int = STARTING_TOKENS
    paintings: tuple[Painting, ...] = ()

    @property
    def done(self) -> bool:
        """A player is done after their third painting and passes from then on."""
        return len(self.paintings) >= PAINTINGS_PER_PLAYER


@dataclass(frozen=True)
class TakeCard:
    """Take the Art Row card at ``index`` (0 is furthest from the deck)."""

    index: int


@dataclass(frozen=True)
class CompletePainting:
    """Paint three hand cards; ``order`` gives their hand positions, bottom card first."""

    order: tuple[int, ...]


Action = TakeCard | CompletePainting


@dataclass(frozen=True)
class GameState:
    """The whole table. ``current`` is whose turn it is, or ``None`` once the game is over."""

    scoring_cards: tuple[ScoringCard, ...]
    players: tuple[PlayerState, ...]
    row: tuple[RowCard, ...]
    deck: tuple[ArtCard, ...]  # the draw pile, next card first
    current: int | None = 0

    @property
    def over(self) -> bool:
        return self.current is None
