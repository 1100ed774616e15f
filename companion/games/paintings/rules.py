"""Paintings through the game interface (``companion.games.protocol``), on ``game.py``'s engine.

Option: ``scoring_cards``, the 4 scoring cards in play (by default drawn from the seed). The
current player always acts. The rules have no rounds; the round is the pass around the table in
progress. Standings: most points, then more Inspiration tokens, otherwise shared.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.content.paintings import PaintingsContent, default_content
from companion.errors import IllegalActionError
from companion.fields import Field
from companion.games.paintings.explain import explain_player_score
from companion.games.paintings.game import can_act, legal_actions, new_game, play, standings
from companion.games.paintings.model import CARDS_PER_PAINTING
from companion.games.paintings.position import parse_scoring_cards
from companion.games.paintings.scoring import score_player
from companion.games.paintings.standings import final_standings
from companion.games.paintings.state import Action, GameState, PlayerState
from companion.games.protocol import Score, Setup, Standing


@dataclass(frozen=True)
class PaintingsRules:
    """Paintings' rules; ``content`` None plays the bundled catalogue."""

    content: PaintingsContent | None = None

    def new_game(self, setup: Setup) -> GameState:
        content = self.content if self.content is not None else default_content()
        options = Field(dict(setup.options), "options").members(optional=("scoring_cards",))
        goals = (
            tuple(card.goal for card in parse_scoring_cards(options["scoring_cards"], content))
            if "scoring_cards" in options
            else None
        )
        pool = tuple(content.scoring_cards.values())
        return new_game(setup.players, setup.seed, content.deck(), pool, goals)

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        return legal_actions(state)

    def apply(self, state: GameState, action: Action) -> GameState:
        if state.current is None:
            raise IllegalActionError("game-over", "the game is over")
        return play(state, state.current, action)

    def whose_turn(self, state: GameState) -> int | None:
        return state.current

    def round(self, state: GameState) -> int:
        """One more than the fewest turns taken by a player still playing; once the game is
        over, the most turns anyone took."""
        if state.over:
            return max(_turns_taken(p) for p in state.players)
        return 1 + min(_turns_taken(p) for p in state.players if can_act(state, p))

    def over(self, state: GameState) -> bool:
        return state.over

    def standings(self, state: GameState) -> tuple[Standing, ...]:
        by_seat = sorted(standings(state), key=lambda s: s.player)
        return final_standings([s.score.total for s in by_seat], [s.tokens for s in by_seat])

    def score(self, state: GameState, seat: int) -> Score:
        scored = score_player(state.players[seat].paintings, state.scoring_cards)
        return Score(scored.total, scored.to_json(), explain_player_score(scored))


def _turns_taken(player: PlayerState) -> int:
    # Every turn takes one card or paints three: the cards held plus four per painting.
    return len(player.hand) + (CARDS_PER_PAINTING + 1) * len(player.paintings)
