"""Who is watching which table: each live stream waits on its own queue, and a new event wakes
every stream of its table. Streams read the events themselves from the log, so a wake-up carries
nothing and any number of them coalesce into one."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from companion.table.events import Event


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[str, set[queue.Queue[None]]] = {}
        self._closing = threading.Event()

    @property
    def closing(self) -> bool:
        """Whether the server is stopping: every stream ends instead of waiting for more."""
        return self._closing.is_set()

    def close(self) -> None:
        """End every stream now, and any opened later: a stopping server need not wait for
        the threads that streams hold (minutes, for a scoreboard left open)."""
        self._closing.set()
        with self._lock:
            streams = [wake for table in self._streams.values() for wake in table]
        for wake in streams:
            with suppress(queue.Full):
                wake.put_nowait(None)

    @contextmanager
    def subscribe(self, table: str) -> Iterator[queue.Queue[None]]:
        """A queue that receives a wake-up after each new event of ``table``, while open."""
        wake: queue.Queue[None] = queue.Queue(maxsize=1)
        with self._lock:
            self._streams.setdefault(table, set()).add(wake)
        try:
            yield wake
        finally:
            with self._lock:
                streams = self._streams.get(table, set())
                streams.discard(wake)
                if not streams:
                    self._streams.pop(table, None)

    def publish(self, event: Event) -> None:
        self.wake(event.table)

    def wake(self, table: str) -> None:
        """Wake every stream of ``table`` to read its log (after a new event, or to find the
        table gone)."""
        with self._lock:
            streams = list(self._streams.get(table, ()))
        for wake in streams:
            # A wake-up already waiting covers this event too: the stream reads the log.
            with suppress(queue.Full):
                wake.put_nowait(None)

    def watchers(self, table: str) -> int:
        with self._lock:
            return len(self._streams.get(table, ()))
