"""The front server running on loopback for a test, and raw requests to it."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from web.front import FrontServer, Limits, create_server

HOST = "127.0.0.1"


@contextmanager
def serving(app: Any, limits: Limits | None = None, threads: int = 8) -> Iterator[FrontServer]:
    server = create_server(app, HOST, 0, threads, limits)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.close()
        thread.join(10)


def raw(server: FrontServer, data: bytes, timeout: float = 5.0) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it."""
    with socket.create_connection((HOST, server.effective_port), timeout=timeout) as connection:
        connection.sendall(data)
        return read_to_end(connection)


def read_to_end(connection: socket.socket) -> bytes:
    answer = b""
    while True:
        try:
            data = connection.recv(65536)
        except ConnectionResetError:
            return answer
        if not data:
            return answer
        answer += data


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def body_of(answer: bytes) -> bytes:
    return answer.split(b"\r\n\r\n", 1)[1]
