"""One client connection: HTTP/1.1 requests parsed by h11 within the limits, each answered by
the app on a worker thread, or, for a live stream the app handed over, by the fan-out.

Every limit is checked before the work it guards: a head that is too large or too slow is cut
off before it reaches the app, a declared body that is too large is refused before a byte of it
is read, and a client that stops reading its answer is dropped instead of holding a worker."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import Executor
from dataclasses import dataclass
from email.utils import formatdate
from http import HTTPStatus

import h11

from web import too_large
from web.front.environ import build_environ
from web.front.fanout import Fanout
from web.front.limits import Limits
from web.front.wsgi import AppError, Reply, WsgiApp, call_app, next_chunk
from web.handoff import Offer

READ_SIZE = 64 * 1024
LINGER_S = 2.0  # after a refusal, unread bytes are taken for this long so the answer arrives
# Framing is the server's to choose (h11 picks it from the body's length, or chunks it).
log = logging.getLogger(__name__)
HOP_BY_HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "upgrade"})


@dataclass(frozen=True)
class Context:
    """What every connection of a server shares."""

    app: WsgiApp
    workers: Executor
    fanout: Fanout
    limits: Limits


class _RefusedError(Exception):
    """A request answered with an error and the connection closed: ``status``, one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Connection:
    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, context: Context
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.context = context
        self.limits = context.limits
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=self.limits.max_head)
        self.loop = asyncio.get_running_loop()
        self.busy = False  # a request is being read or answered (a stopping server waits)
        self.last = False  # the server is stopping: close after the answer under way
        self.path = ""

    def abort(self) -> None:
        """Close the connection now; ``serve`` ends as the client having gone."""
        self.writer.transport.abort()

    async def serve(self) -> None:
        try:
            first = True
            while True:
                request = await self._head(first)
                first = False
                if request is None:
                    return
                self.path = request.target.decode("latin-1")
                self._check(request)
                self.busy = True
                if not await self._answer(request):
                    return
                self.busy = False
                if self.last:
                    return
                if self.h11.our_state is not h11.DONE or self.h11.their_state is not h11.DONE:
                    return
                self.h11.start_next_cycle()
        except _RefusedError as refused:
            await self._refuse(refused.status, refused.message)
        except (ConnectionError, h11.LocalProtocolError):
            pass  # the client went away, or the answer broke off: nothing more to say
        finally:
            # What is written still goes out, but a client that reads none of it is not waited
            # for longer than any other.
            self.writer.transport.close()
            self.loop.call_later(self.limits.drain_seconds, self.writer.transport.abort)

    async def _next_event(
        self, deadline: float, late: str, *, first_byte: bool = False
    ) -> h11.Event | type[h11.NEED_DATA] | type[h11.PAUSED]:
        """The next event of the request, reading until ``deadline`` (then a 408 saying
        ``late``); with ``first_byte``, NEED_DATA as soon as any byte has come."""
        while True:
            try:
                event = self.h11.next_event()
            except h11.RemoteProtocolError as error:
                if "too long" in str(error) or error.error_status_hint == 431:
                    raise _RefusedError(431, "the request's head is too large") from None
                raise _RefusedError(
                    error.error_status_hint, f"malformed request: {error}"
                ) from None
            if event is not h11.NEED_DATA:
                return event
            try:
                async with asyncio.timeout_at(deadline):
                    data = await self.reader.read(READ_SIZE)
            except TimeoutError:
                raise _RefusedError(408, late) from None
            self.h11.receive_data(data)
            if data and first_byte:
                return h11.NEED_DATA

    async def _head(self, first: bool) -> h11.Request | None:
        """The next request's head: on a new connection within ``head_seconds``; on a kept-alive
        one, a first byte within ``idle_seconds`` and the rest within ``head_seconds`` of it."""
        limits = self.limits
        late = "the request's head took too long"
        if not first and not self.h11.trailing_data[0]:
            try:
                event = await self._next_event(
                    self.loop.time() + limits.idle_seconds, late, first_byte=True
                )
            except _RefusedError as refused:
                if refused.status == 408:
                    return None  # idle: closed without a word, as keep-alive allows
                raise
            if isinstance(event, h11.ConnectionClosed):
                return None
            if isinstance(event, h11.Request):
                return event
        event = await self._next_event(self.loop.time() + limits.head_seconds, late)
        return event if isinstance(event, h11.Request) else None

    def _check(self, request: h11.Request) -> None:
        """Refuse a head over the limit (h11 checks only a head that came in more than one
        read)."""
        size = len(request.target) + sum(len(n) + len(v) + 4 for n, v in request.headers)
        if size > self.limits.max_head:
            raise _RefusedError(431, "the request's head is too large")

    async def _answer(self, request: h11.Request) -> bool:
        """Answer one request; False when the connection must close."""
        declared = _content_length(request)
        if declared is not None and declared > self.limits.max_body:
            raise _RefusedError(413, too_large(self.limits.max_body))
        if self.h11.they_are_waiting_for_100_continue:
            self._emit(h11.InformationalResponse(status_code=100, headers=[]))
        body = await self._body()
        offer = Offer()
        environ = build_environ(
            request,
            body,
            _address(self.writer, "peername"),
            _address(self.writer, "sockname"),
            offer,
        )
        try:
            reply = await self.loop.run_in_executor(
                self.context.workers, call_app, self.context.app, environ
            )
        except AppError as error:
            raise _RefusedError(500, str(error)) from None
        except Exception:
            # Flask answers its own errors: this is the app failing outside them.
            log.exception("the app failed on %s", self.path[:200])
            raise _RefusedError(500, "internal error") from None
        head = request.method == b"HEAD"
        if offer.taken is not None and reply.status == 200 and not head:
            # The fan-out frames its shared bytes itself: the chunks are chosen here.
            chunked = request.http_version == b"1.1"
            headers = _headers(reply, framed=False)
            if chunked:
                headers.append(("Transfer-Encoding", "chunked"))
            self._emit(h11.Response(status_code=200, headers=headers, reason=reply.reason))
            sink = _Sink(self.writer, self.limits.drain_seconds, chunked)
            await self.context.fanout.watch(offer.taken, sink)
            if self.writer.transport.is_closing():
                return False
        else:
            if not await self._reply(reply, head):
                return False
        self._emit(h11.EndOfMessage())
        return await self._drained()

    async def _body(self) -> bytes:
        """The request's body, counted as it comes (a chunked one is cut at the limit)."""
        chunks = []
        size = 0
        deadline = self.loop.time() + self.limits.body_seconds
        while True:
            event = await self._next_event(deadline, "the request's body took too long")
            if isinstance(event, h11.Data):
                size += len(event.data)
                if size > self.limits.max_body:
                    raise _RefusedError(413, too_large(self.limits.max_body))
                chunks.append(event.data)
            elif isinstance(event, h11.EndOfMessage):
                return b"".join(chunks)
            elif isinstance(event, h11.ConnectionClosed):
                raise ConnectionResetError("closed in the middle of a body")

    async def _reply(self, reply: Reply, head: bool) -> bool:
        headers = _headers(reply, framed=True)
        response = h11.Response(status_code=reply.status, headers=headers, reason=reply.reason)
        self._emit(response)
        try:
            if not head:
                for chunk in reply.chunks:
                    if not await self._send(chunk):
                        return False
            while reply.rest is not None:
                more = await self.loop.run_in_executor(self.context.workers, next_chunk, reply.rest)
                if more is None:
                    break
                if not head and not await self._send(more):
                    return False
        finally:
            if reply.close is not None:
                await self.loop.run_in_executor(self.context.workers, reply.close)
        return True

    def _emit(self, event: h11.Event) -> None:
        data = self.h11.send(event)
        if data:
            self.writer.write(data)

    async def _send(self, data: bytes) -> bool:
        """Write part of a body; False once the client is dropped for not reading it."""
        self.writer.writelines(self.h11.send_with_data_passthrough(h11.Data(data=data)) or ())
        return await self._drained()

    async def _drained(self) -> bool:
        transport = self.writer.transport
        if transport.is_closing():
            return False
        if transport.get_write_buffer_size() == 0:
            return True  # all sent already: no timer needed
        try:
            async with asyncio.timeout(self.limits.drain_seconds):
                await self.writer.drain()
        except (TimeoutError, ConnectionError):
            transport.abort()
            return False
        return True

    async def _refuse(self, status: int, message: str) -> None:
        """Answer ``status`` with one line and close, letting the client read it first."""
        if self.h11.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            return  # an answer was already under way: closing is all that is left
        if self.path.startswith("/api/"):
            kind, body = "application/json", json.dumps({"error": message}) + "\n"
        else:
            kind, body = "text/plain; charset=utf-8", message + "\n"
        data = body.encode()
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = ""
        self.writer.write(
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\nDate: {_date()}\r\n\r\n".encode()
            + data
        )
        try:
            await self._drained()
            if self.writer.can_write_eof():
                self.writer.write_eof()
            # Closing with unread bytes resets the connection, and the reset can destroy the
            # answer before the client reads it: take what it still sends, for a moment.
            async with asyncio.timeout(LINGER_S):
                while await self.reader.read(READ_SIZE):
                    pass
        except (TimeoutError, ConnectionError, OSError):
            pass


class _Sink:
    """A viewer's connection as the fan-out writes to it: straight to the socket, and a wait
    only for a client that lags."""

    def __init__(self, writer: asyncio.StreamWriter, drain_seconds: float, chunked: bool) -> None:
        self.writer = writer
        self.drain_seconds = drain_seconds
        self.chunked = chunked
        self.high = writer.transport.get_write_buffer_limits()[1]

    def write(self, data: bytes) -> bool:
        transport = self.writer.transport
        if transport.is_closing():
            return False
        transport.write(data)
        return transport.get_write_buffer_size() <= self.high

    async def drained(self) -> bool:
        transport = self.writer.transport
        try:
            async with asyncio.timeout(self.drain_seconds):
                await self.writer.drain()
        except (TimeoutError, ConnectionError):
            transport.abort()
            return False
        return not transport.is_closing()


def _content_length(request: h11.Request) -> int | None:
    for name, value in request.headers:
        if name == b"content-length":
            return int(value)  # h11 has checked that it is a number
    return None


def _address(writer: asyncio.StreamWriter, which: str) -> tuple[str, int]:
    found = writer.get_extra_info(which)
    if isinstance(found, tuple) and len(found) >= 2:
        return str(found[0]), int(found[1])
    return "", 0


def _headers(reply: Reply, *, framed: bool) -> list[tuple[str, str]]:
    """The app's headers as sent: hop-by-hop ones left to the server, and the length dropped
    from a stream the server takes over (its body is not the app's)."""
    kept = [
        (name, value)
        for name, value in reply.headers
        if name.lower() not in HOP_BY_HOP and (framed or name.lower() != "content-length")
    ]
    if not any(name.lower() == "date" for name, _ in kept):
        kept.append(("Date", _date()))
    return kept


def _date() -> str:
    return formatdate(usegmt=True)
