"""Who may change a table, and protection of forms against requests from other sites.

Anyone on the network may watch. Changing a table needs its join token, sent in the
``X-Table-Token`` header (or the ``token`` field of a form): another site cannot read it, and a
page on another site cannot set that header without the browser asking this server first, which
it never allows. The start form, posted by a browser without a token, carries a CSRF token tied
to the browser's session cookie. A table's token can be replaced (a phone that left the table
keeps the old one) and the table removed, both with the token.
"""

from __future__ import annotations

import hmac
import secrets

from flask import abort, request, session
from werkzeug.exceptions import TooManyRequests

from web.access import RateLimit, retry_after
from web.services import services

HEADER = "X-Table-Token"
CSRF_FIELD = "csrf_token"


def request_token() -> str | None:
    header = request.headers.get(HEADER)
    if header:
        return header
    if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
        return request.form.get("token") or None
    return None


def require_token(table: str) -> None:
    """Refuse (403) a change to ``table`` without its join token; an unknown table is a 404."""
    if not services().tables.authorised(table, request_token()):
        abort(403, description="changing this table needs its join token (X-Table-Token)")


def not_fed_live(table: str) -> None:
    """Refuse (409) to remove ``table`` or change its token while the live camera feeds it: the
    live source follows its tables and their join links itself."""
    live = services().live
    if live is not None and any(created.table == table for created in live.fed()):
        abort(409, description="the live camera feeds this table: stop it first")


def slow_down() -> None:
    """Refuse (429, with ``Retry-After``) a new table from a client that created too many just
    now."""
    _within(services().creations, "too many new tables from this address")


def slow_guesses() -> None:
    """Refuse (429, with ``Retry-After``) a table code from a client that tried too many just
    now, whether or not they were right: a code cannot be walked."""
    _within(services().guesses, "too many table codes tried from this address")


def _within(limit: RateLimit, what: str) -> None:
    wait = limit.take(request.remote_addr or "")
    if wait > 0:
        refused = TooManyRequests(description=f"{what}: try again in {retry_after(wait)} s")
        refused.retry_after = int(retry_after(wait))
        raise refused


def page_token(table: str) -> str | None:
    """The join token a page was opened with (``?token=``), when it is the table's."""
    token = request.args.get("token")
    return token if token and services().tables.authorised(table, token) else None


def csrf_token() -> str:
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session[CSRF_FIELD] = token
    return token


def check_csrf() -> None:
    expected = session.get(CSRF_FIELD)
    sent = request.form.get(CSRF_FIELD, "")
    # As bytes: a form may send any characters, and they are simply not the token.
    if not isinstance(expected, str) or not hmac.compare_digest(expected.encode(), sent.encode()):
        abort(403, description="the form is out of date or was not sent from this site: reload it")
