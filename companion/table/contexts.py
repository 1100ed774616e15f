"""What a new scan of a seat is judged against (``legality.TurnContext``), game by game: the
board the seat showed a turn (Isle of Colors: a round) before, and what else the table knows."""

from __future__ import annotations

from typing import Any

from companion.table.colorfield_rules import keep_allowances
from companion.table.legality import TurnContext, colour_used
from companion.table.projection import TableState
from companion.table.readings import BoardReading


def context_for(state: TableState, seat: int) -> TurnContext | None:
    """What a new scan of ``seat`` is judged against (None: nothing)."""
    game = state.setup.game
    if game == "isle":
        return _isle_context(state, seat)
    if game == "paintings":
        return _paintings_context(state, seat)
    if game == "pigments":
        return _pigments_context(state, seat)
    return _turn_context(state, seat)


def _scored(reading: BoardReading | None) -> dict[str, Any] | None:
    """A board's position as last read, if it was read well enough to score."""
    return None if reading is None or reading.scored.score is None else reading.scored.position


def _paintings_context(state: TableState, seat: int) -> TurnContext:
    """The seat's paintings as last read, and every other player's (a card exists once)."""
    others = tuple(
        position
        for other in state.seats
        if other.seat != seat and (position := _scored(other.reading)) is not None
    )
    before = _scored(state.seat(seat).reading)
    return TurnContext(before, 0, state.round, 0, players=len(state.setup.seats), others=others)


def _pigments_context(state: TableState, seat: int) -> TurnContext | None:
    """The seat's palette board as last read, and the verdicts entered since."""
    current = state.seat(seat)
    before = _scored(current.reading)
    if before is None:
        return None
    return TurnContext(
        before,
        0,
        state.round,
        current.scans_this_round,
        players=len(state.setup.seats),
        diagnoses=current.diagnoses_since_scan,
    )


def _isle_context(state: TableState, seat: int) -> TurnContext | None:
    """The seat's sheet as the round began, the roll and the colour the seat used the round
    before; None when the table did not read the sheet in the round before."""
    current = state.seat(seat)
    start = current.round_start
    if start is None or start.scored.score is None:
        return None
    previous = colour_used(start.context, start.scored.position)
    players = len(state.setup.seats)
    return TurnContext(
        start.scored.position,
        0,
        state.round,
        current.scans_this_round,
        state.roll,
        previous,
        players,
    )


def _turn_context(state: TableState, seat: int) -> TurnContext | None:
    """Color Field: the seat's last scored board of this round or, for its first scan of the
    round, how the round started."""
    current = state.seat(seat)
    reading = current.reading
    tokens_left = max(0, state.tokens_allowed(seat) - current.tokens_spent)
    if reading is None or current.reading_round != state.round:
        return _round_start_context(state, seat, tokens_left)
    if reading.scored.score is None:
        return None
    return TurnContext(
        reading.scored.position,
        tokens_left,
        state.round,
        current.scans_this_round,
        players=len(state.setup.seats),
    )


def _round_start_context(state: TableState, seat: int, tokens_left: int) -> TurnContext | None:
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
