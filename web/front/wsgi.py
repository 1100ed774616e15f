"""Calling a WSGI app on a worker thread: its status, headers and first body chunks gathered in
one call, and the rest (a streamed response) pulled chunk by chunk by later calls."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
Headers = tuple[tuple[str, str], ...]


class AppError(Exception):
    """The app broke the WSGI contract (no status, or one that is not a status line)."""


@dataclass(frozen=True)
class Reply:
    status: int
    reason: str
    headers: Headers
    chunks: tuple[bytes, ...]  # the body gathered so far
    rest: Iterator[bytes] | None  # the body still to pull (None: ``chunks`` is all of it)
    close: Callable[[], None] | None  # the app's ``close``, due once ``rest`` is pulled


def call_app(app: WsgiApp, environ: dict[str, Any]) -> Reply:
    """``app``'s answer to ``environ``, on the calling (worker) thread. Most answers are one
    chunk: it and the end are gathered here so that they cost the worker pool one call."""
    started: list[tuple[str, list[tuple[str, str]]]] = []
    written: list[bytes] = []

    def start_response(
        status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], None]:
        # Nothing is sent before this call returns, so an error page may replace the headers.
        started[:] = [(status, headers)]
        return written.append

    result = app(environ, start_response)
    close = getattr(result, "close", None)
    body = iter(result)
    chunks = list(written)
    rest: Iterator[bytes] | None = body
    try:
        # The first chunk with bytes (the status is known by then), and one more pull to see
        # whether that was all.
        for _pull in range(2):
            chunk = next_chunk(body)
            if chunk is None:
                rest = None
                break
            chunks.append(chunk)
        status, headers = _status(started)
    except BaseException:
        if close is not None:
            close()
        raise
    if rest is None and close is not None:
        close()
        close = None
    return Reply(status[0], status[1], tuple(headers), tuple(chunks), rest, close)


def next_chunk(body: Iterator[bytes]) -> bytes | None:
    """The next chunk of a streamed body with bytes in it; None at its end (on a worker)."""
    chunk = _pull_chunk(body)
    while chunk == b"":
        chunk = _pull_chunk(body)
    return chunk


def _pull_chunk(body: Iterator[bytes]) -> bytes | None:
    try:
        return bytes(next(body))
    except StopIteration:
        return None


def _status(started: list[tuple[str, list[tuple[str, str]]]]) -> tuple[tuple[int, str], Headers]:
    if not started:
        raise AppError("the app answered without calling start_response")
    line, headers = started[0]
    code, _, reason = line.partition(" ")
    if not (code.isdigit() and len(code) == 3):
        raise AppError(f"the app's status {line[:40]!r} is not a status line")
    return (int(code), reason), tuple(headers)
