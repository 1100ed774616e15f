"""Live streams without a thread each: one coroutine per viewer, and one reading of the log per
table shared by all of its viewers.

A table's feed subscribes to the hub once. Woken, it reads the new events on a reader thread,
makes their messages once, and hands the same bytes to every viewer of the table. A viewer that
joins after some id first catches up from the log on its own (its replay), holding what the feed
hands it meanwhile, then takes the shared batches, skipping any event it was already sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import suppress
from dataclasses import dataclass
from typing import Protocol

from companion.table.session import Tables, UnknownTableError
from web.handoff import Handoff
from web.hub import Hub
from web.messages import KEEP_ALIVE, Batch, opening, read_batch


class Sink(Protocol):
    """A viewer's connection, as the fan-out writes to it."""

    chunked: bool  # the body goes in HTTP/1.1 chunks (else as it is, to the connection's end)

    def write(self, data: bytes) -> bool:
        """Write at once; False when the client has not taken enough of what it was sent (or
        is gone): wait for ``drained`` before writing more."""

    async def drained(self) -> bool:
        """Wait for the client to take what it was sent; False once it is dropped for not
        taking it (or gone)."""


def frame(data: bytes, chunked: bool) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data) if chunked else data


@dataclass(frozen=True)
class Shared:
    """A batch as every viewer receives it, encoded once: ``(event id, bytes)``, and the whole
    (as it is, and as one chunk)."""

    messages: tuple[tuple[int, bytes], ...]
    whole: bytes
    chunk: bytes

    @staticmethod
    def of(batch: Batch) -> Shared:
        messages = tuple((event_id, text.encode()) for event_id, text in batch.messages)
        whole = b"".join(data for _, data in messages)
        return Shared(messages, whole, frame(whole, chunked=True))


class _Viewer:
    """One viewer's place in its table's feed (on the loop's thread). The feed writes each
    batch straight to a viewer that keeps up; the viewer's own coroutine waits only for a
    client that lags, for keep-alives and for the end."""

    def __init__(self, after: int, sink: Sink, now: float) -> None:
        self.seen = after  # the newest event id written or queued for this viewer
        self.sink = sink
        self.catching_up = True
        self.held: list[Shared] = []
        self.out: list[bytes] = []  # waiting for a lagging client (``blocked``)
        self.blocked = False
        self.ended = False
        self.wrote = now  # when it was last written to (keep-alives fill the quiet)
        self.ready = asyncio.Event()

    def deliver(self, shared: Shared, now: float) -> None:
        if self.catching_up:
            self.held.append(shared)
        else:
            self._queue(shared, now)

    def caught_up(self, replay: Shared | None, now: float) -> None:
        for shared in [*([replay] if replay else []), *self.held]:
            self._queue(shared, now)
        self.held.clear()
        self.catching_up = False

    def end(self) -> None:
        self.ended = True
        self.ready.set()

    def _queue(self, shared: Shared, now: float) -> None:
        if not shared.messages or shared.messages[-1][0] <= self.seen:
            return
        chunked = self.sink.chunked
        if shared.messages[0][0] > self.seen:
            data = shared.chunk if chunked else shared.whole
        else:
            rest = b"".join(d for event_id, d in shared.messages if event_id > self.seen)
            data = frame(rest, chunked)
        self.seen = shared.messages[-1][0]
        self.send(data, now)

    def send(self, data: bytes, now: float) -> None:
        """Write ``data`` (framed) now, or after what waits for a lagging client."""
        if self.blocked:
            self.out.append(data)
            return
        self.wrote = now
        if not self.sink.write(data):
            self.blocked = True
            self.ready.set()


def _last_event(tables: Tables, table: str) -> int:
    return tables.state(table).last_event


class _Feed:
    """The viewers of one table and the one reading of its log they share."""

    def __init__(
        self,
        handoff: Handoff,
        loop: asyncio.AbstractEventLoop,
        reader: Executor,
        gone: Callable[[_Feed], None],
    ) -> None:
        self.tables: Tables = handoff.tables
        self.hub: Hub = handoff.hub
        self.table = handoff.table
        self.loop = loop
        self.reader = reader
        self.gone = gone
        self.viewers: set[_Viewer] = set()
        self.sent = 0  # the newest event id handed to the viewers (known once ``ready``)
        self.ready = asyncio.Event()
        self.ended = False
        self.task = loop.create_task(self._run())

    async def _run(self) -> None:
        try:
            with self.hub.subscribe_async(self.table, self.loop) as woken:
                # Subscribed first, then read: no event falls between the two.
                self.sent = await self.loop.run_in_executor(
                    self.reader, _last_event, self.tables, self.table
                )
                self.ready.set()
                while not self.hub.closing:
                    await woken.wait()
                    woken.clear()
                    if self.hub.closing:
                        break
                    batch = await self.loop.run_in_executor(
                        self.reader, read_batch, self.tables, self.table, self.sent
                    )
                    if batch.messages:
                        shared = Shared.of(batch)
                        now = self.loop.time()
                        for viewer in list(self.viewers):
                            viewer.deliver(shared, now)
                        self.sent = batch.messages[-1][0]
        except UnknownTableError:
            pass  # the table was removed: its streams end
        finally:
            self.stop()

    def stop(self) -> None:
        """End every viewer's stream and forget the table (at once: a viewer arriving next
        starts a feed of its own)."""
        if self.ended:
            return
        self.ended = True
        self.ready.set()
        for viewer in self.viewers:
            viewer.end()
        self.gone(self)
        if self.task is not asyncio.current_task():
            self.task.cancel()


class Fanout:
    """Every live stream a server holds, grouped by table (all on the loop's thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, reader: Executor) -> None:
        self.loop = loop
        self.reader = reader  # reads the log: never the loop, never behind the app's requests
        self._feeds: dict[tuple[int, str], _Feed] = {}

    def viewers(self) -> int:
        return sum(len(feed.viewers) for feed in self._feeds.values())

    def close(self) -> None:
        """End every stream now (the server is stopping)."""
        for feed in list(self._feeds.values()):
            feed.stop()

    async def watch(self, handoff: Handoff, sink: Sink) -> None:
        """Stream ``handoff``'s table to one viewer through ``sink`` until the stream's time is
        up, the viewer is dropped, the table is removed or the hub closes."""
        key = (id(handoff.hub), handoff.table)
        feed = self._feeds.get(key)
        if feed is None:
            feed = self._feeds[key] = _Feed(handoff, self.loop, self.reader, self._gone)
        viewer = _Viewer(handoff.after, sink, self.loop.time())
        feed.viewers.add(viewer)
        try:
            viewer.send(frame(opening(handoff.table).encode(), sink.chunked), self.loop.time())
            await feed.ready.wait()
            if feed.ended:
                return
            replay = None
            if handoff.after < feed.sent:
                try:
                    batch = await self.loop.run_in_executor(
                        self.reader, read_batch, handoff.tables, handoff.table, handoff.after
                    )
                except UnknownTableError:
                    return
                replay = Shared.of(batch)
            viewer.caught_up(replay, self.loop.time())
            await self._stream(viewer, handoff)
        finally:
            feed.viewers.discard(viewer)
            if not feed.viewers:
                feed.stop()

    async def _stream(self, viewer: _Viewer, handoff: Handoff) -> None:
        deadline = self.loop.time() + handoff.seconds
        keep_alive = frame(KEEP_ALIVE.encode(), viewer.sink.chunked)
        while True:
            if viewer.blocked:
                if not await viewer.sink.drained():
                    return  # dropped: it took nothing for seconds
                viewer.blocked = False
                waiting, viewer.out = viewer.out, []
                for data in waiting:
                    viewer.send(data, self.loop.time())
                continue
            now = self.loop.time()
            if viewer.ended or now >= deadline:
                return
            quiet_until = viewer.wrote + handoff.keepalive
            if now >= quiet_until:
                viewer.send(keep_alive, now)
                continue
            viewer.ready.clear()
            with suppress(TimeoutError):
                async with asyncio.timeout_at(min(quiet_until, deadline)):
                    await viewer.ready.wait()

    def _gone(self, feed: _Feed) -> None:
        key = (id(feed.hub), feed.table)
        if self._feeds.get(key) is feed:
            del self._feeds[key]
