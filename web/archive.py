"""Past games: the archive page and its JSON, read from the finished tables of the data folder.

Open to anyone, as reading a table is; an entry names players and scores, never a seat or a join
token."""

from __future__ import annotations

import threading

from flask import Blueprint, Response, abort, current_app, jsonify, render_template

from companion.table.archive import PastGame, newest_first, past_game, player_stats
from companion.table.session import Tables, UnknownTableError
from web.services import services

archive = Blueprint("archive", __name__)
KEY = "atelier.archive"


class PastGames:
    """The archive's entries, each kept until its table's log grows (an undo, tokens entered):
    reading a log again costs about a millisecond an event, mostly its JSON. Held by the app."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[int, PastGame]] = {}  # table: (its newest event, its entry)

    def read(self, tables: Tables) -> tuple[PastGame, ...]:
        ids = tables.ids()
        found = []
        for table in ids:
            try:
                state = tables.state(table)
                if not state.finished:
                    continue
                with self._lock:
                    kept = self._kept.get(table)
                if kept is None or kept[0] != state.last_event:
                    # The log as the state saw it: a change meanwhile is read next time.
                    log = [e for e in tables.events(table) if e.id <= state.last_event]
                    game = past_game(state, log)
                    assert game is not None
                    kept = (state.last_event, game)
                    with self._lock:
                        self._kept[table] = kept
            except UnknownTableError:
                continue  # removed while the archive was read
            found.append(kept[1])
        with self._lock:
            for gone in self._kept.keys() - set(ids):
                del self._kept[gone]
        return newest_first(found)


def _past_games() -> tuple[PastGame, ...]:
    kept: PastGames = current_app.extensions.setdefault(KEY, PastGames())
    return kept.read(services().tables)


def _archive_json() -> dict[str, object]:
    games = _past_games()
    return {
        "games": [game.to_json() for game in games],
        "players": [stats.to_json() for stats in player_stats(games)],
    }


@archive.get("/api/archive")
def archive_list() -> Response:
    """Every finished game, newest first, and each player's stats across them."""
    return jsonify(_archive_json())


@archive.get("/api/archive/<table>")
def archive_game(table: str) -> Response:
    """One finished game in full: each player's total after every round or scan."""
    tables = services().tables
    state = tables.state(table)
    game = past_game(state, tables.events(table))
    if game is None:
        abort(404, description=f"table {table!r} is still being played: its game is not past yet")
    return jsonify(game.to_json(full=True))


@archive.get("/archive")
def archive_page() -> str:
    return render_template("archive.html", archive=_archive_json())
