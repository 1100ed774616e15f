"""The server in front of the app (``web.server``), on a real loopback socket: a body over the
limit is refused before it is read and never spooled to disk, whether its length is declared or
it comes in chunks; an idle connection is closed, a live stream is not.

The spooling is watched where it happens: waitress's spooled bodies are unnamed temporary files,
seen only among the open descriptors of the process that serves, here the test's own.
"""

from __future__ import annotations

import json
import select
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli import ATELIER
from tests.web.fake_reader import FakeReader
from web import MAX_UPLOAD, create_app
from web.server import make_server

LIMIT_LINE = {"error": "body: a request body is at most 16,777,216 bytes"}
MB = 1024 * 1024
OWN_DESCRIPTORS = Path("/dev/fd")


class Serving:
    """``make_server`` on a free loopback port in this process, for an app with the default
    limits, closing connections idle for ``idle_s``; its live streams send a keep-alive every
    0.4 s and end after 3 s."""

    def __init__(self, folder: Path, idle_s: int = 30) -> None:
        config = {"DATA_DIR": folder, "SSE_KEEPALIVE": 0.4, "SSE_MAX_SECONDS": 3.0}
        self.app = create_app(config, FakeReader())
        self.server = make_server(self.app, "127.0.0.1", 0, threads=4, idle_timeout_s=idle_s)
        self.port = int(self.server.effective_port)  # type: ignore[union-attr]
        threading.Thread(target=self.server.run, daemon=True).start()
        self.before = self._temporary()

    @staticmethod
    def _temporary() -> dict[str, int]:
        """Each unnamed temporary file this process holds open, with its size."""
        found = {}
        for entry in OWN_DESCRIPTORS.iterdir():
            try:
                target = str(entry.readlink())
                if target.startswith(tempfile.gettempdir()) and target.endswith(" (deleted)"):
                    found[f"{entry.name} {target}"] = entry.stat().st_size
            except OSError:
                continue  # closed while listed
        return found

    def spooled(self) -> list[int]:
        """The size of each temporary file opened since the server started."""
        return [size for name, size in self._temporary().items() if name not in self.before]

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=10)

    def stop(self) -> None:
        self.server.close()
        self.app.extensions["atelier"].tables.close()


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[Serving]:
    running = Serving(tmp_path)
    yield running
    running.stop()


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Serving]:
    running = Serving(tmp_path, idle_s=1)
    yield running
    running.stop()


def post_head(path: str, *headers: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", *headers, "", ""]
    return "\r\n".join(lines).encode()


def answer_of(connection: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of the answer on ``connection`` (the server closes it)."""
    data = b""
    while True:
        try:
            more = connection.recv(65536)
        except ConnectionResetError:
            break  # the server closed with our unread body in its buffers: the answer is in
        if not more:
            break
        data += more
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


def answered(connection: socket.socket) -> bool:
    return bool(select.select([connection], [], [], 0)[0])


def test_a_declared_200_mb_body_is_refused_before_a_byte_of_it_is_sent(serving: Serving) -> None:
    with serving.connect() as connection:
        started = time.monotonic()
        connection.sendall(
            post_head(
                "/api/tables/0000000a/scans",
                "Content-Type: multipart/form-data; boundary=x",
                f"Content-Length: {200 * MB}",
            )
        )
        status, headers, body = answer_of(connection)
        took = time.monotonic() - started
    assert (status, json.loads(body)) == (413, LIMIT_LINE)
    assert headers["Content-Type"] == "application/json"
    assert took < 1.0
    assert serving.spooled() == []


def test_a_malformed_request_is_refused_by_the_server_in_one_line_of_json(
    serving: Serving,
) -> None:
    with serving.connect() as connection:
        connection.sendall(post_head("/api/tables", "Content-Length: 12 monkeys"))
        status, headers, body = answer_of(connection)
    assert (status, headers["Content-Type"]) == (400, "application/json")
    assert json.loads(body) == {"error": "Bad Request: Content-Length is invalid"}


def test_a_chunked_body_is_cut_off_at_the_limit_and_no_more_is_spooled(serving: Serving) -> None:
    block = b"x" * MB
    chunk = f"{len(block):x}\r\n".encode() + block + b"\r\n"
    largest, sent = 0, 0
    with serving.connect() as connection:
        connection.sendall(
            post_head(
                "/api/tables",
                "Content-Type: application/json",
                "Transfer-Encoding: chunked",
            )
        )
        while not answered(connection) and sent < 200:
            try:
                connection.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 1
            largest = max([largest, *serving.spooled()])
        status, _, body = answer_of(connection)
    assert (status, json.loads(body)) == (413, LIMIT_LINE)
    assert 16 <= sent < 200
    # The spool grew with the body up to the limit, never past it.
    assert 8 * MB < largest <= MAX_UPLOAD


def test_a_body_within_the_limit_is_spooled_and_reaches_the_app(serving: Serving) -> None:
    """The control: the watch sees a body being spooled, and the app answers it."""
    body = b"[" + b" " * (2 * MB) + b"]"
    with serving.connect() as connection:
        head = post_head(
            "/api/tables", "Content-Type: application/json", f"Content-Length: {len(body)}"
        )
        connection.sendall(head + body[: MB + 1])
        time.sleep(0.3)  # waitress has written what came past its 512 KB to a file
        assert [size for size in serving.spooled() if size > MB // 2]
        connection.sendall(body[MB + 1 :])
        status, _, answer = answer_of(connection)
    # The app read it: this body is over the 64 KB a JSON body may be.
    assert (status, json.loads(answer)) == (
        413,
        {"error": "body: a JSON body is at most 65,536 bytes"},
    )


def test_a_connection_that_stops_sending_is_closed(quick: Serving) -> None:
    with quick.connect() as connection:
        connection.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        started = time.monotonic()
        assert connection.recv(1) == b""  # closed by the server, with nothing sent
        closed_after = time.monotonic() - started
    assert 0.5 < closed_after < 5


def test_a_live_stream_outlives_the_idle_timeout(quick: Serving) -> None:
    setup = json.dumps({"game": "colorfield", "players": [{"name": "Ana"}, {"name": "Ben"}]})
    with quick.connect() as made:
        made.sendall(
            post_head(
                "/api/tables",
                "Content-Type: application/json",
                f"Content-Length: {len(setup)}",
            )
            + setup.encode()
        )
        status, _, body = answer_of(made)
    assert status == 201
    table = json.loads(body)["id"]
    with quick.connect() as connection:
        started = time.monotonic()
        connection.sendall(
            f"GET /api/tables/{table}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        )
        stream = b""
        while more := connection.recv(65536):
            stream += more
            if stream.endswith(b"0\r\n\r\n"):
                break  # the last chunk: the stream ended by itself
        lasted = time.monotonic() - started
    assert lasted > 2.5  # more than twice the idle timeout
    assert stream.count(b": keep-alive") >= 5


def test_atelier_serve_refuses_a_declared_200_mb_body_at_once(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    command = [str(ATELIER), "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--data", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        assert server.stdout is not None
        assert server.stdout.readline().decode() == f"http://127.0.0.1:{port}/\n"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            started = time.monotonic()
            connection.sendall(
                post_head(
                    "/api/tables", "Content-Type: application/json", f"Content-Length: {200 * MB}"
                )
            )
            status, _, body = answer_of(connection)
            took = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=60)
    assert (status, json.loads(body)) == (413, LIMIT_LINE)
    assert took < 1.0
