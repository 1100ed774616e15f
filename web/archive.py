"""Past games: the archive page and its JSON, read from the finished tables of the data folder.

Open to anyone, as reading a table is; an entry names players and scores, never a seat or a join
token."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, render_template

from companion.table.archive import PastGame, newest_first, past_game, player_stats
from companion.table.session import UnknownTableError
from web.services import services

archive = Blueprint("archive", __name__)


def _past_games() -> tuple[PastGame, ...]:
    tables = services().tables
    found = []
    for table in tables.ids():
        try:
            state = tables.state(table)
            # Only a finished table's log is read again: the others are not in the archive.
            game = past_game(state, tables.events(table)) if state.finished else None
        except UnknownTableError:
            continue  # removed while the archive was read
        if game is not None:
            found.append(game)
    return newest_first(found)


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
