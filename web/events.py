"""The live stream of a table: Server-Sent Events, one per event of its log.

Each message's ``id`` is the event's id. A stream starts after the id the browser last saw (the
``Last-Event-ID`` header it sends when it reconnects, or ``?after=`` on the first connection)
and replays every event since, so a viewer that slept catches up exactly. Each message carries
the event with its summary; the last of a batch also carries the scoreboard as it now stands.
Comments keep a quiet connection open through proxies and let a dead one be noticed.
"""

from __future__ import annotations

import json
import queue
import re
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, request, stream_with_context

from companion.json_input import MAX_WHOLE
from companion.table.projection import summarize
from companion.table.session import UnknownTableError
from web.services import services

events = Blueprint("events", __name__, url_prefix="/api")
RETRY_MS = 2000  # how soon a browser reconnects after the stream ends
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


def _message(event_id: int, payload: dict[str, Any]) -> str:
    data = json.dumps(payload, separators=(",", ":"))
    return f"id: {event_id}\nevent: change\ndata: {data}\n\n"


@events.get("/tables/<table>/events")
def stream(table: str) -> Response:
    shared = services()
    tables = shared.tables
    tables.state(table)  # an unknown table is a 404 before the stream opens
    after = _start_after()

    def messages() -> Iterator[str]:
        last = after
        deadline = time.monotonic() + shared.stream_seconds
        with shared.hub.subscribe(table) as wake:
            yield f"retry: {RETRY_MS}\n: stream of table {table}\n\n"
            while True:
                # The state first, then the events it covers: the scoreboard sent is never
                # older than the events sent with it.
                try:
                    state = tables.state(table)
                    batch = [e for e in tables.events(table, last) if e.id <= state.last_event]
                except UnknownTableError:
                    return  # the table was removed (a live demo's game played again)
                for number, event in enumerate(batch, 1):
                    # The event's own data stays in the API: a viewer needs the scoreboard.
                    payload: dict[str, Any] = {
                        "event": {
                            "id": event.id,
                            "kind": event.kind,
                            "at": round(event.at, 3),
                            "summary": summarize(state.setup, event),
                        }
                    }
                    if number == len(batch):
                        payload["scores"] = state.scores_json()
                    yield _message(event.id, payload)
                    last = event.id
                left = deadline - time.monotonic()
                if left <= 0 or shared.hub.closing:
                    return
                try:
                    wake.get(timeout=min(shared.keepalive, left))
                except queue.Empty:
                    yield ": keep-alive\n\n"

    response = Response(stream_with_context(messages()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
