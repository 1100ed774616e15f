"""``atelier serve --broker`` as a process: killed with -9 and started again it publishes what
the broker missed, nothing doubled; its last will says it went offline; a broker that is not
there at start does not stop it serving; bad options are one line and exit 2."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.cli.main import main
from tests.broker.watcher import Watcher
from tests.cli import ATELIER, assert_user_error, atelier
from tests.mosquitto import Mosquitto, free_port
from tests.web.test_game_end import CARDS
from web.broker.identity import SERVER_FILE

SITE = "hall-b"
STOP_S = 60.0  # a guard against a hang, not a speed claim


@contextmanager
def serving(
    data: Path, broker: str, *options: str
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``atelier serve --broker`` on a free loopback port, once it listens; and its address.
    Killed at the end if still running."""
    port = free_port()
    command = [str(ATELIER), "serve", "--host", "127.0.0.1", "--port", str(port)]
    data.parent.mkdir(parents=True, exist_ok=True)
    log = (data.parent / "serve.log").open("ab")
    server = subprocess.Popen(
        [*command, "--data", str(data), "--broker", broker, "--site", SITE, *options],
        stdout=subprocess.PIPE,
        stderr=log,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().decode().strip()  # printed once the server listens
        assert url == f"http://127.0.0.1:{port}/", (data.parent / "serve.log").read_text()
        yield server, url
    finally:
        server.kill()
        server.wait(STOP_S)
        log.close()


def post(url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["X-Table-Token"] = token
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def new_table(url: str) -> tuple[str, str]:
    players = [{"name": "Ana"}, {"name": "Ben"}]
    body = {"game": "paintings", "players": players, "options": {"scoring_cards": CARDS}}
    made = post(f"{url}api/tables", body)
    return made["id"], made["token"]


def tokens(url: str, table: str, token: str, count: int) -> int:
    changed = post(f"{url}api/tables/{table}/tokens", {"seat": 1, "tokens": count}, token)
    return int(changed["event"])


def caught_up(watcher: Watcher, table: str, ids: list[int]) -> dict[str, Any] | None:
    seen = {e["seq"] for e in watcher.events(SITE, table)}
    state = watcher.state(SITE, table)
    if not set(ids) <= seen or state is None or state["seq"] != ids[-1]:
        return None
    return state


def online(watcher: Watcher, server: str, expected: bool) -> bool:
    status = watcher.status(SITE, server)
    return status is not None and status["online"] is expected


@pytest.mark.slow
def test_a_table_server_killed_and_restarted_loses_nothing_and_its_last_will_says_offline(
    tmp_path: Path, mosquitto: Mosquitto
) -> None:
    data = tmp_path / "data"
    watcher = Watcher(mosquitto.port)
    try:
        with serving(data, mosquitto.url) as (server, url):
            name = (data / SERVER_FILE).read_text().strip()
            watcher.wait(lambda w: online(w, name, True))
            table, token = new_table(url)
            ids = [tokens(url, table, token, count) for count in (1, 2)]
            watcher.wait(lambda w: caught_up(w, table, ids))
            # Changed, and killed at once: what it had no time to publish is in its log.
            ids += [tokens(url, table, token, count) for count in (3, 4, 5)]
            server.kill()
            watcher.wait(lambda w: online(w, name, False))  # the broker's last will
        with serving(data, mosquitto.url) as (server, url):
            watcher.wait(lambda w: online(w, name, True))
            state = watcher.wait(lambda w: caught_up(w, table, ids))
            assert state["scores"]["players"][0]["tokens"] == 5
            seen = {e["seq"] for e in watcher.events(SITE, table)}
            assert seen == set(ids)  # none missing, none made up
            # Stopped as a service manager stops it: offline at once, no will needed.
            server.terminate()
            assert server.wait(STOP_S) == 0
            watcher.wait(lambda w: online(w, name, False))
    finally:
        watcher.close()


@pytest.mark.slow
def test_a_broker_not_there_at_start_does_not_stop_the_tables_and_gets_them_later(
    tmp_path: Path,
) -> None:
    broker = Mosquitto(tmp_path / "broker")  # on a free port, not started yet
    data = tmp_path / "data"
    with serving(data, broker.url, "--server-name", "pc-7") as (server, url):
        table, token = new_table(url)
        ids = [tokens(url, table, token, count) for count in (1, 2)]
        broker.start()
        try:
            watcher = Watcher(broker.port)
            try:
                watcher.wait(lambda w: caught_up(w, table, ids))
                assert online(watcher, "pc-7", True)
            finally:
                watcher.close()
            server.terminate()
            assert server.wait(STOP_S) == 0
        finally:
            broker.stop()
    lines = (tmp_path / "serve.log").read_text()
    assert f"atelier: cannot reach the broker at {broker.url}" in lines
    assert "Traceback" not in lines


def test_a_bad_broker_address_is_one_line_and_exit_2_before_anything_starts(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    assert_user_error(atelier("serve", "--data", data, "--broker", "http://hall"), "--broker")
    assert not data.exists()


@pytest.mark.parametrize(
    ("options", "fragments"),
    [
        (["--site", "x"], ["--site", "only with --broker"]),
        (["--broker", "mqtt://hall", "--site", "a/#"], ["--site", "'a/#'"]),
        (["--broker", "mqtt://hall", "--server-name", "+"], ["--server-name", "'+'"]),
        (["--broker", "mqtt://hall:0"], ["--broker", "port"]),
        (["--broker", "mqtt://ana@hall", "--broker-password-file", "nowhere"], ["cannot read"]),
        (["--broker", "mqtt://hall", "--broker-password-file", "pw"], ["only with a user"]),
        (["--broker", "mqtt://hall", "--broker-ca", "ca.pem"], ["only with an mqtts://"]),
        (["--broker", "mqtts://hall", "--broker-ca", "pw"], ["--broker-ca", "not a PEM"]),
        (["--broker-user", "ana"], ["--broker-user", "only with --broker"]),
        (["--broker-ca", "pw"], ["--broker-ca", "only with --broker"]),
    ],
)
def test_bad_broker_options_are_one_line_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    options: list[str],
    fragments: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pw").write_text("secret\n")
    assert main(["serve", "--data", "data", *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1, captured.err
    for fragment in fragments:
        assert fragment in captured.err
    assert not (tmp_path / "data").exists()
