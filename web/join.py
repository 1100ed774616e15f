"""Joining a table like a party game: a phone types the table's short code at ``/join`` (or
opens ``/join/<code>``), then says who it is. "Just watching" goes to the scoreboard with no
token; a player asks to play, and a device already at the table (one holding the join token)
allows or refuses; once allowed, the phone is handed the token and opens its seat.

Every code a client sends, right or wrong, is one guess against its address's limit, and a wrong
code is answered the same whether or not any table exists (docs/web.md, "Joining")."""

from __future__ import annotations

from typing import Any, NoReturn

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response as Redirect

from companion.table.projection import TableState
from companion.table.setup import Player
from web.api import json_body
from web.codes import EXAMPLE, grouped, normalise
from web.seat_requests import ALLOWED, JoinRequest, RequestError
from web.security import require_token, slow_guesses
from web.services import services

join = Blueprint("join", __name__)


def _lookup(typed: str) -> TableState | None:
    """The table whose code a person typed, after counting the guess (429 beyond the limit)."""
    slow_guesses()
    code = normalise(typed)
    tables = services().tables
    table = None if code is None else services().codes.find(code, tables.ids())
    return None if table is None else tables.state(table)


def _no_table(typed: str) -> str:
    # The same words for a code no table has and for no code at all: nothing tells a guesser
    # whether the folder holds any table.
    return (
        f"No table has the code {typed.strip()[:12]!r}: check the code on the scoreboard "
        f"(like {EXAMPLE})."
    )


def _find(typed: str) -> TableState:
    """The table of a typed code, else 404."""
    state = _lookup(typed)
    if state is None:
        abort(404, description=_no_table(typed))
    return state


def code_of(table: str) -> str:
    """The table's code as people read it (``K7Q-4MZ``)."""
    return grouped(services().codes.code(table))


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (#rrggbb; WCAG relative
    luminance)."""

    def channel(i: int) -> float:
        c = int(colour[i : i + 2], 16) / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    light = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    return "#000" if light > 0.179 else "#fff"


def _player_json(player: Player) -> dict[str, Any]:
    return {**player.to_json(), "initial": player.name[:1].upper()}


@join.get("/join")
def start() -> Redirect | tuple[str, int] | tuple[str, int, dict[str, str]]:
    # The form is sent with GET: finding a table changes nothing.
    text = request.args.get("code")
    if text is None:
        return render_template("join.html", error=None, typed=""), 200
    # The form comes back with the code as typed, to fix one character or try again later.
    try:
        state = _lookup(text)
    except TooManyRequests as refused:
        page = render_template("join.html", error=refused.description, typed=text)
        return page, 429, {"Retry-After": str(refused.retry_after)}
    if state is None:
        return render_template("join.html", error=_no_table(text), typed=text), 404
    return redirect(url_for("join.who", code=code_of(state.table)), 303)


@join.get("/join/<code>")
def who(code: str) -> str:
    state = _find(code)
    return render_template(
        "who.html",
        state=state,
        code=code_of(state.table),
        players=[{**_player_json(p), "ink": ink_on(p.colour)} for p in state.setup.players],
    )


@join.post("/api/join")
def find_table() -> Response:
    state = _find(json_body().child("code").string(non_empty=False))
    return jsonify(
        {
            "table": state.table,
            "code": code_of(state.table),
            "game": state.setup.game,
            "players": [_player_json(p) for p in state.setup.players],
            "links": {
                "watch": url_for("pages.scoreboard", table=state.table),
                "who": url_for("join.who", code=code_of(state.table)),
            },
        }
    )


def _request_json(found: JoinRequest) -> dict[str, Any]:
    state = services().tables.state(found.table)
    player = state.setup.player(found.seat)
    body: dict[str, Any] = {
        "request": found.id,
        "table": found.table,
        "seat": found.seat,
        "name": player.name if player else "",
        "status": found.status,
    }
    if found.status == ALLOWED:
        body["token"] = found.token
        body["links"] = {
            "seat": url_for("pages.seat", table=found.table, seat=found.seat, token=found.token)
        }
    return body


def _refused(error: RequestError) -> NoReturn:
    abort(error.status, description=str(error))


@join.post("/api/join/requests")
def ask() -> tuple[Response, int]:
    body = json_body()
    state = _find(body.child("code").string(non_empty=False))
    seat = body.child("seat").integer()
    if state.setup.player(seat) is None:
        abort(400, description=f"seat: no player sits at seat {seat}")
    try:
        made = services().join_requests.ask(state.table, seat)
    except RequestError as error:
        _refused(error)
    return jsonify(_request_json(made)), 201


@join.get("/api/join/requests/<request_id>")
def answer_of(request_id: str) -> Response:
    found = services().join_requests.get(request_id)
    if found is None:
        abort(404, description="no such request to join: it expired, or the server restarted")
    return jsonify(_request_json(found))


@join.get("/api/tables/<table>/join-requests")
def waiting(table: str) -> Response:
    services().tables.state(table)
    require_token(table)
    return jsonify(
        {"requests": [_request_json(r) for r in services().join_requests.waiting(table)]}
    )


@join.post("/api/tables/<table>/join-requests/<request_id>")
def answer(table: str, request_id: str) -> Response:
    tables = services().tables
    tables.state(table)
    require_token(table)
    allow = json_body().child("allow").boolean()
    try:
        answered = services().join_requests.answer(
            table, request_id, tables.token(table) if allow else None
        )
    except RequestError as error:
        _refused(error)
    return jsonify(_request_json(answered))


@join.app_context_processor
def shared() -> dict[str, Any]:
    return {"table_code": code_of}
