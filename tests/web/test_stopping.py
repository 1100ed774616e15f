"""A table removed while watched, and ``atelier serve`` stopped by SIGINT or SIGTERM: its live
streams end at once, the database is closed, the exit status says how it stopped."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.cli import ATELIER
from tests.web.conftest import Client, new_table
from tests.web.fake_reader import FakeReader
from tests.web.test_live import messages
from web import create_app

STOP_S = 60.0  # a guard against a hang, not a speed claim


def test_the_stream_of_a_removed_table_ends_and_the_table_is_gone(client: Client, app: Any) -> None:
    table, _ = new_table(client)
    answer = client.get(f"/api/tables/{table}/events", buffered=False)
    chunks: Any = iter(answer.response)
    assert next(chunks).startswith(b"retry:")
    app.extensions["atelier"].tables.remove(table)
    rest = b"".join(chunks).decode()  # ends at the next wake-up, without an error
    assert [m for m in messages(rest) if "id" in m] == []
    answer.close()
    assert client.get(f"/api/tables/{table}").status_code == 404
    assert client.get(f"/api/tables/{table}/events").status_code == 404


def test_closing_the_hub_ends_every_stream_at_once(tmp_path: Path) -> None:
    # Keep-alives every 30 s, streams of a minute: a stream still open would send one.
    config = {"DATA_DIR": tmp_path, "SSE_KEEPALIVE": 30.0, "SSE_MAX_SECONDS": 60.0}
    app: Flask = create_app(config, FakeReader())
    client = app.test_client()
    table, _ = new_table(client)
    answer = client.get(f"/api/tables/{table}/events", buffered=False)
    chunks: Any = iter(answer.response)
    assert next(chunks).startswith(b"retry:")
    hub = app.extensions["atelier"].hub
    hub.close()
    assert messages(b"".join(chunks).decode()) == []
    answer.close()
    assert hub.watchers(table) == 0
    later = client.get(f"/api/tables/{table}/events").text
    assert messages(later) == [{"comment": f"stream of table {table}"}]
    app.extensions["atelier"].tables.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _started(data: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """``atelier serve`` on a free loopback port, once it listens; and its address."""
    port = _free_port()
    command = [str(ATELIER), "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--data", str(data), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert server.stdout is not None
    # The address is printed once the server's socket listens.
    url = server.stdout.readline().decode().strip()
    assert url == f"http://127.0.0.1:{port}/"
    return server, url


def _stopped(server: subprocess.Popen[bytes], sent: signal.Signals) -> tuple[int, str]:
    server.send_signal(sent)
    _, stderr = server.communicate(timeout=STOP_S)
    return server.returncode, stderr.decode()


@pytest.mark.slow
def test_ctrl_c_stops_the_live_demo_cleanly_with_status_130(tmp_path: Path) -> None:
    server, url = _started(tmp_path, "--demo", "--led", "emulator")
    try:
        assert server.stdout is not None
        assert server.stdout.readline().decode().startswith(f"{url}live?token=")
        with urllib.request.urlopen(f"{url}api/live", timeout=10) as answer:
            table = json.loads(answer.read())["table"]
        # A scoreboard watching: its stream must not hold the server up.
        watching = urllib.request.urlopen(f"{url}api/tables/{table}/events", timeout=10)
        assert watching.readline().startswith(b"retry:")
        status, stderr = _stopped(server, signal.SIGINT)
        watching.close()
    finally:
        server.kill()
    assert status == 130
    assert "Traceback" not in stderr
    assert "still running" not in stderr
    assert stderr.splitlines()[-1] == "atelier: interrupted"
    # The database was closed: its write-ahead log is folded back in.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret.key", "tables.sqlite3"]


def test_sigterm_stops_the_server_cleanly_with_status_0(tmp_path: Path) -> None:
    server, _ = _started(tmp_path)
    try:
        status, stderr = _stopped(server, signal.SIGTERM)
    finally:
        server.kill()
    assert status == 0
    assert "Traceback" not in stderr
    assert stderr.splitlines()[-1] == "atelier: stopped"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret.key", "tables.sqlite3"]
