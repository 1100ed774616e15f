"""The front server over real sockets: requests answered through the Flask app (GET, POST, HEAD,
keep-alive), a correct WSGI environ, and every limit enforced before the work it guards."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import PLAYERS
from tests.web.fake_reader import FakeReader
from tests.web.front_server import HOST, body_of, raw, read_to_end, serving, status_of
from web import MAX_UPLOAD, create_app
from web.front import Limits


@pytest.fixture
def flask_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"DATA_DIR": tmp_path}, FakeReader())
    yield app
    app.extensions["atelier"].tables.close()


def test_pages_and_the_api_over_one_kept_alive_connection(flask_app: Flask) -> None:
    with serving(flask_app) as server:
        connection = http.client.HTTPConnection(HOST, server.effective_port, timeout=5)
        connection.request("GET", "/")
        page = connection.getresponse()
        assert page.status == 200 and b"<html" in page.read()
        assert page.getheader("Referrer-Policy") == "same-origin"
        first = connection.sock
        connection.request("HEAD", "/")
        head = connection.getresponse()
        assert head.status == 200 and head.read() == b""
        assert int(head.getheader("Content-Length") or 0) > 0
        body = json.dumps({"game": "pigments", "players": PLAYERS})
        connection.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
        made = connection.getresponse()
        assert made.status == 201
        table = json.loads(made.read())["id"]
        connection.request("GET", f"/api/tables/{table}")
        assert json.loads(connection.getresponse().read())["game"] == "pigments"
        connection.request("GET", "/api/tables/deadbeef")
        missing = connection.getresponse()
        assert missing.status == 404 and "error" in json.loads(missing.read())
        assert connection.sock is first  # every request on the same connection
        connection.close()


def echo(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
    """A WSGI app that answers what it was given, in three chunks."""
    body = environ["wsgi.input"].read()
    seen = {k: v for k, v in environ.items() if isinstance(v, str)}
    start_response("200 OK", [("Content-Type", "application/json")])
    yield b'{"environ": '
    yield json.dumps(seen).encode()
    yield b', "body": ' + json.dumps(body.decode()).encode() + b"}"


def test_the_wsgi_environ_and_a_streamed_answer() -> None:
    with serving(echo, Limits(max_body=1000)) as server:
        connection = http.client.HTTPConnection(HOST, server.effective_port, timeout=5)
        headers = {"Host": "example.test:8000", "X-Custom": "a", "X_Custom": "b"}
        connection.request("POST", "/a%20b/c?x=1&y=%20", b"hello", headers)
        answer = connection.getresponse()
        assert answer.getheader("Transfer-Encoding") == "chunked"
        seen = json.loads(answer.read())
    environ = seen["environ"]
    assert seen["body"] == "hello"
    assert environ["REQUEST_METHOD"] == "POST"
    assert environ["PATH_INFO"] == "/a b/c" and environ["QUERY_STRING"] == "x=1&y=%20"
    assert environ["REMOTE_ADDR"] == "127.0.0.1" and environ["REMOTE_PORT"].isdigit()
    assert environ["SERVER_PORT"] == str(server.effective_port)
    assert environ["HTTP_HOST"] == "example.test:8000" and environ["CONTENT_LENGTH"] == "5"
    assert environ["SERVER_PROTOCOL"] == "HTTP/1.1" and environ["wsgi.url_scheme"] == "http"
    # A header spelt with an underscore could pass for another: it is dropped.
    assert environ["HTTP_X_CUSTOM"] == "a"


def test_a_body_declared_too_large_is_refused_before_it_is_read(flask_app: Flask) -> None:
    with serving(flask_app) as server:
        start = time.perf_counter()
        answer = raw(
            server,
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {200 * 1024 * 1024}\r\n\r\n".encode()
            + b"{" * 1000,
        )
        assert time.perf_counter() - start < 1
        tables = flask_app.extensions["atelier"].tables.ids()
    assert status_of(answer) == 413
    refusal = {"error": "body: a request body is at most 16,777,216 bytes"}
    assert json.loads(body_of(answer)) == refusal
    assert body_of(answer).count(b"\n") == 1
    assert tables == []  # the app never saw it


def test_a_chunked_body_is_cut_at_the_limit() -> None:
    with serving(echo, Limits(max_body=1000)) as server:
        chunk = b"%x\r\n%s\r\n" % (600, b"x" * 600)
        answer = raw(
            server,
            b"POST /upload HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk * 2,
        )
    assert status_of(answer) == 413
    assert body_of(answer) == b"body: a request body is at most 1,000 bytes\n"


def test_malformed_and_oversized_requests_are_refused_in_one_line(flask_app: Flask) -> None:
    with serving(flask_app) as server:
        malformed = raw(server, b"NOT A REQUEST LINE AT ALL\r\n\r\n")
        assert status_of(malformed) == 400
        assert body_of(malformed).count(b"\n") == 1
        huge = b"GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * (20 * 1024) + b"\r\n\r\n"
        assert status_of(raw(server, huge)) == 431


def test_a_slow_head_is_cut_off_while_others_are_served(flask_app: Flask) -> None:
    with serving(flask_app, Limits(max_body=MAX_UPLOAD, head_seconds=0.5)) as server:
        slow = socket.create_connection((HOST, server.effective_port), timeout=5)
        start = time.monotonic()
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the end
        normal = http.client.HTTPConnection(HOST, server.effective_port, timeout=5)
        normal.request("GET", "/")
        assert normal.getresponse().status == 200
        answer = read_to_end(slow)
        elapsed = time.monotonic() - start
        slow.close()
    assert status_of(answer) == 408
    assert 0.4 < elapsed < 3


def test_an_idle_kept_alive_connection_is_closed(flask_app: Flask) -> None:
    with serving(flask_app, Limits(max_body=MAX_UPLOAD, idle_seconds=0.3)) as server:
        connection = socket.create_connection((HOST, server.effective_port), timeout=5)
        connection.sendall(b"GET /recipes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        start = time.monotonic()
        answer = read_to_end(connection)  # the answer, then the close
        connection.close()
    assert status_of(answer) == 200
    assert 0.2 < time.monotonic() - start < 3


def test_connections_beyond_the_cap_are_turned_away(flask_app: Flask) -> None:
    with serving(flask_app, Limits(max_body=MAX_UPLOAD, connections=2)) as server:
        held = [socket.create_connection((HOST, server.effective_port)) for _ in range(2)]
        time.sleep(0.2)
        answer = raw(server, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert status_of(answer) == 503
        for connection in held:
            connection.close()
        time.sleep(0.2)
        assert status_of(raw(server, b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")) == 200
