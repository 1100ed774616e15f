"""Live streams through the front server: handed over by the view, fanned out without a thread
each, in the same bytes as the view's own stream."""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import PLAYERS
from tests.web.fake_reader import FakeReader
from tests.web.front_server import HOST, serving
from tests.web.test_live import messages
from web import create_app
from web.front import FrontServer

WAIT_S = 10.0


@pytest.fixture
def live_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {"DATA_DIR": tmp_path, "SSE_KEEPALIVE": 30.0, "SSE_MAX_SECONDS": 60.0}, FakeReader()
    )
    yield app
    app.extensions["atelier"].tables.close()


class Stream:
    """One viewer: a live stream read line by line."""

    def __init__(self, server: FrontServer, table: str, **headers: str) -> None:
        self.connection = http.client.HTTPConnection(HOST, server.effective_port, timeout=WAIT_S)
        self.connection.request("GET", f"/api/tables/{table}/events", headers=headers)
        self.response = self.connection.getresponse()
        self.text = ""

    def until(self, wanted: str) -> str:
        """Read until ``wanted`` has come, to the end of its message; everything read so far."""
        while wanted not in self.text or not self.text.endswith("\n\n"):
            line = self.response.readline()
            assert line, f"the stream ended before {wanted!r}: {self.text!r}"
            self.text += line.decode()
        return self.text

    def rest(self) -> str:
        """Read to the stream's end (the server ended it)."""
        self.text += self.response.read().decode()
        return self.text

    def close(self) -> None:
        self.connection.close()


def call(server: FrontServer, method: str, path: str, token: str = "", body: Any = None) -> Any:
    connection = http.client.HTTPConnection(HOST, server.effective_port, timeout=WAIT_S)
    headers = {"Content-Type": "application/json", **({"X-Table-Token": token} if token else {})}
    connection.request(method, path, None if body is None else json.dumps(body), headers)
    answer = connection.getresponse()
    data = json.loads(answer.read())
    connection.close()
    assert answer.status < 300, data
    return data


def new_table(server: FrontServer) -> tuple[str, str]:
    made = call(server, "POST", "/api/tables", body={"game": "pigments", "players": PLAYERS})
    return made["id"], made["token"]


def end_round(server: FrontServer, table: str, token: str) -> None:
    call(server, "POST", f"/api/tables/{table}/rounds", token)


def test_events_reach_every_viewer_live_from_one_subscription(live_app: Flask) -> None:
    hub = live_app.extensions["atelier"].hub
    with serving(live_app, threads=4) as server:
        table, token = new_table(server)
        viewers = [Stream(server, table) for _ in range(6)]  # more viewers than threads
        for viewer in viewers:
            assert viewer.response.getheader("Content-Type") == "text/event-stream; charset=utf-8"
            assert viewer.response.getheader("Cache-Control") == "no-cache"
            assert viewer.until(f": stream of table {table}\n\n").startswith("retry: 2000\n")
        assert hub.watchers(table) == 1  # the table's feed, whatever the number of viewers
        end_round(server, table, token)
        end_round(server, table, token)
        for viewer in viewers:
            found = [m for m in messages(viewer.until("id: 2\n")) if "id" in m]
            assert [m["id"] for m in found] == [1, 2]
            assert found[-1]["data"]["scores"]["round"] == 3
            viewer.close()


def test_the_same_bytes_as_the_views_own_stream(live_app: Flask) -> None:
    with serving(live_app) as server:
        table, token = new_table(server)
        for _ in range(3):
            end_round(server, table, token)
        viewer = Stream(server, table)
        served = viewer.until("id: 3\n")
        viewer.close()
    # The view's own stream, as any other WSGI server sends it.
    answer = live_app.test_client().get(f"/api/tables/{table}/events", buffered=False)
    own = b""
    for chunk in answer.response:
        own += chunk if isinstance(chunk, bytes) else chunk.encode()
        if b"id: 3\n" in own and own.endswith(b"\n\n"):
            break
    answer.close()
    assert served == own.decode()
    assert served.count("\n\n") == 4  # the opening and three events


def test_a_viewer_that_comes_back_gets_exactly_what_it_missed(live_app: Flask) -> None:
    with serving(live_app) as server:
        table, token = new_table(server)
        for _ in range(4):
            end_round(server, table, token)
        viewer = Stream(server, table, **{"Last-Event-ID": "2"})
        later = Stream(server, table, **{"Last-Event-ID": "4"})
        replayed = [m["id"] for m in messages(viewer.until("id: 4\n")) if "id" in m]
        later.until(": stream of table")
        end_round(server, table, token)
        assert [m["id"] for m in messages(later.until("id: 5\n")) if "id" in m] == [5]
        assert [m["id"] for m in messages(viewer.until("id: 5\n")) if "id" in m] == [3, 4, 5]
        viewer.close()
        later.close()
    assert replayed == [3, 4]


def test_a_quiet_stream_sends_keep_alives_and_ends_after_its_time(tmp_path: Path) -> None:
    config = {"DATA_DIR": tmp_path, "SSE_KEEPALIVE": 0.1, "SSE_MAX_SECONDS": 0.5}
    app = create_app(config, FakeReader())
    with serving(app) as server:
        table, _ = new_table(server)
        viewer = Stream(server, table)
        start = time.monotonic()
        text = viewer.rest()
        elapsed = time.monotonic() - start
        viewer.close()
    app.extensions["atelier"].tables.close()
    assert text.count(": keep-alive\n\n") >= 3
    assert 0.4 < elapsed < 3


def test_the_stream_ends_when_the_table_is_deleted(live_app: Flask) -> None:
    with serving(live_app) as server:
        table, token = new_table(server)
        viewer = Stream(server, table)
        viewer.until(": stream of table")
        assert call(server, "DELETE", f"/api/tables/{table}", token) == {"deleted": table}
        start = time.monotonic()
        assert [m for m in messages(viewer.rest()) if "id" in m] == []
        assert time.monotonic() - start < 2
        viewer.close()


def test_the_streams_end_at_once_when_the_server_closes(live_app: Flask) -> None:
    with serving(live_app) as server:
        table, _ = new_table(server)
        viewer = Stream(server, table)
        viewer.until(": stream of table")
        start = time.monotonic()
        live_app.extensions["atelier"].hub.close()
        server.close()
        viewer.rest()
        assert time.monotonic() - start < 2
        viewer.close()


def test_hundreds_of_viewers_all_receive_an_event(live_app: Flask) -> None:
    count = 320
    with serving(live_app, threads=4) as server:
        table, token = new_table(server)
        request = f"GET /api/tables/{table}/events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
        received: dict[socket.socket, bytes] = {}
        by_number: dict[int, socket.socket] = {}
        with selectors.DefaultSelector() as selector:
            for _ in range(count):
                viewer = socket.create_connection((HOST, server.effective_port))
                viewer.sendall(request)
                viewer.setblocking(False)
                selector.register(viewer, selectors.EVENT_READ)
                received[viewer] = b""
                by_number[viewer.fileno()] = viewer

            def read_until(wanted: bytes) -> None:
                deadline = time.monotonic() + WAIT_S
                while time.monotonic() < deadline:
                    if all(wanted in data for data in received.values()):
                        return
                    for key, _ in selector.select(0.1):
                        viewer = by_number[key.fd]
                        received[viewer] += viewer.recv(65536)

            read_until(b": stream of table")
            end_round(server, table, token)
            read_until(b"id: 1\n")
            got = sum(b"id: 1\n" in data for data in received.values())
            for viewer in received:
                viewer.close()
    assert got == count
