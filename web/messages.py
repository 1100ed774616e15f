"""What a live stream sends, in one place so that every way of serving it sends the same bytes:
the opening (how soon to reconnect), each event's message, the keep-alive comment, and the batch
of messages after a given event id read from a table's log."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.table.projection import summarize
from companion.table.session import Tables

RETRY_MS = 2000  # how soon a browser reconnects after the stream ends
KEEP_ALIVE = ": keep-alive\n\n"


def opening(table: str) -> str:
    return f"retry: {RETRY_MS}\n: stream of table {table}\n\n"


def message(event_id: int, payload: dict[str, Any]) -> str:
    data = json.dumps(payload, separators=(",", ":"))
    return f"id: {event_id}\nevent: change\ndata: {data}\n\n"


@dataclass(frozen=True)
class Batch:
    """The messages of the events after some id, oldest first: ``(event id, message)``."""

    messages: tuple[tuple[int, str], ...]


def read_batch(tables: Tables, table: str, after: int) -> Batch:
    """The messages of ``table``'s events after ``after``; the last carries the scoreboard.
    Raises ``UnknownTableError`` when the table is gone."""
    # The state first, then the events it covers: the scoreboard sent is never older than the
    # events sent with it.
    state = tables.state(table)
    batch = [e for e in tables.events(table, after) if e.id <= state.last_event]
    found = []
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
        found.append((event.id, message(event.id, payload)))
    return Batch(tuple(found))
