"""The clients of ``atelier bench web``, each cheap enough to open by the thousand: live viewers
read by one select loop in a process of their own (their reading must not compete with the
server's for one interpreter), connections that never finish their request, and an upload far
too large."""

from __future__ import annotations

import contextlib
import selectors
import socket
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

HOST = "127.0.0.1"  # loopback only: the benchmark never listens on the network
CONNECT_S = 120.0  # all viewers connected within this long, or the bench reports how many did


class _Viewer:
    """One live stream read by the child's select loop, noting when each event id arrives."""

    def __init__(self, port: int, table: str) -> None:
        self.socket = socket.create_connection((HOST, port))
        self.socket.sendall(
            f"GET /api/tables/{table}/events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
        )
        self.socket.setblocking(False)
        self.arrived: dict[int, float] = {}
        self.opened = False
        self.partial = b""

    def read(self) -> bool:
        """Take what came; False once the server has closed the stream."""
        try:
            data = self.socket.recv(65536)
        except BlockingIOError:
            return True
        except ConnectionError:
            return False
        if not data:
            return False
        now = time.time()
        *lines, self.partial = (self.partial + data).split(b"\n")
        for line in lines:
            if line.startswith(b"id: "):
                self.arrived[int(line[4:])] = now
            elif line.startswith(b"retry:"):
                self.opened = True
        return True


def run_viewers(port: int, table: str, count: int, pipe: Connection) -> None:
    """In a child process: ``count`` viewers of ``table``, read by one select loop (a coroutine
    or a thread each would cost more than the server's own work). Sends how many opened their
    stream; receives ``(last event id, seconds)``; sends each viewer's arrival time of each
    event id once all have the last one (or the seconds are up)."""
    from web.front.limits import raise_file_limit

    raise_file_limit()
    viewers = []
    with selectors.DefaultSelector() as selector:
        for _ in range(count):
            viewer = _Viewer(port, table)
            selector.register(viewer.socket, selectors.EVENT_READ, viewer)
            viewers.append(viewer)
        selector.register(pipe.fileno(), selectors.EVENT_READ, None)
        deadline = time.monotonic() + CONNECT_S
        reported = False
        waiting_for: int | None = None
        while True:
            for key, _ in selector.select(0.05):
                if key.data is not None:
                    if not key.data.read():
                        selector.unregister(key.fileobj)
                elif waiting_for is None:
                    waiting_for, seconds = pipe.recv()
                    deadline = time.monotonic() + seconds
            now = time.monotonic()
            if not reported and (all(v.opened for v in viewers) or now > deadline):
                pipe.send(sum(v.opened for v in viewers))
                reported = True
            if waiting_for is not None and (
                all(waiting_for in v.arrived for v in viewers) or now > deadline
            ):
                pipe.send([v.arrived for v in viewers])
                break
    for viewer in viewers:
        viewer.socket.close()


def half_open(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that send part of a request's head and nothing more."""
    held = []
    for _ in range(count):
        connection = socket.create_connection((HOST, port))
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        held.append(connection)
    return held


@dataclass(frozen=True)
class Refusal:
    status: int | None  # None: no answer within the time allowed
    seconds: float  # from the head sent to the answer (or to giving up)
    sent_mb: float  # how much of the body went out before the answer


def upload(port: int, path: str, headers: dict[str, str], size: int, timeout: float) -> Refusal:
    """Send a body of ``size`` bytes to ``path`` as fast as the server takes it, stopping at
    its answer."""
    head = f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: {size}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers.items()) + "\r\n"
    block = b"\0" * (1 << 20)
    sent = 0
    answer = b""
    with socket.create_connection((HOST, port)) as connection:
        connection.sendall(head.encode())
        start = time.perf_counter()
        connection.setblocking(False)
        with selectors.DefaultSelector() as selector:
            selector.register(connection, selectors.EVENT_READ | selectors.EVENT_WRITE)
            while time.perf_counter() - start < timeout and b"\r\n" not in answer:
                for _key, events in selector.select(0.1):
                    if events & selectors.EVENT_READ:
                        try:
                            data = connection.recv(4096)
                        except ConnectionError:
                            data = b""
                        if not data:
                            answer = answer or b"closed\r\n"
                        answer += data
                    if events & selectors.EVENT_WRITE and sent < size:
                        with contextlib.suppress(BlockingIOError, ConnectionError):
                            sent += connection.send(block[: size - sent])
                    if sent >= size:
                        selector.modify(connection, selectors.EVENT_READ)
        seconds = time.perf_counter() - start
    first = answer.split(b"\r\n", 1)[0].split()
    status = int(first[1]) if len(first) > 1 and first[1].isdigit() else None
    return Refusal(status, seconds, sent / 1e6)


def written_bytes() -> int:
    """Bytes this process has caused to be written to storage (Linux), -1 where unknown."""
    try:
        lines = Path("/proc/self/io").read_text().splitlines()
    except OSError:
        return -1
    found = [int(line.split()[1]) for line in lines if line.startswith("write_bytes:")]
    return found[0] if found else -1
