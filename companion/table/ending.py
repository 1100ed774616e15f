"""The end of a table's game, from what the table holds: the rounds ended and the boards scanned.

Each game ends as its rule text says, as far as the table can see it: Color Field after round 3,
Pigment Lab after round 5, Paintings once every player's third painting is scanned. Isle of Colors
ends a round after the round in which a player used a colour a sixth time or had no room for a
group; neither shows on a sheet (a sheet holds no count of uses, and the die is not scanned), so
the players tell the table, with a game-end event, once they have played that final round.

The final standings use each game's own ranking with the tie-breaks the table can know: Color
Field's round-3 patch bonus and unused Inspiration tokens, Pigment Lab's large pans pressed.
Paintings' tie-break (more Inspiration tokens) needs the tokens in hand, which no board shows: the
players enter them, and until every player's count is entered a tie on points is shared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.games.colorfield.standings import final_standings as colorfield_standings
from companion.games.paintings.standings import final_standings as paintings_standings
from companion.games.paintings.state import PAINTINGS_PER_PLAYER
from companion.games.pigments.results import final_standings as pigments_standings
from companion.games.protocol import SHARED, Standing, ranked
from companion.table.readings import BoardReading

ROUND_LIMIT: Mapping[str, int] = MappingProxyType({"colorfield": 3, "pigments": 5})
ENDS_ON_BOARDS = frozenset({"paintings"})
DECLARED_END = frozenset({"isle"})
HOW_IT_ENDS: Mapping[str, str] = MappingProxyType(
    {
        "colorfield": "after round 3",
        "pigments": "after round 5",
        "paintings": "once every player's third painting is scanned",
    }
)

# Each seat's board of the round that counts (None: none scanned) and its unused Inspiration
# tokens (None: not known), to the game's standings over 0-based seats.
Ranker = Callable[
    [Sequence[int], Sequence[BoardReading | None], Sequence[int | None]], tuple[Standing, ...]
]


def over_after_round(game: str, ended: int) -> bool:
    """Whether the game is over once round ``ended`` has ended."""
    limit = ROUND_LIMIT.get(game)
    return limit is not None and ended >= limit


def over_on_boards(game: str, boards: Sequence[BoardReading | None]) -> bool:
    """Whether the boards as scanned show the game over (Paintings: every player's third
    painting done and scored)."""
    if game not in ENDS_ON_BOARDS:
        return False
    return all(
        board is not None
        and board.scored.score is not None
        and len(board.scored.score["paintings"]) >= PAINTINGS_PER_PLAYER
        for board in boards
    )


def declared_end(game: str) -> bool:
    """Whether only the players can tell the table that the game is over."""
    return game in DECLARED_END


def final_standings(
    game: str,
    seats: Sequence[int],
    totals: Sequence[int],
    boards: Sequence[BoardReading | None],
    unused_tokens: Sequence[int | None],
) -> tuple[Standing, ...]:
    """Every seat ranked by the game's end rule with the tie-breaks the table can know, best
    first; ``Standing.seat`` is the printed seat."""
    ranker = RANKERS.get(game, _points_only)
    return tuple(replace(s, seat=seats[s.seat]) for s in ranker(totals, boards, unused_tokens))


def winners(standings: Sequence[Standing]) -> tuple[int, ...]:
    return tuple(s.seat for s in standings if s.rank == 1)


def decided_by(standings: Sequence[Standing]) -> str:
    """What gave the win: ``"points"``, a tie-break's name, or ``"shared"`` for a shared win."""
    first = [s for s in standings if s.rank == 1]
    return first[0].decided_by if len(first) == 1 else SHARED


def _colorfield(
    totals: Sequence[int],
    boards: Sequence[BoardReading | None],
    unused_tokens: Sequence[int | None],
) -> tuple[Standing, ...]:
    patches = [_score(board).get("patch", {}).get("points", 0) for board in boards]
    # The table counts Color Field's tokens from the scans, so every seat's is known.
    return colorfield_standings(totals, patches, [t or 0 for t in unused_tokens])


def _paintings(
    totals: Sequence[int],
    boards: Sequence[BoardReading | None],
    unused_tokens: Sequence[int | None],
) -> tuple[Standing, ...]:
    known = [t for t in unused_tokens if t is not None]
    if len(known) < len(unused_tokens):
        return ranked(totals)
    return paintings_standings(totals, known)


def _pigments(
    totals: Sequence[int],
    boards: Sequence[BoardReading | None],
    unused_tokens: Sequence[int | None],
) -> tuple[Standing, ...]:
    large = [
        sum(1 for pan in _score(board).get("pans", ()) if pan["pan"] == "large" and pan["pressed"])
        for board in boards
    ]
    return pigments_standings(totals, large)


def _points_only(
    totals: Sequence[int],
    boards: Sequence[BoardReading | None],
    unused_tokens: Sequence[int | None],
) -> tuple[Standing, ...]:
    return ranked(totals)


def _score(board: BoardReading | None) -> dict[str, Any]:
    # An unscanned or unreadable board shows nothing a tie-break could count.
    if board is None or board.scored.score is None:
        return {}
    return dict(board.scored.score)


RANKERS: Mapping[str, Ranker] = MappingProxyType(
    {"colorfield": _colorfield, "paintings": _paintings, "pigments": _pigments}
)
