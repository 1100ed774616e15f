"""The live camera's view of a table, for checking what it sees: the newest frame with its
markers, registered boards and read components drawn on. Only for a table a live camera feeds
(``atelier serve --camera / --video / --demo``), and only with the table's join token."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, current_app, render_template
from werkzeug.wrappers import Response

from web.security import page_token
from web.services import services

camera = Blueprint("camera", __name__)

# ``LIVE_VIEW`` in the app's config: table id -> the newest annotated frame (JPEG), or None
# when no live camera feeds that table or no frame was read yet.
LiveView = Callable[[str], bytes | None]


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
