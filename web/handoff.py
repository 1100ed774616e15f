"""How a view hands a live stream over to the server that called it.

A server that can stream to many viewers without a thread each puts an ``Offer`` in every
request's WSGI environ under ``ENVIRON_KEY``. The stream's view still does all the checking (an
unknown table, the names the server answers to) and makes the response's headers; then, instead
of a body, it takes the offer with what the stream needs, and the server streams after sending
those headers. Without an offer (Flask's test client, any other WSGI server) the view streams
its own body, one thread a viewer."""

from __future__ import annotations

from dataclasses import dataclass

from companion.table.session import Tables
from web.hub import Hub

ENVIRON_KEY = "atelier.stream"


@dataclass(frozen=True)
class Handoff:
    """A live stream of ``table`` starting after event ``after``, with its log, its hub and its
    timings."""

    table: str
    after: int
    tables: Tables
    hub: Hub
    keepalive: float  # seconds between keep-alive comments on a quiet stream
    seconds: float  # the stream ends after this long; the browser reconnects and catches up


class Offer:
    """One request's offer to stream: empty until the view takes it."""

    def __init__(self) -> None:
        self.taken: Handoff | None = None

    def take(self, handoff: Handoff) -> None:
        self.taken = handoff
