"""The live camera's view of a table, for checking what it sees: the newest frame with its
markers, registered boards and read components drawn on. Only for a table a live camera feeds
(``atelier serve --camera / --video / --demo``), and only with the table's join token. And the
live table's scoreboard, which follows the live source from one game's table to the next."""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from companion.table.session import Created
from web.security import page_token
from web.services import services

camera = Blueprint("camera", __name__)

# ``LIVE_VIEW`` in the app's config: table id -> the newest annotated frame (JPEG), or None
# when no live camera feeds that table or no frame was read yet.
LiveView = Callable[[str], bytes | None]
# ``LIVE_TABLES`` in the app's config: the tables a live source has fed and still keeps, oldest
# first (the demo plays its games one after another, each on a table of its own, and keeps the
# last round of each); the last is the one fed now.
LiveTables = Callable[[], Sequence[Created]]


def _authorised(table: str) -> str:
    services().tables.state(table)  # an unknown table is a 404
    token = page_token(table)
    if token is None:
        abort(403, description="open the camera view with the table's join link")
    return token


def _view() -> LiveView:
    view: LiveView | None = current_app.config.get("LIVE_VIEW")
    if view is None:
        abort(404, description="no live camera feeds this server")
    return view


@camera.get("/t/<table>/camera")
def camera_page(table: str) -> str:
    token = _authorised(table)
    _view()
    state = services().tables.state(table)
    return render_template("camera.html", state=state, token=token)


@camera.get("/t/<table>/camera.jpg")
def camera_frame(table: str) -> Response:
    _authorised(table)
    picture = _view()(table)
    if picture is None:
        abort(404, description="no live camera frame of this table yet")
    response = Response(picture, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


def _fed() -> Sequence[Created]:
    tables: LiveTables | None = current_app.config.get("LIVE_TABLES")
    fed = tables() if tables is not None else ()
    if not fed:
        abort(404, description="no live camera feeds this server")
    return fed


@camera.get("/live")
def live_scoreboard() -> Response:
    """The scoreboard of the table fed now, set to follow the next one. The join token of any
    table the live source fed and still keeps passes on to it: whoever joined one game joins the
    next."""
    fed = _fed()
    now = fed[-1]
    token = request.args.get("token")
    joined = token is not None and any(hmac.compare_digest(c.token, token) for c in fed)
    if joined:
        return redirect(url_for("pages.scoreboard", table=now.table, token=now.token, follow=1))
    return redirect(url_for("pages.scoreboard", table=now.table, follow=1))


@camera.get("/api/live")
def live_table() -> Response:
    """The table the live source feeds now."""
    return jsonify({"table": _fed()[-1].table})
