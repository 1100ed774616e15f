"""The state of a game of Color Field: immutable values that ``game.apply`` replaces, not edits."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.games.colorfield.model import Canvas, Tile, TileKind
from companion.games.colorfield.piles import Piles
from companion.games.colorfield.scoring import CanvasScore
from companion.games.colorfield.standings import Outcome
from companion.games.colorfield.tools import ActiveTool, ToolBonus

ROUNDS = 3
TURNS_PER_ROUND = (5, 4, 4)
INSPIRATION_TOKENS = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class Phase(StrEnum):
    PLAYING = "playing"  # players take their turns
    SCORING = "scoring"  # every turn is taken; Inspiration still allowed until ScoreRound
    KEEPING = "keeping"  # the round is scored; players choose the tiles they keep
    OVER = "over"  # round 3 is scored; the outcome is known


@dataclass(frozen=True)
class Turn:
    """The turn in progress: whose it is, the tile taken (if any), and whether they refreshed."""

    seat: int
    held: Tile | None = None
    refreshed: bool = False


@dataclass(frozen=True)
class PlayerState:
    """One player's canvas, player card and tokens.

    ``card`` holds this round's discarded and replaced tiles; with ``passes`` it counts the turns
    taken. ``tokens_used`` counts the whole game. ``relied_on_tool`` records that this round a
    token was spent that only the current Community Tools card allowed, which makes declining
    the card too late. ``refresh_ok``: no Palette tile was taken since this player's last turn.
    ``keep`` is the choice made between rounds (None until made).
    """

    canvas: Canvas
    card: tuple[Tile, ...] = ()
    passes: int = 0
    tokens_used: int = 0
    declined: bool = False
    relied_on_tool: bool = False
    refresh_ok: bool = True
    keep: tuple[int, ...] | None = None

    @property
    def turns_taken(self) -> int:
        return len(self.card) + self.passes


@dataclass(frozen=True)
class PlayerRoundScore:
    """One player's round: the canvas score (every point explained) and the card's bonus."""

    canvas: CanvasScore
    tool: ToolBonus
    cumulative: int
    position: int
    keep_allowance: int

    @property
    def total(self) -> int:
        return self.canvas.total + self.tool.points


@dataclass(frozen=True)
class RoundScores:
    round: int
    card: str | None  # id of the round's Community Tools card
    players: tuple[PlayerRoundScore, ...]


@dataclass(frozen=True)
class GameState:
    """Everything on the table. Read it through the properties; change it with ``game.apply``."""

    round: int
    phase: Phase
    players: tuple[PlayerState, ...]
    piles: Piles
    turn: Turn | None
    tool_deck: tuple[ActiveTool, ...]
    scores: tuple[RoundScores, ...] = ()
    outcome: Outcome | None = None

    @property
    def round_kind(self) -> TileKind:
        return TileKind.for_round(self.round)

    @property
    def turns_this_round(self) -> int:
        return TURNS_PER_ROUND[self.round - 1]

    @property
    def tool(self) -> ActiveTool | None:
        """This round's Community Tools card; rounds past the end of the tool deck have none."""
        index = self.round - 1
        return self.tool_deck[index] if index < len(self.tool_deck) else None

    def tokens_allowed(self, seat: int) -> int:
        """Tokens the player may have used in total, counting this round's card unless declined."""
        tool = self.tool
        if tool is None or self.players[seat].declined:
            return INSPIRATION_TOKENS
        return tool.tokens_allowed(INSPIRATION_TOKENS)

    def tokens_left(self, seat: int) -> int:
        return max(0, self.tokens_allowed(seat) - self.players[seat].tokens_used)

    def totals(self) -> tuple[int, ...]:
        """Cumulative scores after the last scored round (0 before any)."""
        if not self.scores:
            return (0,) * len(self.players)
        return tuple(player.cumulative for player in self.scores[-1].players)
