"""The live stream of a table: Server-Sent Events, one per event of its log.

Each message's ``id`` is the event's id. A stream starts after the id the browser last saw (the
``Last-Event-ID`` header it sends when it reconnects, or ``?after=`` on the first connection)
and replays every event since, so a viewer that slept catches up exactly. Each message carries
the event with its summary; the last of a batch also carries the scoreboard as it now stands.
Comments keep a quiet connection open through proxies and let a dead one be noticed.

Served by the front server (``web.front``), the view hands the stream over once it is checked
(``web.handoff``); the server then streams it without a thread. Otherwise it streams here.
"""

from __future__ import annotations

import queue
import re
import time
from collections.abc import Iterator

from flask import Blueprint, Response, abort, request, stream_with_context

from companion.json_input import MAX_WHOLE
from companion.table.session import UnknownTableError
from web.handoff import ENVIRON_KEY, Handoff, Offer
from web.messages import KEEP_ALIVE, opening, read_batch
from web.services import services

events = Blueprint("events", __name__, url_prefix="/api")
ASCII_DIGITS = re.compile(r"[0-9]+")  # str.isdigit() also takes "²", which int() refuses


def _start_after() -> int:
    """The id a stream starts after: the header, else ``?after=``; one that is no number is
    ignored, and a number past any event id (a 64-bit integer in the log) is refused (400)."""
    for name, value in (
        ("Last-Event-ID", request.headers.get("Last-Event-ID")),
        ("after", request.args.get("after")),
    ):
        digits = (value or "").strip()
        if ASCII_DIGITS.fullmatch(digits):
            if len(digits) > len(str(MAX_WHOLE)) or int(digits) > MAX_WHOLE:
                abort(400, description=f"{name}: not an event id (0..{MAX_WHOLE})")
            return int(digits)
    return 0


@events.get("/tables/<table>/events")
def stream(table: str) -> Response:
    shared = services()
    tables = shared.tables
    tables.state(table)  # an unknown table is a 404 before the stream opens
    after = _start_after()
    offer = request.environ.get(ENVIRON_KEY)

    def messages() -> Iterator[str]:
        last = after
        deadline = time.monotonic() + shared.stream_seconds
        with shared.hub.subscribe(table) as wake:
            yield opening(table)
            while True:
                try:
                    batch = read_batch(tables, table, last)
                except UnknownTableError:
                    return  # the table was removed (a live demo's game played again)
                for event_id, text in batch.messages:
                    yield text
                    last = event_id
                left = deadline - time.monotonic()
                if left <= 0 or shared.hub.closing:
                    return
                try:
                    wake.get(timeout=min(shared.keepalive, left))
                except queue.Empty:
                    yield KEEP_ALIVE

    if isinstance(offer, Offer):
        offer.take(
            Handoff(table, after, tables, shared.hub, shared.keepalive, shared.stream_seconds)
        )
        response = Response(b"", mimetype="text/event-stream")
    else:
        response = Response(stream_with_context(messages()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
