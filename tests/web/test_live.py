"""The live stream (ids, keep-alives, replay from Last-Event-ID) and a server killed mid-game."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import PLAYERS, Client, new_table


def messages(text: str) -> list[dict[str, Any]]:
    """The stream's messages: ``{"id", "data"}`` for events, ``{"comment"}`` for comments."""
    found: list[dict[str, Any]] = []
    for block in text.strip().split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                found.append({"comment": line[1:].strip()})
            elif line.startswith("id: "):
                fields["id"] = int(line[4:])
            elif line.startswith("data: "):
                fields["data"] = json.loads(line[6:])
        if "id" in fields:
            found.append(fields)
    return found


def change_table(client: Client, table: str, token: str, times: int) -> None:
    for _ in range(times):
        assert (
            client.post(f"/api/tables/{table}/rounds", headers={"X-Table-Token": token}).status_code
            == 201
        )


def test_the_stream_replays_after_last_event_id(client: Client) -> None:
    table, token = new_table(client, "pigments")
    change_table(client, table, token, 3)
    everything = [m for m in messages(client.get(f"/api/tables/{table}/events").text) if "id" in m]
    ids = [m["id"] for m in everything]
    assert ids == [1, 2, 3]
    assert [m["data"]["event"]["summary"] for m in everything] == [
        f"Round {n} ended: Ana 0, Ben 0, Cy 0, Dee 0" for n in (1, 2, 3)
    ]
    # Only the newest message of a batch carries the scoreboard, as it stands.
    assert ["scores" in m["data"] for m in everything] == [False, False, True]
    assert everything[-1]["data"]["scores"]["round"] == 4
    resumed = client.get(f"/api/tables/{table}/events", headers={"Last-Event-ID": "1"})
    assert [m["id"] for m in messages(resumed.text) if "id" in m] == [2, 3]
    # The header wins over ?after= (the browser sends it when it reconnects by itself).
    both = client.get(f"/api/tables/{table}/events?after=3", headers={"Last-Event-ID": "2"})
    assert [m["id"] for m in messages(both.text) if "id" in m] == [3]
    caught_up = client.get(f"/api/tables/{table}/events?after=3")
    assert [m for m in messages(caught_up.text) if "id" in m] == []


def test_a_quiet_stream_sends_keep_alives_and_asks_for_quick_retries(client: Client) -> None:
    table, _ = new_table(client)
    answer = client.get(f"/api/tables/{table}/events")
    assert answer.mimetype == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.text.startswith("retry: 2000\n")
    assert {"comment": "keep-alive"} in messages(answer.text)
    assert client.get("/api/tables/deadbeef/events").status_code == 404


def test_a_live_viewer_receives_each_new_event(client: Client, app: Any) -> None:
    table, token = new_table(client, "pigments")
    hub = app.extensions["atelier"].hub
    answer = client.get(f"/api/tables/{table}/events", buffered=False)
    chunks: Any = iter(answer.response)
    assert next(chunks).startswith(b"retry:")  # subscribed from here on
    assert hub.watchers(table) == 1
    change_table(client, table, token, 1)
    text = b"".join(chunks).decode()
    (event,) = [m for m in messages(text) if "id" in m]
    assert event["id"] == 1 and event["data"]["scores"]["round"] == 2
    answer.close()
    assert hub.watchers(table) == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _call(url: str, method: str = "GET", body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Table-Token"] = token
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _serve(data: Path, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data",
            str(data),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdout is not None
    assert server.stdout.readline().decode().strip() == f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the server did not start")


@pytest.mark.slow
def test_a_killed_server_restarts_with_every_table_as_it_was(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}/api/tables"
    server = _serve(tmp_path, port)
    try:
        made = _call(base, "POST", {"game": "colorfield", "players": PLAYERS})
        for path in ("rounds", "rounds", "undo"):
            _call(f"{base}/{made['id']}/{path}", "POST", token=made["token"])
        before = _call(f"{base}/{made['id']}")
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
    server = _serve(tmp_path, port)
    try:
        assert _call(f"{base}/{made['id']}") == before
        assert before["round"] == 2 and before["last_event"] == 3
    finally:
        server.terminate()
        server.wait()
