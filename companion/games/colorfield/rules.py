"""Color Field through the game interface (``companion.games.protocol``), on ``game.py``'s engine.

Options: ``community_tools`` (card ids for Advanced Play) and ``canvases`` (board ids in seat
order; by default each player gets a board drawn from the seed). ``ScoreRound`` is the table's
action, so no seat's turn is awaited while a round waits to be scored; between rounds the seats
still choosing what to keep act at once. Standings: most points, then the larger patch bonus of
round 3, then more unused Inspiration tokens, otherwise shared (before the end: the totals and
patch bonus of the last scored round). A seat's score is the canvas in front of it, one round's
worth, as ``atelier score`` scores a canvas; the game's totals are the standings' points.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations

from companion.content.colorfield import ColorFieldContent, default_content
from companion.fields import Field
from companion.games.colorfield.actions import (
    Action,
    Decline,
    Discard,
    Keep,
    Pass,
    Place,
    RefreshPalette,
    Rotate,
    ScoreRound,
    Swap,
    TakeFromDeck,
    TakeFromPalette,
)
from companion.games.colorfield.explain import explain_canvas_score
from companion.games.colorfield.game import apply, new_game
from companion.games.colorfield.model import SPACES
from companion.games.colorfield.piles import PALETTE_SIZE
from companion.games.colorfield.scoring import score_canvas
from companion.games.colorfield.standings import final_standings
from companion.games.colorfield.state import GameState, Phase
from companion.games.colorfield.tools import DEFAULT_EFFECTS, Effect
from companion.games.protocol import Score, Setup, Standing, accepted

ROTATIONS = range(4)


@dataclass(frozen=True)
class ColorFieldRules:
    """Color Field's rules; ``content`` None plays the bundled catalogue."""

    content: ColorFieldContent | None = None
    effects: Mapping[str, Effect] = field(default_factory=lambda: DEFAULT_EFFECTS)

    def new_game(self, setup: Setup) -> GameState:
        options = Field(dict(setup.options), "options").members(
            optional=("community_tools", "canvases")
        )
        tools, canvases = (_names(options.get(key)) for key in ("community_tools", "canvases"))
        content = self.content if self.content is not None else default_content()
        return new_game(content, setup.players, setup.seed, tools, canvases, self.effects)

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        return accepted(apply, state, _candidates(state))

    def apply(self, state: GameState, action: Action) -> GameState:
        return apply(state, action)

    def whose_turn(self, state: GameState) -> int | None:
        if state.phase is Phase.KEEPING:
            return next(seat for seat, p in enumerate(state.players) if p.keep is None)
        return None if state.turn is None else state.turn.seat

    def round(self, state: GameState) -> int:
        return state.round

    def over(self, state: GameState) -> bool:
        return state.phase is Phase.OVER

    def standings(self, state: GameState) -> tuple[Standing, ...]:
        seats = range(len(state.players))
        patches = (
            [p.canvas.patch.points for p in state.scores[-1].players]
            if state.scores
            else [0 for _ in seats]
        )
        return final_standings(state.totals(), patches, [state.tokens_left(seat) for seat in seats])

    def score(self, state: GameState, seat: int) -> Score:
        scored = score_canvas(state.players[seat].canvas)
        return Score(scored.total, scored.to_json(), explain_canvas_score(scored))


def _names(option: Field | None) -> list[str] | None:
    return None if option is None else [entry.string() for entry in option.array()]


def _candidates(state: GameState) -> Iterator[Action]:
    """Every action that might be legal in the state's phase; ``game.apply`` has the last word."""
    seats = range(len(state.players))
    if state.phase is Phase.OVER:
        return
    if state.phase is Phase.KEEPING:
        # Each choice once: the spaces kept in ascending order.
        for seat, score in zip(seats, state.scores[-1].players, strict=True):
            for count in range(score.keep_allowance + 1):
                yield from (Keep(seat, spaces) for spaces in combinations(SPACES, count))
        return
    if state.turn is not None:
        yield from _turn_candidates(state.turn.seat)
    if state.phase is Phase.SCORING:
        yield ScoreRound()
    for seat in seats:
        yield from (Rotate(seat, space, r) for space in SPACES for r in ROTATIONS)
        yield from (Swap(seat, a, b) for a, b in combinations(SPACES, 2))
        yield Decline(seat)


def _turn_candidates(seat: int) -> Iterator[Action]:
    yield RefreshPalette(seat)
    yield from (TakeFromPalette(seat, slot) for slot in range(PALETTE_SIZE))
    yield TakeFromDeck(seat)
    yield from (Place(seat, space, r) for space in SPACES for r in ROTATIONS)
    yield Discard(seat)
    yield Pass(seat)
