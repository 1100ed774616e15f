"""The live camera's view of a table, for checking what it sees: the newest frame with its
markers, registered boards and read components drawn on. Only for a table a live camera feeds
(``atelier serve --camera / --video / --demo``), and only with the table's join token. And the
live table's scoreboard, which follows the live source from one game's table to the next."""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.reading import Live
from companion.table.session import Created
from web.security import page_token
from web.services import services

camera = Blueprint("camera", __name__)


def _authorised(table: str) -> str:
    services().tables.state(table)  # an unknown table is a 404
    token = page_token(table)
    if token is None:
        abort(403, description="open the camera view with the table's join link")
    return token


def _live() -> Live:
    live = services().live
    if live is None:
        abort(404, description="no live camera feeds this server")
    return live


@camera.app_context_processor
def shared() -> dict[str, Any]:
    return {"camera_feeds": camera_feeds}


def camera_feeds(table: str) -> bool:
    """Whether a live camera feeds ``table`` (or fed it and keeps it): its pages link the view."""
    live = services().live
    return live is not None and any(c.table == table for c in live.fed())


@camera.get("/t/<table>/camera")
def camera_page(table: str) -> str:
    token = _authorised(table)
    _live()
    state = services().tables.state(table)
    return render_template("camera.html", state=state, token=token)


@camera.get("/t/<table>/camera.jpg")
def camera_frame(table: str) -> Response:
    _authorised(table)
    picture = _live().view(table)
    if picture is None:
        abort(404, description="no live camera frame of this table yet")
    response = Response(picture, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


def _fed() -> Sequence[Created]:
    """The tables the live source fed and still keeps, oldest first (the demo plays its games
    one after another, each on a table of its own, and keeps the last round of each)."""
    live = services().live
    fed = live.fed() if live is not None else ()
    if not fed:
        abort(404, description="no live camera feeds this server")
    return fed


def _joined(fed: Sequence[Created]) -> bool:
    """Whether the request carries the join token of a table the live source fed and keeps."""
    token = request.args.get("token")
    sent = None if token is None else token.encode()  # as bytes: any characters may be sent
    return sent is not None and any(hmac.compare_digest(c.token.encode(), sent) for c in fed)


@camera.get("/live")
def live_scoreboard() -> Response:
    """The scoreboard of the table fed now, set to follow the next one. The join token of any
    table the live source fed and still keeps passes on to it: whoever joined one game joins the
    next."""
    fed = _fed()
    now = fed[-1]
    if _joined(fed):
        return redirect(url_for("pages.scoreboard", table=now.table, token=now.token, follow=1))
    return redirect(url_for("pages.scoreboard", table=now.table, follow=1))


@camera.get("/live/camera")
def live_camera() -> Response:
    """The camera view of the table fed now, for whoever joined any table the source fed: a link
    to it stays good from one game's table to the next, and the page follows them."""
    fed = _fed()
    if not _joined(fed):
        abort(403, description="open the camera view with the table's join link")
    now = fed[-1]
    return redirect(url_for("camera.camera_page", table=now.table, token=now.token))


@camera.get("/api/live")
def live_table() -> Response:
    """The table the live source feeds now."""
    return jsonify({"table": _fed()[-1].table})
