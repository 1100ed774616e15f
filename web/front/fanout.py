"""Live streams without a thread each: one coroutine per viewer, and one reading of the log per
table shared by all of its viewers.

A table's feed subscribes to the hub once. Woken, it reads the new events on a reader thread,
makes their messages once, and hands the same bytes to every viewer of the table. A viewer that
joins after some id first catches up from the log on its own (its replay), holding what the feed
hands it meanwhile, then takes the shared batches, skipping any event it was already sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass

from companion.table.session import Tables, UnknownTableError
from web.handoff import Handoff
from web.hub import Hub
from web.messages import KEEP_ALIVE, Batch, opening, read_batch

Send = Callable[[bytes], Awaitable[bool]]  # writes bytes to a viewer; False once it is dropped


@dataclass(frozen=True)
class Shared:
    """A batch as every viewer receives it, encoded once: ``(event id, bytes)``, and the
    whole."""

    messages: tuple[tuple[int, bytes], ...]
    whole: bytes

    @staticmethod
    def of(batch: Batch) -> Shared:
        messages = tuple((event_id, text.encode()) for event_id, text in batch.messages)
        return Shared(messages, b"".join(data for _, data in messages))


class _Viewer:
    """What a viewer has still to be sent, filled by its table's feed (on the loop's thread)."""

    def __init__(self, after: int) -> None:
        self.seen = after  # the newest event id queued for this viewer
        self.catching_up = True
        self.held: list[Shared] = []
        self.out: list[bytes] = []
        self.ended = False
        self.ready = asyncio.Event()

    def deliver(self, shared: Shared) -> None:
        if self.catching_up:
            self.held.append(shared)
        else:
            self._queue(shared)

    def caught_up(self, replay: Shared | None) -> None:
        for shared in [*([replay] if replay else []), *self.held]:
            self._queue(shared)
        self.held.clear()
        self.catching_up = False

    def end(self) -> None:
        self.ended = True
        self.ready.set()

    def _queue(self, shared: Shared) -> None:
        if not shared.messages or shared.messages[-1][0] <= self.seen:
            return
        if shared.messages[0][0] > self.seen:
            self.out.append(shared.whole)
        else:
            self.out.extend(data for event_id, data in shared.messages if event_id > self.seen)
        self.seen = shared.messages[-1][0]
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
                        for viewer in self.viewers:
                            viewer.deliver(shared)
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

    async def watch(self, handoff: Handoff, send: Send) -> None:
        """Stream ``handoff``'s table to one viewer through ``send`` until the stream's time is
        up, the viewer is dropped, the table is removed or the hub closes."""
        key = (id(handoff.hub), handoff.table)
        feed = self._feeds.get(key)
        if feed is None:
            feed = self._feeds[key] = _Feed(handoff, self.loop, self.reader, self._gone)
        viewer = _Viewer(handoff.after)
        feed.viewers.add(viewer)
        try:
            if not await send(opening(handoff.table).encode()):
                return
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
            viewer.caught_up(replay)
            await self._stream(viewer, handoff, send)
        finally:
            feed.viewers.discard(viewer)
            if not feed.viewers:
                feed.stop()

    async def _stream(self, viewer: _Viewer, handoff: Handoff, send: Send) -> None:
        deadline = self.loop.time() + handoff.seconds
        keep_alive = KEEP_ALIVE.encode()
        while True:
            if viewer.out:
                data = b"".join(viewer.out)
                viewer.out.clear()
                if not await send(data):
                    return
                continue
            left = deadline - self.loop.time()
            if viewer.ended or left <= 0:
                return
            viewer.ready.clear()
            try:
                async with asyncio.timeout(min(handoff.keepalive, left)):
                    await viewer.ready.wait()
            except TimeoutError:
                if deadline - self.loop.time() > 0 and not await send(keep_alive):
                    return

    def _gone(self, feed: _Feed) -> None:
        key = (id(feed.hub), feed.table)
        if self._feeds.get(key) is feed:
            del self._feeds[key]
