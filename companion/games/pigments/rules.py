"""Pigment Lab through the game interface (``companion.games.protocol``), on ``game.py``'s engine.

Option: ``first_player``, the seat holding the First Chemist token (default 0). The current
player always acts, free actions and Fault cards included. Standings: most points, then more
large pans pressed, otherwise shared. A seat's score is its final tally so far: pressed pans,
the Spill Lines of the rounds ended, wrong diagnoses and Palette bonuses.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from companion.content.pigments import PigmentsContent, default_content
from companion.errors import AtelierError
from companion.fields import Field
from companion.games.pigments.actions import (
    Action,
    ClaimShade,
    Diagnose,
    Draft,
    EndTurn,
    Kiln,
    Press,
    ReturnChip,
    Sift,
    SkipRemedy,
    SpendWater,
    SwapChip,
)
from companion.games.pigments.explain import explain_tally
from companion.games.pigments.faults import Cause
from companion.games.pigments.game import apply, new_game
from companion.games.pigments.model import BOARD, Chip, canonical
from companion.games.pigments.results import final_standings, standings
from companion.games.pigments.scoring import score_tally
from companion.games.pigments.state import MAX_PLAYERS, MIN_PLAYERS, SPILL, GameState, Place
from companion.games.protocol import Score, Setup, Standing, accepted

PANS = range(len(BOARD))
PLACES: tuple[Place, ...] = (*PANS, SPILL)


@dataclass(frozen=True)
class PigmentsRules:
    """Pigment Lab's rules; ``content`` None plays the bundled content."""

    content: PigmentsContent | None = None

    def _content(self) -> PigmentsContent:
        return self.content if self.content is not None else default_content()

    def new_game(self, setup: Setup) -> GameState:
        if not MIN_PLAYERS <= setup.players <= MAX_PLAYERS:
            raise AtelierError(
                f"Pigment Lab is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {setup.players}"
            )
        options = Field(dict(setup.options), "options").members(optional=("first_player",))
        first = (
            options["first_player"].integer(0, setup.players - 1)
            if "first_player" in options
            else 0
        )
        content = self._content()
        return new_game(
            setup.players, content.chips, content.catalogue, content.faults, setup.seed, first
        )

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        return accepted(apply, state, _candidates(state))

    def apply(self, state: GameState, action: Action) -> GameState:
        return apply(state, action).state

    def whose_turn(self, state: GameState) -> int | None:
        return None if state.over else state.current

    def round(self, state: GameState) -> int:
        return state.round

    def over(self, state: GameState) -> bool:
        return state.over

    def standings(self, state: GameState) -> tuple[Standing, ...]:
        by_seat = sorted(standings(state, self._content().bonuses), key=lambda s: s.player)
        return final_standings(
            [s.score.total for s in by_seat], [s.score.large_pans for s in by_seat]
        )

    def score(self, state: GameState, seat: int) -> Score:
        tally = score_tally(state.players[seat].tally(), self._content().bonuses)
        return Score(tally.total, tally.to_json(), explain_tally(tally))


def _kinds(chips: Iterable[Chip]) -> tuple[Chip, ...]:
    return canonical(set(chips))


def _candidates(state: GameState) -> Iterator[Action]:
    """Every action of the current player that might be legal, each chip kind once;
    ``game.apply`` has the last word."""
    player = state.player
    yield from (Diagnose(cause) for cause in Cause)
    if state.pending is not None:
        chips = _kinds(player.pans[state.pending.pan].pan.chips)
        yield SkipRemedy()
        yield from (ReturnChip(chip) for chip in chips)
        yield from (SwapChip(a, b) for a in chips for b in _kinds(player.spill_line))
    sources = (*enumerate(state.crates), (None, state.tray))
    for crate, chips in sources:
        for colour in _kinds(chips):
            yield from (Draft(colour, crate, pan) for pan in (*PANS, None))
    for pan, board_pan in enumerate(player.pans):
        yield from (ClaimShade(pan, shade.name) for shade in state.shade_row)
        yield from (Sift(pan, chip) for chip in _kinds(board_pan.pan.chips))
        yield Press(pan)
    yield from (Kiln(first, second) for first in PLACES for second in PLACES)
    yield from (SpendWater(chip) for chip in _kinds(player.spill_line))
    yield EndTurn()
