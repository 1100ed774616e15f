"""Isle of Colors through the game interface (``companion.games.protocol``), on ``game.py``'s
engine.

Options: ``island`` (an island id, default ``"default"``) and ``conditions`` (``{"green":
"grass", ...}``; by default drawn from the seed; the hands are the seed's either way). Each round
the table rolls first (``Roll``: no seat's turn), then the players fill at once: every seat yet
to act has legal actions, and the first of them is whose turn it is. Standings: most points,
ties shared.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from companion.content.isle import IsleContent, default_content
from companion.errors import AtelierError
from companion.fields import Field
from companion.games.isle.actions import Action, Fill, FillNothing, Roll
from companion.games.isle.codec import parse_conditions
from companion.games.isle.explain import explain_sheet_score
from companion.games.isle.game import DIE_FACES, PLAYER_COUNTS, Game, deal, roll_die
from companion.games.isle.model import Colour
from companion.games.isle.placements import placements
from companion.games.isle.position import DEFAULT_ISLAND
from companion.games.isle.scoring import score_sheet
from companion.games.protocol import Score, Setup, Standing, ranked

COLOURS = tuple(Colour)


@dataclass(frozen=True)
class IsleRules:
    """Isle of Colors' rules; ``content`` None plays the bundled islands."""

    content: IsleContent | None = None

    def new_game(self, setup: Setup) -> Game:
        return self._dealt(setup)[0]

    def rolls(self, setup: Setup) -> Iterator[int]:
        """The die rolls of a table without a die: the generator that dealt ``setup`` rolls on."""
        rng = self._dealt(setup)[1]
        while True:
            yield roll_die(rng)

    def _dealt(self, setup: Setup) -> tuple[Game, random.Random]:
        if setup.players not in PLAYER_COUNTS:
            raise AtelierError(f"Isle of Colors is for 1 or 2 players, not {setup.players}")
        options = Field(dict(setup.options), "options").members(optional=("island", "conditions"))
        content = self.content if self.content is not None else default_content()
        chosen = options.get("island", Field(DEFAULT_ISLAND, "options.island"))
        rng = random.Random(setup.seed)
        game = deal(chosen.lookup(content.islands, "island"), setup.players, rng)
        if "conditions" in options:
            game = replace(game, conditions=parse_conditions(options["conditions"]))
        return game, rng

    def legal_actions(self, state: Game) -> tuple[Action, ...]:
        if state.over:
            return ()
        if state.roll is None:
            return tuple(Roll(value) for value in range(1, DIE_FACES + 1))
        return tuple(
            action
            for seat, turn in enumerate(state.turns)
            if turn is None
            for action in _fills(state, seat, state.roll)
        )

    def apply(self, state: Game, action: Action) -> Game:
        match action:
            case Roll():
                return state.rolled(action.value)
            case Fill():
                return state.fill(action.player, action.colour, action.cells)
            case FillNothing():
                return state.fill_nothing(action.player)

    def whose_turn(self, state: Game) -> int | None:
        if state.over or state.roll is None:
            return None
        return next(seat for seat, turn in enumerate(state.turns) if turn is None)

    def round(self, state: Game) -> int:
        return state.round

    def over(self, state: Game) -> bool:
        return state.over

    def standings(self, state: Game) -> tuple[Standing, ...]:
        return ranked([score.total for score in state.result().scores])

    def score(self, state: Game, seat: int) -> Score:
        scored = score_sheet(state.players[seat].sheet, state.conditions)
        return Score(scored.total, scored.to_json(), explain_sheet_score(scored))


def _fills(game: Game, seat: int, roll: int) -> list[Action]:
    """Every fill of the roll open to a seat, or filling nothing when none fits."""
    player = game.players[seat]
    island, empty = player.sheet.island, player.sheet.empty_mask
    colours = sorted(player.hand, key=COLOURS.index)
    fills: list[Action] = [
        Fill(seat, colour, frozenset(island.cells_of(mask)))
        for mask in placements(island, empty, roll)
        for colour in colours
    ]
    return fills or [FillNothing(seat)]
