"""The organisers' leaderboard on the web: a page, a JSON API and a live stream, all read from
the shared board (which only the broker feeds). Read-only: nothing here changes a table.

- ``GET /``: every table and the standings per game, live.
- ``GET /api/tables``: ``{"connected", "version", "tables": [table...]}``.
- ``GET /api/tables/<site>/<table>``: one table (404 when the hub knows no such table).
- ``GET /api/standings``: ``{"games": [{"game", "title", "players": [placed...]}]}``.
- ``GET /api/live``: Server-Sent Events, ``board`` messages: the first has every table and
  every game's standings; each later one the tables and standings that changed since, with the
  keys of every table still there. Changes are coalesced: at most one message per
  ``HUB_MIN_INTERVAL`` seconds per viewer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, jsonify, render_template, request, stream_with_context
from werkzeug.exceptions import HTTPException

from web import SECURITY_HEADERS
from web.access import Hosts
from web.broker.board import SharedBoard
from web.broker.leaderboard import Leaderboard, Placed, Table, standings
from web.pages import GAME_TITLES

WEB = Path(__file__).resolve().parent.parent
DEFAULTS: Mapping[str, Any] = {
    # A viewer gets at most some twelve messages a second however busy the hall: a change waits
    # at most this long behind the one before (0.15 s put the page's p95 at 201 ms with 200
    # tables; at 0.08 s the coalescing still folds a busy hall's changes into few messages).
    "HUB_MIN_INTERVAL": 0.08,
    "SSE_KEEPALIVE": 15.0,
    "SSE_MAX_SECONDS": 300.0,  # then the browser reconnects: a worker is never held for good
    "ALLOWED_HOSTS": (),
}


def title(game: str) -> str:
    return GAME_TITLES.get(game, game)


def table_json(table: Table, online: bool) -> dict[str, Any]:
    return {
        "site": table.site,
        "table": table.table,
        "server": table.server,
        "label": table.label,
        "game": table.game,
        "title": title(table.game),
        "round": table.round,
        "over": table.over,
        "winners": list(table.winners),
        "players": [
            {
                "name": p.name,
                "colour": p.colour,
                "seat": p.seat,
                "total": p.total,
                "place": p.place,
            }
            for p in table.players
        ],
        "last": table.last,
        "seq": table.seq,
        "at": table.at,
        "received": table.received,
        "online": online,
        "events": table.events,
    }


def standings_json(tables: Sequence[Table], games: Sequence[str]) -> list[dict[str, Any]]:
    return [
        {
            "game": game,
            "title": title(game),
            "players": [_placed(p) for p in standings(tables, game)],
        }
        for game in games
    ]


def _placed(placed: Placed) -> dict[str, Any]:
    return {
        "rank": placed.rank,
        "name": placed.player.name,
        "colour": placed.player.colour,
        "total": placed.player.total,
        "site": placed.table.site,
        "table": placed.table.table,
        "label": placed.table.label,
        "over": placed.table.over,
    }


@dataclass(frozen=True)
class _Snapshot:
    """The board as it stood, taken under its lock and turned into JSON outside it."""

    version: int
    tables: list[Table]
    online: dict[tuple[str, str], bool]
    changed: list[Table]
    games: list[str]

    @staticmethod
    def of(board: Leaderboard, since: int) -> _Snapshot:
        tables, online = board.snapshot()
        changed, games = (tables, board.games()) if since == 0 else board.changed_since(since)
        return _Snapshot(board.version, tables, online, changed, games)

    def tables_json(self, tables: Sequence[Table]) -> list[dict[str, Any]]:
        return [table_json(t, self.online.get((t.site, t.server), False)) for t in tables]


def _message(snapshot: _Snapshot) -> dict[str, Any]:
    """What a viewer needs: the tables and standings that changed, and which tables remain."""
    return {
        "version": snapshot.version,
        "tables": snapshot.tables_json(snapshot.changed),
        "keys": [[t.site, t.table] for t in snapshot.tables],
        "standings": standings_json(snapshot.tables, snapshot.games),
    }


def create_hub_app(board: SharedBoard, config: Mapping[str, Any]) -> Flask:
    """The hub's app over ``board``; ``config`` overrides ``DEFAULTS``."""
    app = Flask(
        "web.broker", template_folder=str(WEB / "templates"), static_folder=str(WEB / "static")
    )
    app.config.update(DEFAULTS)
    app.config.update(config)
    hosts = Hosts.of(app.config["ALLOWED_HOSTS"])
    interval = float(app.config["HUB_MIN_INTERVAL"])
    keepalive = float(app.config["SSE_KEEPALIVE"])
    longest = float(app.config["SSE_MAX_SECONDS"])

    @app.get("/")
    def index() -> str:
        return render_template("hub.html")

    @app.get("/api/tables")
    def tables() -> Response:
        snapshot = board.read(partial(_Snapshot.of, since=0))
        return jsonify(
            {
                "connected": board.connected,
                "version": snapshot.version,
                "tables": snapshot.tables_json(snapshot.tables),
            }
        )

    @app.get("/api/tables/<site>/<table>")
    def one_table(site: str, table: str) -> Response:
        found = board.read(lambda b: _one(b, site, table))
        if found is None:
            abort(404, description=f"the hub knows no table {table!r} at {site!r}")
        return jsonify(found)

    @app.get("/api/standings")
    def standings() -> Response:
        snapshot = board.read(partial(_Snapshot.of, since=0))
        return jsonify({"games": standings_json(snapshot.tables, snapshot.games)})

    @app.get("/api/live")
    def live() -> Response:
        def messages() -> Iterator[str]:
            deadline = time.monotonic() + longest
            seen: int | None = None  # the version the viewer has (None: nothing yet)
            connected: bool | None = None
            yield "retry: 2000\n\n"
            while not board.closing:
                now = board.read(lambda b: (b.version, board.connected))
                if now != (seen, connected):
                    body = _message(board.read(partial(_Snapshot.of, since=seen or 0)))
                    seen, connected = body["version"], now[1]
                    body["connected"] = connected
                    yield f"event: board\ndata: {json.dumps(body, separators=(',', ':'))}\n\n"
                    time.sleep(interval)  # what changes meanwhile goes in the next message
                    continue
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                board.wait(now[0], bool(connected), min(keepalive, left))
                if board.read(lambda b: (b.version, board.connected)) == now:
                    yield ": still here\n\n"

        response = Response(stream_with_context(messages()), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    @app.before_request
    def addressed_here() -> None:
        # As the table server: a page on another site that points its own name here
        # (DNS rebinding) is refused.
        host = request.headers.get("Host", "")
        if not hosts.allows(host):
            abort(
                421,
                description=f"this hub does not answer to the name {host[:80]!r} "
                "(atelier hub --allow-host NAME allows it)",
            )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Any, int]:
        message = error.description or error.name
        if request.path.startswith("/api/"):
            return jsonify({"error": message}), error.code or 500
        return Response(f"{message}\n", mimetype="text/plain"), error.code or 500

    @app.after_request
    def harden(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    return app


def _one(board: Leaderboard, site: str, table: str) -> dict[str, Any] | None:
    found = board.table(site, table)
    return None if found is None else table_json(found, board.online(found))
