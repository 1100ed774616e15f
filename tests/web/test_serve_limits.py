"""``atelier serve`` itself, as a user starts it: a declared 200 MB body is refused at once, in
one line of JSON, before a byte of it is sent."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path

from tests.cli import ATELIER

LIMIT_LINE = {"error": "body: a request body is at most 16,777,216 bytes"}
MB = 1024 * 1024


def answer_of(connection: socket.socket) -> tuple[int, bytes]:
    """The status and body of the answer on ``connection`` (the server closes it)."""
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
    return int(head.split(b"\r\n")[0].split()[1]), body


def test_atelier_serve_refuses_a_declared_200_mb_body_at_once(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    command = [str(ATELIER), "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--data", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    head = "\r\n".join(
        [
            "POST /api/tables HTTP/1.1",
            "Host: 127.0.0.1",
            "Connection: close",
            "Content-Type: application/json",
            f"Content-Length: {200 * MB}",
            "",
            "",
        ]
    )
    try:
        assert server.stdout is not None
        assert server.stdout.readline().decode() == f"http://127.0.0.1:{port}/\n"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            started = time.monotonic()
            connection.sendall(head.encode())
            status, body = answer_of(connection)
            took = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=60)
    # Chunked, as the front server frames an answer whose length it does not give: one line.
    text = body.decode()
    assert status == 413
    assert json.loads(text[text.index("{") : text.rindex("}") + 1]) == LIMIT_LINE
    assert took < 1.0
