"""What a Color Field seat's first scan of a round is judged against (``colorfield_rules``)."""

from __future__ import annotations

from companion.table.colorfield_rules import keep_allowances
from companion.table.legality import TurnContext
from companion.table.projection import TableState


def round_start_context(state: TableState, seat: int, tokens_left: int) -> TurnContext | None:
    """Round 1: an empty canvas, nothing to keep. Rounds 2 and 3: the seat's last board of the
    previous round and the tiles its position by the banked scores lets it keep. None when that
    board is unknown (not scanned in that round, or unreadable)."""
    if state.round == 1:
        players = len(state.setup.seats)
        return TurnContext(None, tokens_left, 1, 0, players=players, round_start=True)
    reading = state.seat(seat).round_start
    if reading is None or reading.scored.score is None:
        return None
    allowances = keep_allowances([sum(s.banked) for s in state.seats])
    allowance = allowances[state.setup.seats.index(seat)]
    return TurnContext(
        reading.scored.position,
        tokens_left,
        state.round,
        0,
        players=len(state.setup.seats),
        round_start=True,
        keep_allowance=allowance,
    )
