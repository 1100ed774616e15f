"""A table's state, computed from its setup and its event log alone.

Pure: the same log gives the same state, so a restarted server, a viewer catching up and the LED
displays all agree. Undo is an event that takes back the latest change still in effect; a
correction follows the scan it corrects.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.colorfield.standings import dense_positions
from companion.games.protocol import Standing
from companion.table.categories import categories
from companion.table.community_tools import TOOLS_GAMES, TableTools, card_name, tokens_allowed
from companion.table.describe import component_words, value_words
from companion.table.ending import (
    decided_by,
    final_standings,
    over_after_round,
    over_on_boards,
    winners,
)
from companion.table.events import (
    CHANGES,
    CORRECTION,
    DIAGNOSIS,
    GAME_END,
    ROLL,
    ROUND_END,
    SCAN,
    SPILL,
    TOKENS,
    TOOL_CARD,
    TOOL_DECLINE,
    UNDO,
    Event,
)
from companion.table.explanations import scoreboard_lines
from companion.table.penalties import SeatPenalties, diagnosis_points, spill_points
from companion.table.readings import BoardReading, rejudged
from companion.table.setup import TableSetup
from companion.words import plural

# Games whose score is banked at each round's end and added up (Color Field scores its canvas
# every round); in the others a board's latest score is the player's score.
BANKS_ROUNDS = frozenset({"colorfield"})


@dataclass(frozen=True)
class SeatState:
    seat: int
    reading: BoardReading | None
    reading_event: int | None  # the scan that read it
    reading_round: int  # the round it was read in
    banked: tuple[int, ...]  # scores of the rounds already ended (games that bank them)
    tokens_spent: int  # Color Field: Inspiration tokens the accepted scans show used
    scans_this_round: int
    penalties: SeatPenalties  # Pigment Lab: the Spill Line counts and diagnoses entered
    # The board in effect when this round began, if the table saw it in the round before.
    round_start: BoardReading | None = None
    tokens_held: int | None = None  # Paintings: Inspiration tokens in hand, as last entered
    diagnoses_since_scan: tuple[bool, ...] = ()  # Pigment Lab: verdicts since the last scan
    # The seat's last board that scored, and the round it was read in: while the board in effect
    # needs a look (covered by a hand, unreadable), its score stands instead of a false 0.
    confirmed: BoardReading | None = None
    confirmed_round: int = 0


@dataclass(frozen=True)
class HistoryEntry:
    event: Event
    summary: str
    undone: bool

    def to_json(self) -> dict[str, Any]:
        return {**self.event.to_json(), "summary": self.summary, "undone": self.undone}


@dataclass(frozen=True)
class TableState:
    table: str
    setup: TableSetup
    seats: tuple[SeatState, ...]
    round: int
    finished: bool  # the game is over (ending.py says when): no change but undo is taken
    turn: int  # the seat whose turn it is: the one after the last seat scanned
    last_change: int | None  # the latest change still in effect (what undo takes back)
    changed_seats: tuple[int, ...]  # the seats that change touched
    last_event: int  # the id of the newest event, 0 for none
    roll: int | None = None  # Isle of Colors: this round's die, once entered
    # Color Field: the Community Tools cards entered
    tools: TableTools = field(default_factory=TableTools)

    def seat(self, number: int) -> SeatState:
        return next(s for s in self.seats if s.seat == number)

    def tokens_allowed(self, number: int) -> int:
        """The seat's Inspiration allowance in the round being played (Color Field)."""
        base = self.setup.options.inspiration_tokens
        return tokens_allowed(base, self.tools, self.round, number)

    def tools_json(self) -> dict[str, Any] | None:
        """The round's Community Tools card and who declined it, at tables that play them."""
        if self.setup.game not in TOOLS_GAMES or not self.setup.options.community_tools:
            return None
        return {
            "card": self.tools.card(self.round),
            "declined": list(self.tools.declined_seats(self.round)),
        }

    def total(self, number: int) -> int:
        """The seat's total: where the board in effect needs a look, the one from its last board
        that scored (see ``counted_board``), which ``unsure`` marks."""
        state = self.seat(number)
        board = self.counted_board(number)
        points = board.total if board is not None and board.total is not None else 0
        if self.setup.game not in BANKS_ROUNDS:
            return points + state.penalties.points
        # Once over, the last round is banked: its board no longer adds to the banked rounds.
        return sum(state.banked) + (0 if self.finished else points)

    def unsure(self, number: int) -> bool:
        """Whether the seat's total is not from its board in effect, which needs a look (a
        problem, no score): the total is then its last board that scored, or 0 when none did.
        A round already banked is a record, not a guess: it is never unsure."""
        if self.setup.game in BANKS_ROUNDS and self.finished:
            return False
        board = self.board_of_last_round(number)
        return board is not None and board.total is None

    def totals(self) -> tuple[int, ...]:
        """Every player's total in seat order: what a score display shows."""
        return tuple(self.total(s.seat) for s in self.seats)

    def unsure_seats(self) -> tuple[bool, ...]:
        """Whether each player's total is unsure (``unsure``), in seat order."""
        return tuple(self.unsure(s.seat) for s in self.seats)

    def standings(self) -> tuple[int, ...]:
        """Each player's place in seat order; ties share a place and none is skipped."""
        return dense_positions(self.totals())

    def board_of_last_round(self, number: int) -> BoardReading | None:
        """The seat's board as scanned in the round being played (or the last one, once over);
        where scores are not banked, its latest board whenever it was scanned."""
        state = self.seat(number)
        if self.setup.game in BANKS_ROUNDS and state.reading_round != self.round:
            return None
        return state.reading

    def confirmed_board(self, number: int) -> BoardReading | None:
        """The seat's last board that scored; where rounds bank, only one of the round being
        played counts (a canvas is built anew each round, so last round's says nothing of it)."""
        state = self.seat(number)
        if self.setup.game in BANKS_ROUNDS and state.confirmed_round != self.round:
            return None
        return state.confirmed

    def counted_board(self, number: int) -> BoardReading | None:
        """The board whose score counts for the seat: ``board_of_last_round`` when it scored,
        else the seat's last board that did (``confirmed_board``), else none. Totals, standings,
        tie-breaks and a round's Community Tools points all use it, so they agree."""
        board = self.board_of_last_round(number)
        if board is None or board.total is not None:
            return board
        return self.confirmed_board(number)

    def final_standings(self) -> tuple[Standing, ...]:
        """Every seat ranked by the game's end rule and the tie-breaks the table can know (final
        once the game is over), best first."""
        return final_standings(
            self.setup.game,
            self.setup.seats,
            self.totals(),
            [self.counted_board(s.seat) for s in self.seats],
            [self.unused_tokens(s) for s in self.seats],
        )

    def unused_tokens(self, state: SeatState) -> int | None:
        """The seat's Inspiration tokens not spent: Color Field's counted from the scans,
        Paintings' as the players entered them (None until then); None in other games."""
        if self.setup.game == "paintings":
            return state.tokens_held
        if self.setup.game == "colorfield":
            return max(0, self.tokens_allowed(state.seat) - state.tokens_spent)
        return None

    def _outcome_json(self, standings: tuple[Standing, ...]) -> dict[str, Any]:
        """Whether the game is over and, once it is, who won and what decided it."""
        return {
            "over": self.finished,
            "winner": list(winners(standings)) if self.finished else [],
            "decided_by": decided_by(standings) if self.finished else None,
        }

    def _player_json(self, state: SeatState, place: int) -> dict[str, Any]:
        """What every view says of a player: who, their total and place, their rounds."""
        player = self.setup.player(state.seat)
        assert player is not None
        return {
            **player.to_json(),
            "total": self.total(state.seat),
            # The total is kept from an earlier board: the board in effect needs a look.
            "unsure": self.unsure(state.seat),
            "place": place,
            "round_scores": list(state.banked),
            "scan": state.reading_event,
            "penalty": state.penalties.points,
            "penalties": [p.to_json() for p in state.penalties.penalties()],
            "tokens": self.unused_tokens(state),
            "tool_points": [p.to_json() for p in self.tools.points_of(state.seat)],
            "penalty_lines": list(
                scoreboard_lines(state.penalties, self.tools.points_of(state.seat))
            ),
        }

    def scores_json(self) -> dict[str, Any]:
        """The scoreboard alone: totals, places, round and turn, and what the last change
        touched (what every live viewer receives after each event)."""
        players = []
        for state, place in zip(self.seats, self.standings(), strict=True):
            reading = state.reading
            players.append(
                self._player_json(state, place)
                | {
                    "categories": categories(self, state),
                    "board_total": None if reading is None else reading.total,
                    "problems": 0 if reading is None else len(reading.scored.problems),
                    "warnings": 0 if reading is None else len(reading.warnings),
                }
            )
        return {
            "id": self.table,
            "game": self.setup.game,
            "round": self.round,
            "roll": self.roll,
            "finished": self.finished,
            "turn": self.turn,
            "players": players,
            "last_change": self.last_change,
            "changed_seats": list(self.changed_seats),
            "last_event": self.last_event,
            "tools": self.tools_json(),
            **self._outcome_json(self.final_standings()),
        }

    def to_json(self) -> dict[str, Any]:
        players = [
            self._player_json(state, place)
            | {"board": None if state.reading is None else state.reading.to_json()}
            for state, place in zip(self.seats, self.standings(), strict=True)
        ]
        places = {p["seat"]: p for p in players}
        ranking = self.final_standings()
        return {
            "id": self.table,
            "game": self.setup.game,
            "setup": self.setup.to_json(),
            "round": self.round,
            "roll": self.roll,
            "finished": self.finished,
            "turn": self.turn,
            "players": players,
            "standings": [
                {
                    "seat": s.seat,
                    "name": places[s.seat]["name"],
                    "place": places[s.seat]["place"],
                    "total": places[s.seat]["total"],
                    "rank": s.rank,
                    "decided_by": s.decided_by,
                    "tie_breaks": [
                        {"criterion": t.criterion, "value": t.value} for t in s.tie_breaks
                    ],
                }
                for s in ranking
            ],
            "last_change": self.last_change,
            "changed_seats": list(self.changed_seats),
            "last_event": self.last_event,
            "tools": self.tools_json(),
            **self._outcome_json(ranking),
        }


def project(table: str, setup: TableSetup, events: Sequence[Event]) -> TableState:
    """The state after ``events`` (the whole log, oldest first)."""
    undone = undone_ids(events)
    state = initial(table, setup)
    for event in events:
        if event.kind in CHANGES and event.id not in undone and not _orphan(event, undone):
            state = advance(state, event)
    return replace(state, last_event=events[-1].id if events else 0)


def undone_ids(events: Sequence[Event]) -> set[int]:
    return {int(e.data["undoes"]) for e in events if e.kind == UNDO}


def initial(table: str, setup: TableSetup) -> TableState:
    seats = tuple(SeatState(s, None, None, 1, (), 0, 0, SeatPenalties()) for s in setup.seats)
    return TableState(table, setup, seats, 1, False, setup.seats[0], None, (), 0)


def advance(state: TableState, event: Event) -> TableState:
    """The state after one more change (a scan, a correction, a round's end or the game's, a
    Spill Line count, a diagnosis, a roll or a token count). An undo cannot be applied
    forward: it takes the table back, so the log is projected again without what it undid."""
    if event.kind not in CHANGES:
        raise ValueError(f"{event.kind} events are projected from the whole log")
    setup = state.setup
    seats = {s.seat: s for s in state.seats}
    turn, round_number, finished, roll = state.turn, state.round, state.finished, state.roll
    tools = state.tools
    if event.kind == SCAN:
        readings = [BoardReading.from_json(b) for b in event.data["boards"]]
        for reading in readings:
            old = seats[reading.seat]
            same_round = old.reading_event is not None and old.reading_round == round_number
            seats[reading.seat] = replace(
                _with_reading(old, reading, round_number),
                reading_event=event.id,
                reading_round=round_number,
                tokens_spent=old.tokens_spent + reading.tokens_spent,
                scans_this_round=old.scans_this_round + 1 if same_round else 1,
                diagnoses_since_scan=(),
            )
        changed = tuple(r.seat for r in readings)
        if len(readings) == 1:
            turn = _next_seat(setup.seats, readings[0].seat)
    elif event.kind == CORRECTION:
        reading = BoardReading.from_json(event.data["reading"])
        old = seats[reading.seat]
        before = old.reading.tokens_spent if old.reading is not None else 0
        seats[reading.seat] = replace(
            _with_reading(old, reading, old.reading_round),
            tokens_spent=old.tokens_spent - before + reading.tokens_spent,
        )
        changed = (reading.seat,)
    elif event.kind == GAME_END:
        finished = True
        changed = setup.seats
    elif event.kind == ROLL:
        roll = int(event.data["roll"])
        # The boards already scanned this round are judged again with the die now known.
        for number, old in seats.items():
            held = old.reading
            if held is None or held.context is None or old.reading_round != round_number:
                continue
            context = replace(held.context, roll=roll)
            seats[number] = _with_reading(old, rejudged(held, context), old.reading_round)
        changed = setup.seats
    elif event.kind == TOKENS:
        seat = int(event.data["seat"])
        seats[seat] = replace(seats[seat], tokens_held=int(event.data["tokens"]))
        changed = (seat,)
    elif event.kind in (SPILL, DIAGNOSIS):
        seat = int(event.data["seat"])
        old = seats[seat]
        entered = (
            old.penalties.with_spill(int(event.data["round"]), int(event.data["chips"]))
            if event.kind == SPILL
            else old.penalties.with_diagnosis(int(event.data["round"]), bool(event.data["right"]))
        )
        seats[seat] = replace(old, penalties=entered)
        if event.kind == DIAGNOSIS:
            seats[seat] = _diagnosed(seats[seat], bool(event.data["right"]))
        changed = (seat,)
    elif event.kind in (TOOL_CARD, TOOL_DECLINE):
        tools = tools.with_event(event.kind, event.data)
        changed = setup.seats if event.kind == TOOL_CARD else (int(event.data["seat"]),)
    else:
        scores = {int(k): int(v) for k, v in event.data["scores"].items()}
        # Color Field: what the round's Community Tools card gave, already in ``scores``.
        tools = tools.with_points(event.data.get("tools", ()))
        if setup.game in BANKS_ROUNDS:
            seats = {n: replace(s, banked=(*s.banked, scores[n])) for n, s in seats.items()}
        changed = setup.seats
        if over_after_round(setup.game, round_number):
            finished = True
        else:
            seats = {n: _next_round(s, round_number) for n, s in seats.items()}
            round_number += 1
            roll = None
    if event.kind in (SCAN, CORRECTION):
        boards = [seats[s].reading for s in setup.seats]
        finished = finished or over_on_boards(setup.game, boards)
    return replace(
        state,
        seats=tuple(seats[s] for s in setup.seats),
        round=round_number,
        finished=finished,
        turn=turn,
        roll=roll,
        last_change=event.id,
        changed_seats=changed,
        last_event=event.id,
        tools=tools,
    )


def history(setup: TableSetup, events: Sequence[Event]) -> list[HistoryEntry]:
    """Every event in a few words, oldest first, marking those taken back."""
    undone = undone_ids(events)
    return [
        HistoryEntry(e, summarize(setup, e), e.id in undone or _orphan(e, undone)) for e in events
    ]


def _orphan(event: Event, undone: Collection[int]) -> bool:
    return event.kind == CORRECTION and int(event.data["scan"]) in undone


def _diagnosed(state: SeatState, right: bool) -> SeatState:
    """The seat once a verdict is entered: the next scan is judged with it, and so is the board
    now in effect, which may show the pan a wrong verdict emptied."""
    diagnoses = (*state.diagnoses_since_scan, right)
    reading = state.reading
    if reading is not None and reading.context is not None:
        context = replace(reading.context, diagnoses=(*reading.context.diagnoses, right))
        reading = rejudged(reading, context)
    diagnosed = replace(state, diagnoses_since_scan=diagnoses)
    return diagnosed if reading is None else _with_reading(diagnosed, reading, state.reading_round)


def _with_reading(state: SeatState, reading: BoardReading, read_in: int) -> SeatState:
    """The seat with ``reading`` (read in round ``read_in``) in effect; a reading that scored is
    also its confirmed board, while one that needs a look leaves the last confirmed in place."""
    if reading.total is None:
        return replace(state, reading=reading)
    return replace(state, reading=reading, confirmed=reading, confirmed_round=read_in)


def _next_round(state: SeatState, ended: int) -> SeatState:
    """The seat as the next round begins: its board then is what the next is compared with,
    if the table saw it in the round that ended."""
    seen = state.reading if state.reading_round == ended else None
    return replace(state, round_start=seen)


def _next_seat(seats: Sequence[int], seat: int) -> int:
    return seats[(seats.index(seat) + 1) % len(seats)] if seat in seats else seats[0]


def summarize(setup: TableSetup, event: Event) -> str:
    """The event in a few words, for the history."""

    def name(seat: int) -> str:
        player = setup.player(seat)
        return player.name if player is not None else f"seat {seat}"

    if event.kind == SCAN:
        parts = []
        for board in event.data["boards"]:
            score = board["score"]
            if score is None:
                count = len(board["problems"])
                parts.append((board["seat"], f"needs a look ({plural(count, 'problem')})"))
            else:
                warnings = len(board["warnings"])
                warned = f", {plural(warnings, 'warning')}" if warnings else ""
                parts.append((board["seat"], f"{plural(score['total'], 'point')}{warned}"))
        if not parts:
            return "Photo scanned: no board of this table"
        if len(parts) == 1:
            return f"{name(parts[0][0])}'s board scanned: {parts[0][1]}"
        return "Boards scanned: " + "; ".join(f"{name(seat)} {said}" for seat, said in parts)
    if event.kind == CORRECTION:
        board = event.data["reading"]
        score = board["score"]
        now = "still needs a look" if score is None else f"now {plural(score['total'], 'point')}"
        where = component_words(event.data["component"])
        holds = value_words(board["game"], event.data["value"])
        return f"{name(board['seat'])}'s board corrected: {where} holds {holds}, {now}"
    if event.kind == ROUND_END:
        scores = ", ".join(f"{name(int(s))} {v}" for s, v in event.data["scores"].items())
        tools = "".join(
            f"; {name(int(p['seat']))} {p['explanation']}" for p in event.data.get("tools", ())
        )
        return f"Round {event.data['round']} ended: {scores}{tools}"
    if event.kind == TOOL_CARD:
        card = card_name(event.data["card"]) if event.data["card"] else "no card"
        return f"Community Tools: {card} in round {event.data['round']}"
    if event.kind == TOOL_DECLINE:
        verdict = "declines" if event.data["declined"] else "uses"
        who = name(event.data["seat"])
        return f"Community Tools: {who} {verdict} round {event.data['round']}'s card"
    if event.kind == GAME_END:
        return f"Game ended by the players in round {event.data['round']}"
    if event.kind == ROLL:
        return f"Roll: {event.data['roll']} in round {event.data['round']}"
    if event.kind == TOKENS:
        tokens = int(event.data["tokens"])
        return f"Inspiration tokens: {name(event.data['seat'])} holds {tokens}"
    if event.kind == SPILL:
        chips = int(event.data["chips"])
        return (
            f"Spill Line: {name(event.data['seat'])} {chips} chip{'' if chips == 1 else 's'} "
            f"in round {event.data['round']}, {plural(spill_points(chips), 'point')}"
        )
    if event.kind == DIAGNOSIS:
        right = bool(event.data["right"])
        verdict = "right" if right else "wrong"
        return (
            f"Fault diagnosis: {name(event.data['seat'])} {verdict}, "
            f"{plural(diagnosis_points(right), 'point')}"
        )
    if "summary" in event.data:
        return f"Undone: {event.data['summary']}"
    return "Undone: an earlier change"  # an undo logged before undos named what they took
