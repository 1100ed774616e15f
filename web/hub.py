"""Who is watching which table: each live stream is woken after every new event of its table.
Streams read the events themselves from the log, so a wake-up carries nothing and any number of
them coalesce into one. A stream run by a thread waits on a queue; one run by an event loop
(the front server's fan-out of a table) waits on an ``asyncio.Event`` set from the loop."""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from companion.table.events import Event

Wake = Callable[[], None]  # called from any thread; never blocks


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[str, set[Wake]] = {}
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
            wake()

    @contextmanager
    def _subscribed(self, table: str, wake: Wake) -> Iterator[None]:
        with self._lock:
            self._streams.setdefault(table, set()).add(wake)
        try:
            yield
        finally:
            with self._lock:
                streams = self._streams.get(table, set())
                streams.discard(wake)
                if not streams:
                    self._streams.pop(table, None)

    @contextmanager
    def subscribe(self, table: str) -> Iterator[queue.Queue[None]]:
        """A queue that receives a wake-up after each new event of ``table``, while open."""
        waiting: queue.Queue[None] = queue.Queue(maxsize=1)

        def wake() -> None:
            # A wake-up already waiting covers this event too: the stream reads the log.
            with suppress(queue.Full):
                waiting.put_nowait(None)

        with self._subscribed(table, wake):
            yield waiting

    @contextmanager
    def subscribe_async(
        self, table: str, loop: asyncio.AbstractEventLoop
    ) -> Iterator[asyncio.Event]:
        """An event of ``loop``, set after each new event of ``table`` (and when the hub
        closes), while open. Enter and leave it on the loop's own thread."""
        woken = asyncio.Event()

        def wake() -> None:
            # The publisher is a request's thread: only the loop may touch its own objects.
            with suppress(RuntimeError):  # the loop has already closed
                loop.call_soon_threadsafe(woken.set)

        with self._subscribed(table, wake):
            yield woken

    def publish(self, event: Event) -> None:
        self.wake(event.table)

    def wake(self, table: str) -> None:
        """Wake every stream of ``table`` to read its log (after a new event, or to find the
        table gone)."""
        with self._lock:
            streams = list(self._streams.get(table, ()))
        for wake in streams:
            wake()

    def watchers(self, table: str) -> int:
        """How many streams of ``table`` are subscribed (the front server's fan-out of a table
        is one, however many viewers it serves)."""
        with self._lock:
            return len(self._streams.get(table, ()))
