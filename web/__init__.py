"""The web companion: a Flask app factory, its blueprints (pages, the JSON API, live events),
templates and static files. Every view translates a request and delegates to
``companion.table``; the live stream reads the table's event log. Photos are read by the reader
the app is given (``companion.reading``): the web never sees how."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.errors import AtelierError
from companion.reading import Live, TableReader
from companion.table.session import (
    ConflictError,
    NothingReadError,
    Tables,
    UnknownTableError,
)
from web.access import (
    BURST,
    GUESSES_BURST,
    GUESSES_PER_MINUTE,
    PER_MINUTE,
    UNSAFE_METHODS,
    Hosts,
    RateLimit,
)
from web.codes import TableCodes
from web.hub import Hub
from web.seat_requests import JoinRequests
from web.services import Services, install, services

MAX_UPLOAD = 16 * 1024 * 1024  # a phone photo is 2..8 MB
SECRET_FILE = "secret.key"
DEFAULTS: Mapping[str, Any] = {
    "MAX_CONTENT_LENGTH": MAX_UPLOAD,
    "SSE_KEEPALIVE": 15.0,
    "SSE_MAX_SECONDS": 300.0,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_HTTPONLY": True,
    # Names the server answers to besides the local ones (``atelier serve`` adds its addresses).
    "ALLOWED_HOSTS": (),
    "TABLES_PER_MINUTE": PER_MINUTE,
    "TABLES_BURST": BURST,
    "GUESSES_PER_MINUTE": GUESSES_PER_MINUTE,
    "GUESSES_BURST": GUESSES_BURST,
    # Photos read at once: the scanner reads one at a time, and each photo is up to 151 MB once
    # decoded, so one scanned and one decoded beside it keep the scanner busy; more would only
    # wait in memory. A photo that finds no slot within PHOTO_WAIT_S is refused (503).
    "PHOTOS_AT_ONCE": 2,
    "PHOTO_WAIT_S": 5.0,
}
STATUS: Mapping[type[AtelierError], int] = {
    UnknownTableError: 404,
    ConflictError: 409,
    NothingReadError: 422,
}
SECURITY_HEADERS = {
    # Pages carry the join token in their address: never send it to another site. Not
    # "no-referrer": under it a browser posts a form with "Origin: null", which the origin check
    # must refuse, and the start form would never work.
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; "
    "style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'",
}


def too_large(limit: int) -> str:
    """The one line a body over ``limit`` bytes is refused with, by the app and by its server."""
    return f"body: a request body is at most {limit:,} bytes"


def _secret_key(folder: Path) -> bytes:
    """The key that signs session cookies, kept in the data folder so forms survive a restart."""
    path = folder / SECRET_FILE
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_bytes()
    key = secrets.token_bytes(32)
    with os.fdopen(descriptor, "wb") as out:
        out.write(key)
    return key


def _as_bytes(key: str | bytes) -> bytes:
    return key if isinstance(key, bytes) else key.encode()


def create_app(
    config: Mapping[str, Any],
    reader: TableReader,
    *,
    tables: Tables | None = None,
    live: Live | None = None,
    led_state: Callable[[], Mapping[str, object]] | None = None,
) -> Flask:
    """The app for the tables of ``config["DATA_DIR"]`` (``tables`` when given, whose owner
    closes them), reading photos with ``reader``, showing what ``live`` feeds and what emulated
    LED displays show (``led_state``); other keys of ``config`` override ``DEFAULTS``."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config)
    folder = Path(app.config["DATA_DIR"])
    if tables is None:
        tables = Tables(folder)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(folder)
    hub = Hub()
    tables.listen(hub.publish)
    install(
        app,
        Services(
            tables,
            hub,
            reader,
            float(app.config["SSE_KEEPALIVE"]),
            float(app.config["SSE_MAX_SECONDS"]),
            live,
            led_state,
            Hosts.of(app.config["ALLOWED_HOSTS"]),
            RateLimit(app.config["TABLES_PER_MINUTE"], app.config["TABLES_BURST"]),
            threading.BoundedSemaphore(int(app.config["PHOTOS_AT_ONCE"])),
            float(app.config["PHOTO_WAIT_S"]),
            TableCodes(_as_bytes(app.config["SECRET_KEY"])),
            RateLimit(app.config["GUESSES_PER_MINUTE"], app.config["GUESSES_BURST"]),
            JoinRequests(),
        ),
    )

    from web.api import api
    from web.archive import archive
    from web.camera import camera
    from web.events import events
    from web.join import join
    from web.pages import pages

    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(events)
    app.register_blueprint(camera)
    app.register_blueprint(archive)
    app.register_blueprint(join)

    @app.before_request
    def refuse_large_body() -> None:
        # On the declared length, before a byte of the body is read, whatever the view. (The
        # server in front, ``web.front``, refuses it sooner still.)
        limit = app.config["MAX_CONTENT_LENGTH"]
        if request.content_length is not None and request.content_length > limit:
            abort(413, description=too_large(limit))

    @app.errorhandler(AtelierError)
    def user_mistake(error: AtelierError) -> tuple[Any, int]:
        status = next((code for kind, code in STATUS.items() if isinstance(error, kind)), 400)
        return _error(status, str(error), getattr(error, "ignored", None))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Any, int, list[tuple[str, str]]]:
        # The exception's own headers (Retry-After, Allow) go with the answer; its body does not.
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        return (*_error(error.code or 500, error.description or error.name, None), headers)

    @app.before_request
    def addressed_here() -> None:
        """Refuse a request addressed to a name that is not the server's (a page that pointed
        its own name at this machine), and a change sent from another site's page."""
        hosts = services().hosts
        host = request.headers.get("Host", "")
        if not hosts.allows(host):
            abort(
                421,
                description=f"this server does not answer to the name {host[:80]!r} "
                "(atelier serve --allow-host NAME allows it)",
            )
        origin = request.headers.get("Origin")
        changing = request.method in UNSAFE_METHODS
        if changing and origin is not None and not hosts.allows_origin(origin):
            abort(403, description="a change sent from another site's page is refused")

    @app.after_request
    def harden(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    return app


def _error(status: int, message: str, ignored: object) -> tuple[Any, int]:
    if request.path.startswith("/api/"):
        body: dict[str, Any] = {"error": message}
        if ignored:
            body["ignored"] = list(ignored)  # type: ignore[call-overload]
        return jsonify(body), status
    return render_template("error.html", status=status, message=message), status
