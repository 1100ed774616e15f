"""The front server: an asyncio HTTP/1.1 server that runs a WSGI app on a bounded pool of
worker threads and streams the live updates the app hands over without a thread each.

Shaped like waitress's server: ``create_server(app, host, port, threads)`` listens at once
(``effective_port`` is the port it got), ``run()`` serves until ``close()`` is called from
another thread, or until an interrupt: the process's own SIGINT and SIGTERM handlers run between
two steps of the loop, and the KeyboardInterrupt they raise leaves ``run()``; ``close()`` then
finishes the requests under way."""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any

from web.front.connection import Connection, Context
from web.front.fanout import Fanout
from web.front.limits import Limits, connection_cap
from web.front.wsgi import WsgiApp

BACKLOG = 2048  # connections the kernel queues before they are accepted (a room reconnecting)
READERS = 2  # threads that read the log for live streams, apart from the app's workers
GRACE_S = 30.0  # a stopping server waits this long for the requests under way
_FULL = b"the server has as many connections as it can\n"
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(_FULL), _FULL)
)


class FrontServer:
    def __init__(self, app: WsgiApp, host: str, port: int, threads: int, limits: Limits) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.create_server((host, port), family=family, backlog=BACKLOG)
        self._socket.setblocking(False)
        self.effective_port: int = self._socket.getsockname()[1]
        self.cap = limits.connections or connection_cap(threads)
        self._loop = asyncio.new_event_loop()
        self._workers = ThreadPoolExecutor(threads, thread_name_prefix="atelier-app")
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="atelier-stream")
        self._fanout = Fanout(self._loop, self._readers)
        self._context = Context(app, self._workers, self._fanout, limits)
        self._connections: dict[asyncio.Task[Any], Connection] = {}
        self._lock = threading.Lock()
        self._runner: int | None = None  # the thread running ``run()``
        self._closed = False
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._listener: asyncio.Server | None = None
        self._finished = threading.Event()

    def run(self) -> None:
        """Serve until ``close()``; an interrupt leaves the rest to ``close()``."""
        with self._lock:
            if self._closed:
                return
            self._runner = threading.get_ident()
        self._task = self._loop.create_task(self._serve())
        with _signals_between_steps(self._loop):
            self._loop.run_until_complete(self._task)
        self._end()

    def close(self) -> None:
        """Stop accepting, end every live stream, let the requests under way finish (up to
        GRACE_S), close every connection and the worker threads. Safe from any thread, and
        more than once."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            runner = self._runner
        if runner is not None and runner != threading.get_ident():
            with suppress(RuntimeError):  # ``run()`` has already ended
                self._loop.call_soon_threadsafe(self._request_stop)
            self._finished.wait(GRACE_S + 5)
            return
        # ``run()`` never ran, or this is its thread after an interrupt: finish here.
        if self._task is not None and not self._task.done():
            self._request_stop()
            self._loop.run_until_complete(self._task)
        else:
            self._loop.run_until_complete(self._shutdown())
        self._end()

    def _request_stop(self) -> None:
        if self._stop is not None:
            self._stop.set()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        if self._closed:
            return
        self._listener = await asyncio.start_server(self._accepted, sock=self._socket)
        await self._stop.wait()
        await self._shutdown()

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self._connections) >= self.cap or self._closed:
            writer.write(BUSY)
            writer.close()
            return
        task = asyncio.current_task()
        assert task is not None
        connection = Connection(reader, writer, self._context)
        self._connections[task] = connection
        try:
            await connection.serve()
        finally:
            del self._connections[task]

    async def _shutdown(self) -> None:
        if self._listener is not None:
            self._listener.close()
        self._fanout.close()
        # Idle connections go now; those answering a request get a grace to finish it.
        for connection in list(self._connections.values()):
            connection.last = True
            if not connection.busy:
                connection.abort()
        if self._connections:
            await asyncio.wait(list(self._connections), timeout=GRACE_S)
        for connection in list(self._connections.values()):
            connection.abort()
        if self._connections:
            await asyncio.wait(list(self._connections), timeout=1.0)

    def _end(self) -> None:
        self._workers.shutdown(wait=True, cancel_futures=True)
        self._readers.shutdown(wait=True, cancel_futures=True)
        self._socket.close()
        self._loop.close()
        self._finished.set()


@contextmanager
def _signals_between_steps(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """While the loop runs on the main thread, the process's own handlers of SIGINT and SIGTERM
    run as callbacks of the loop: an exception they raise (KeyboardInterrupt, to stop) then
    leaves the loop between two steps, never from inside a connection's coroutine."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}
    relayed = {n: handler for n, handler in previous.items() if callable(handler)}
    for number, handler in relayed.items():
        loop.add_signal_handler(number, handler, number, None)
    try:
        yield
    finally:
        for number in relayed:
            loop.remove_signal_handler(number)
            signal.signal(number, previous[number])


def create_server(
    app: WsgiApp, host: str, port: int, threads: int, limits: Limits | None = None
) -> FrontServer:
    """A server for ``app`` listening on ``host:port`` (0: any free port), answering with
    ``threads`` worker threads; ``limits`` default to the app's own body limit
    (``MAX_CONTENT_LENGTH``)."""
    if limits is None:
        config = getattr(app, "config", {})
        limits = Limits(max_body=int(config.get("MAX_CONTENT_LENGTH") or _default_body()))
    return FrontServer(app, host, port, threads, limits)


def _default_body() -> int:
    from web import MAX_UPLOAD

    return MAX_UPLOAD
