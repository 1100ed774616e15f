"""The tables of one data folder: create them, change them through events, read their state.

Every change is validated against the current state, written to the log, and only then applied
to the in-memory state and announced to listeners (the web's live streams, a score display). The
CLI, the web app and the tests all drive tables through this class, without HTTP.
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import AtelierError
from companion.fields import Field
from companion.games.registry import games
from companion.observation import BoardObservation
from companion.table.community_tools import (
    TOOLS_GAMES,
    card_name,
    parse_card,
    relies_on,
    round_points,
)
from companion.table.contexts import context_for
from companion.table.ending import HOW_IT_ENDS, declared_end
from companion.table.events import (
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
from companion.table.penalties import MAX_SPILL_CHIPS, PENALTY_GAMES
from companion.table.projection import TableState, advance, project, summarize
from companion.table.readings import BoardReading, correct, read_board
from companion.table.setup import TableSetup, parse_setup, setup_from_json
from companion.table.store import BoardView, Store

TABLE_ID = re.compile(r"[0-9a-f]{8}")
TOKEN_BYTES = 24  # 192 bits: unguessable, and short enough for a QR code a phone reads at a glance
DIE_FACES = 6  # Isle of Colors' die
# Paintings: each player starts with 4 tokens and takes them back from the Art Row; more than
# the whole table could hold is a slip of the finger.
MAX_TOKENS = 99

Listener = Callable[[Event], None]
TableListener = Callable[[str], None]  # called with the id of a table created or removed


class UnknownTableError(AtelierError):
    """No table has this id."""


class ConflictError(AtelierError):
    """The change does not fit the table's state (nothing to undo, a scan no longer in effect)."""


class NothingReadError(AtelierError):
    """A photo showed no board of this table; the reading comes with the refusal."""

    def __init__(self, message: str, ignored: Sequence[str]) -> None:
        super().__init__(message)
        self.ignored = tuple(ignored)


@dataclass(frozen=True)
class Created:
    table: str
    token: str


@dataclass(frozen=True)
class ScanResult:
    event: Event
    readings: tuple[BoardReading, ...]
    ignored: tuple[str, ...]  # boards in the photo that are not this table's, and why


class Tables:
    """Every table of a data folder. Thread-safe: changes to one table are serialised."""

    def __init__(self, folder: Path, clock: Callable[[], float] = time.time) -> None:
        self.store = Store(folder, clock)
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._states: dict[str, TableState] = {}
        self._listeners: list[Listener] = []
        self._table_listeners: list[TableListener] = []

    def close(self) -> None:
        self.store.close()

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every event, after it is written and applied."""
        with self._guard:
            self._listeners.append(listener)

    def watch(self, listener: TableListener) -> None:
        """Call ``listener`` with a table's id after the table is created or removed (a table
        made or gone has no event that says so)."""
        with self._guard:
            self._table_listeners.append(listener)

    def _announce(self, table: str) -> None:
        with self._guard:
            listeners = list(self._table_listeners)
        for listener in listeners:
            listener(table)

    def create(self, setup: TableSetup | Any) -> Created:
        """A new table from a setup (or its JSON); answers its id and its join token."""
        if not isinstance(setup, TableSetup):
            setup = parse_setup(Field(setup))
        token = secrets.token_urlsafe(TOKEN_BYTES)
        while True:
            table = secrets.token_hex(4)
            if self.store.table(table) is None:
                break
        self.store.create_table(table, token, setup.to_json())
        self._announce(table)
        return Created(table, token)

    def remove(self, table: str) -> None:
        """Remove a table, its log and its state; a change already under way finishes first,
        and any later one finds no such table."""
        if not TABLE_ID.fullmatch(table):
            raise UnknownTableError(f"no table {table!r}")
        with self._lock(table):
            try:
                if self.store.table(table) is None:
                    raise UnknownTableError(f"no table {table!r}")
                self.store.delete_table(table)
                self._states.pop(table, None)
            finally:
                with self._guard:
                    self._locks.pop(table, None)
        self._announce(table)

    def rotate_token(self, table: str) -> str:
        """Give ``table`` a new join token and answer it: the old one no longer changes the
        table (a phone that left the table with it cannot come back)."""
        if not TABLE_ID.fullmatch(table):
            raise UnknownTableError(f"no table {table!r}")
        with self._lock(table):
            if self.store.table(table) is None:
                with self._guard:
                    self._locks.pop(table, None)
                raise UnknownTableError(f"no table {table!r}")
            token = secrets.token_urlsafe(TOKEN_BYTES)
            self.store.set_token(table, token)
            return token

    def ids(self) -> list[str]:
        return self.store.table_ids()

    def _lock(self, table: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table, threading.Lock())

    def state(self, table: str) -> TableState:
        if not TABLE_ID.fullmatch(table):
            raise UnknownTableError(f"no table {table!r}")
        cached = self._states.get(table)
        if cached is not None:
            return cached
        with self._lock(table):
            return self._load(table)

    def _load(self, table: str) -> TableState:
        """The table projected from its whole log (called with the table's lock held)."""
        row = self.store.table(table)
        if row is None:
            with self._guard:
                # Asking after a table that is not there (or no longer) leaves nothing behind.
                self._locks.pop(table, None)
            raise UnknownTableError(f"no table {table!r}")
        state = project(table, setup_from_json(row.setup), self.store.events(table))
        self._states[table] = state
        return state

    def authorised(self, table: str, token: str | None) -> bool:
        """Whether ``token`` is the table's join token (compared in constant time)."""
        row = self.store.table(table) if TABLE_ID.fullmatch(table) else None
        if row is None:
            raise UnknownTableError(f"no table {table!r}")
        # As bytes: a token sent with other than ASCII characters is simply not the table's.
        return token is not None and hmac.compare_digest(row.token.encode(), token.encode())

    def token(self, table: str) -> str:
        row = self.store.table(table) if TABLE_ID.fullmatch(table) else None
        if row is None:
            raise UnknownTableError(f"no table {table!r}")
        return row.token

    def events(self, table: str, after: int = 0) -> list[Event]:
        self.state(table)  # an unknown table is an error, not an empty log
        return self.store.events(table, after)

    def _commit(
        self,
        table: str,
        kind: str,
        data: dict[str, Any],
        views: Mapping[int, BoardView] | None = None,
    ) -> Event:
        """Write one event and apply it (called with the table's lock held)."""
        event = self.store.append(table, kind, data, dict(views or {}))
        if kind == UNDO:
            self._load(table)
        else:
            self._states[table] = advance(self._states[table], event)
        with self._guard:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(event)
        return event

    def scan(
        self,
        table: str,
        observations: Sequence[BoardObservation],
        views: Mapping[tuple[str, ...], BoardView] | None = None,
        unreadable: Sequence[str] = (),
    ) -> ScanResult:
        """Accept the boards of one photo that belong to this table's players; ``views`` are
        their rectified faces by the printed boards they were read from; ``unreadable`` the
        problems of boards seen but not read, named when no board is accepted."""
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_when_over(state)
            setup = state.setup
            readings: list[BoardReading] = []
            ignored: list[str] = []
            for observation in observations:
                where = f"{_a_board_of(observation.game)} ({', '.join(observation.boards)})"
                if observation.game != setup.game:
                    ignored.append(f"{where}: {_plays(setup.game)}")
                elif observation.player is None or setup.player(observation.player) is None:
                    ignored.append(f"{where}: no player sits at seat {observation.player}")
                elif any(r.seat == observation.player for r in readings):
                    ignored.append(f"{where}: seat {observation.player} is shown twice")
                else:
                    context = context_for(state, observation.player)
                    options = setup.options.game_options()
                    readings.append(read_board(observation, observation.player, options, context))
            if not readings and unreadable:
                # Say why: the board may well be there, too blurred or too small to read.
                why = "; ".join([*ignored, *unreadable])
                raise NothingReadError(f"no board of this table was read: {why}", ignored)
            if not readings:
                found = "; ".join(ignored) if ignored else "no Atelier board found"
                raise NothingReadError(f"no board of this table in the photo ({found})", ignored)
            seat_views = {
                r.seat: (views or {})[r.boards] for r in readings if r.boards in (views or {})
            }
            data = {"boards": [r.to_json() for r in readings], "ignored": ignored}
            event = self._commit(table, SCAN, data, seat_views)
        return ScanResult(event, tuple(readings), tuple(ignored))

    def correct(self, table: str, request: Field) -> Event:
        """``{"scan": id, "seat": n, "component": name, "value": ...}``: a person's reading of one
        component of the board that scan read for that seat, while it is still in effect."""
        members = request.members(required=("scan", "seat", "component", "value"))
        scan_id = members["scan"].integer(1)
        seat = members["seat"].integer(1)
        component = members["component"].string()
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_when_over(state)
            if seat not in state.setup.seats:
                raise members["seat"].error(f"no player sits at seat {seat}")
            current = state.seat(seat)
            if current.reading is None or current.reading_event != scan_id:
                shown = "none" if current.reading_event is None else f"#{current.reading_event}"
                raise ConflictError(
                    f"scan #{scan_id} is not the board in effect for seat {seat} (that is {shown})"
                )
            options = state.setup.options.game_options()
            fixed = correct(current.reading, component, members["value"], options)
            data = {
                "scan": scan_id,
                "seat": seat,
                "component": component,
                "value": fixed.corrected[component],
                "reading": fixed.to_json(),
            }
            return self._commit(table, CORRECTION, data)

    def end_round(self, table: str) -> Event:
        """Close the current round, banking each player's score where the game banks them."""
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_when_over(state)
            scores = {str(s.seat): state.total(s.seat) - sum(s.banked) for s in state.seats}
            data: dict[str, Any] = {"round": state.round, "scores": scores}
            if state.tools_json() is not None:
                # The round's Community Tools card scores with the round, from every board of it.
                boards = [state.counted_board(s) for s in state.setup.seats]
                points = round_points(state.tools, state.round, state.setup.seats, boards)
                for entry in points:
                    scores[str(entry.seat)] += entry.points
                if points:
                    data["tools"] = [entry.to_json() for entry in points]
            return self._commit(table, ROUND_END, data)

    def end_game(self, table: str) -> Event:
        """End a game whose end the table cannot see (Isle of Colors), as its players say; the
        others end by themselves."""
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_when_over(state)
            game = state.setup.game
            if not declared_end(game):
                raise ConflictError(f"a {game} game ends by itself, {HOW_IT_ENDS[game]}")
            return self._commit(table, GAME_END, {"round": state.round})

    def enter_spill(self, table: str, request: Field) -> Event:
        """``{"seat": n, "chips": k, "round": r}``: seat n's Spill Line held k chips in round r
        (by default the round being played). The last count entered for a round counts."""
        members = request.members(required=("seat", "chips"), optional=("round",))
        seat = members["seat"].integer(1)
        chips = members["chips"].integer(0, MAX_SPILL_CHIPS)
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_penalty_entry(state, seat, members["seat"])
            # An earlier round's count may be fixed; a later round's is not known yet.
            round_number = (
                members["round"].integer(1, state.round) if "round" in members else state.round
            )
            data = {"seat": seat, "round": round_number, "chips": chips}
            return self._commit(table, SPILL, data)

    def enter_diagnosis(self, table: str, request: Field) -> Event:
        """``{"seat": n, "right": true|false}``: seat n diagnosed a Fault card this round."""
        members = request.members(required=("seat", "right"))
        seat = members["seat"].integer(1)
        right = members["right"].boolean()
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_penalty_entry(state, seat, members["seat"])
            data = {"seat": seat, "round": state.round, "right": right}
            return self._commit(table, DIAGNOSIS, data)

    def enter_roll(self, table: str, request: Field) -> Event:
        """``{"roll": n}``: the die of the round being played (Isle of Colors). The last roll
        entered for a round counts; boards already scanned this round are judged again."""
        members = request.members(required=("roll",))
        roll = members["roll"].integer(1, DIE_FACES)
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_unless(state, ("isle",), "a roll is entered at Isle of Colors tables")
            _refuse_when_over(state)
            return self._commit(table, ROLL, {"round": state.round, "roll": roll})

    def enter_tokens(self, table: str, request: Field) -> Event:
        """``{"seat": n, "tokens": k}``: seat n holds k Inspiration tokens (Paintings), what the
        end's tie-break counts. Taken after the end too: the count that matters is the last."""
        members = request.members(required=("seat", "tokens"))
        seat = members["seat"].integer(1)
        tokens = members["tokens"].integer(0, MAX_TOKENS)
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_unless(
                state, ("paintings",), "Inspiration tokens in hand are entered at Paintings tables"
            )
            if seat not in state.setup.seats:
                raise members["seat"].error(f"no player sits at seat {seat}")
            return self._commit(table, TOKENS, {"seat": seat, "tokens": tokens})

    def enter_tools(self, table: str, request: Field) -> Event:
        """``{"card": id}`` (or ``null``): the Community Tools card revealed this round; or
        ``{"seat": n, "declined": true|false}``: seat n declines this round's card (or uses it
        after all)."""
        members = request.members(optional=("card", "seat", "declined"))
        if "card" in members and ("seat" in members or "declined" in members):
            raise request.error("give either card, or seat and declined")
        if "card" not in members and not ("seat" in members and "declined" in members):
            missing = "declined" if "seat" in members else "seat" if "declined" in members else None
            if missing is None:
                raise request.error("give card, or seat and declined")
            raise request.error(f"{missing}: missing")
        card = parse_card(members["card"]) if "card" in members else None
        seat = members["seat"].integer(1) if "seat" in members else 0
        declined = members["declined"].boolean() if "declined" in members else False
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            _refuse_tools_entry(state)
            if "card" in members:
                return self._commit(table, TOOL_CARD, {"round": state.round, "card": card})
            if seat not in state.setup.seats:
                raise members["seat"].error(f"no player sits at seat {seat}")
            card = state.tools.card(state.round)
            if card is None:
                raise ConflictError(f"no Community Tools card is entered for round {state.round}")
            base, spent = state.setup.options.inspiration_tokens, state.seat(seat).tokens_spent
            if declined and relies_on(state.tools, state.round, base, spent):
                # As the engine rules: a player who used the card's effect applies all of it.
                raise ConflictError(
                    f"seat {seat} has used {spent} Inspiration tokens, more than the {base} "
                    f"without {card_name(card)}: the card can no longer be declined"
                )
            data = {"round": state.round, "seat": seat, "declined": declined}
            return self._commit(table, TOOL_DECLINE, data)

    def undo(self, table: str) -> Event:
        """Take back the latest change still in effect."""
        with self._lock(table):
            state = self._states.get(table) or self._load(table)
            if state.last_change is None:
                raise ConflictError("nothing to undo")
            # What was undone, in words, kept with the undo: the history and the live stream
            # say "Undone: Ana 14 points", not an event number.
            undone = next(e for e in self.store.events(table, state.last_change - 1))
            data = {"undoes": undone.id, "summary": summarize(state.setup, undone)}
            return self._commit(table, UNDO, data)


def _title(game: str) -> str:
    return games()[game].title if game in games() else game


def _a_board_of(game: str) -> str:
    """A board in words, by its game's title: "a Color Field board", "an Isle of Colors board"."""
    title = _title(game)
    return f"{'an' if title[0].lower() in 'aeiou' else 'a'} {title} board"


def _refuse_unless(state: TableState, games: Collection[str], what: str) -> None:
    """Refuse (409) an entry that only ``games`` take, naming the game this table plays."""
    game = state.setup.game
    if game not in games:
        raise ConflictError(f"{what}: {_plays(game)}")


def _plays(game: str) -> str:
    return f"this table plays {_title(game)}"


def _refuse_when_over(state: TableState) -> None:
    if state.finished:
        raise ConflictError("the game is over: undo the change that ended it to change the table")


def _refuse_penalty_entry(state: TableState, seat: int, where: Field) -> None:
    """Refuse a Spill Line count or a diagnosis for a game without them (409), once the game is
    over (409), or for a seat nobody sits at (400, naming ``where``)."""
    _refuse_unless(state, PENALTY_GAMES, "Spill Lines and Fault diagnoses are Pigment Lab's")
    _refuse_when_over(state)
    if seat not in state.setup.seats:
        raise where.error(f"no player sits at seat {seat}")


def _refuse_tools_entry(state: TableState) -> None:
    """Refuse a Community Tools entry at a table that does not play them (409) or once the game
    is over (409)."""
    _refuse_unless(state, TOOLS_GAMES, "Community Tools are Color Field's")
    if not state.setup.options.community_tools:
        raise ConflictError("this table plays without Community Tools (options.community_tools)")
    _refuse_when_over(state)
