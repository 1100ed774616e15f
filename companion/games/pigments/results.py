"""The end of a Pigment Lab game: each player's final tally, the ranking and the winners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games import protocol
from companion.games.pigments.bonuses import PaletteBonus
from companion.games.pigments.scoring import TallyScore, score_tally
from companion.games.pigments.state import GameState

LARGE_PANS = "large pans pressed"  # the final scoring's tie-break


@dataclass(frozen=True)
class Standing:
    player: int  # 0-based seat
    score: TallyScore

    @property
    def key(self) -> tuple[int, int]:
        """Highest score first; ties go to more large pans pressed."""
        return (self.score.total, self.score.large_pans)


def standings(state: GameState, bonuses: tuple[PaletteBonus, ...] = ()) -> tuple[Standing, ...]:
    """Every player's tally (rounds played so far), best first; equal keys keep seat order."""
    rows = [
        Standing(seat, score_tally(player.tally(), bonuses))
        for seat, player in enumerate(state.players)
    ]
    return tuple(sorted(rows, key=lambda row: row.key, reverse=True))


def winners(state: GameState, bonuses: tuple[PaletteBonus, ...] = ()) -> tuple[int, ...]:
    """The seats that share first place after the tie-break (more than one: a shared win)."""
    rows = standings(state, bonuses)
    return tuple(row.player for row in rows if row.key == rows[0].key)


def final_standings(
    totals: Sequence[int], large_pans: Sequence[int]
) -> tuple[protocol.Standing, ...]:
    """Every seat (0-based) ranked by the final scoring's rule, the tie-break named."""
    return protocol.ranked(totals, ((LARGE_PANS, large_pans),))
