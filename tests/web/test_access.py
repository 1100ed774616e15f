"""Which requests the server answers: its own names only, changes only from its own pages, new
tables no faster than the limit; and a table's removal and new join token, both with the token.
Every refusal answers one line and changes nothing."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.table.session import Created
from tests.cli import assert_user_error, atelier
from tests.web.conftest import PLAYERS, Client, new_table
from tests.web.test_live import messages
from web import create_app
from web.access import Hosts, RateLimit, host_name
from web.services import install, services_of


def _table_count(client: Client) -> int:
    return len(client.get("/api/tables").json["tables"])


def _one_line_error(answer: Any) -> str:
    error: str = answer.json["error"]
    assert "\n" not in error
    return error


@pytest.mark.parametrize(
    "header, name",
    [
        ("localhost", "localhost"),
        ("LocalHost:8000", "localhost"),
        ("192.168.1.20:8000", "192.168.1.20"),
        ("[::1]:8000", "::1"),
        ("atelier.local.", "atelier.local"),
        ("", None),
        ("a:b:c", None),
        ("[::1]x", None),
        ("host:80a", None),
        ("host:\u00b2", None),
    ],
)
def test_a_host_header_names_one_host_or_none(header: str, name: str | None) -> None:
    assert host_name(header) == name


def test_the_server_answers_to_its_names_and_pages_only() -> None:
    hosts = Hosts.of(["192.168.1.20", "Atelier.lan"])
    assert hosts.allows("127.0.0.1:8000") and hosts.allows("[::1]:8000")
    assert hosts.allows("atelier.lan:8000") and not hosts.allows("atelier.lan.evil.example")
    assert hosts.allows_origin("http://192.168.1.20:8000")
    assert hosts.allows_origin("https://atelier.lan")
    for origin in ("null", "http://evil.example", "ftp://atelier.lan", "http://atelier.lan/x"):
        assert not hosts.allows_origin(origin), origin


def test_a_request_addressed_to_a_name_not_the_servers_is_refused(client: Client) -> None:
    table, _ = new_table(client)
    for path in ("/", f"/api/tables/{table}", f"/api/tables/{table}/events"):
        answer = client.get(path, headers={"Host": "rebound.example"})
        assert answer.status_code == 421, path
    answer = client.get(f"/api/tables/{table}", headers={"Host": "rebound.example:8000"})
    assert "rebound.example" in _one_line_error(answer)
    assert client.get(f"/api/tables/{table}", headers={"Host": "127.0.0.1:8000"}).status_code == 200


def test_names_given_to_the_server_are_answered(tmp_path: Path, reader: Any) -> None:
    app = create_app({"DATA_DIR": tmp_path, "ALLOWED_HOSTS": ["atelier.lan"]}, reader)
    try:
        client = app.test_client()
        assert client.get("/", headers={"Host": "atelier.lan:8000"}).status_code == 200
        assert client.get("/", headers={"Host": "other.lan"}).status_code == 421
    finally:
        services_of(app).tables.close()


def test_a_change_sent_from_another_sites_page_is_refused_and_changes_nothing(
    client: Client,
) -> None:
    table, token = new_table(client)
    body = {"game": "colorfield", "players": PLAYERS}
    for origin in ("http://evil.example", "null"):
        answer = client.post("/api/tables", json=body, headers={"Origin": origin})
        assert answer.status_code == 403, origin
        _one_line_error(answer)
        ended = client.post(
            f"/api/tables/{table}/rounds", headers={"Origin": origin, "X-Table-Token": token}
        )
        assert ended.status_code == 403
    assert _table_count(client) == 1
    assert client.get(f"/api/tables/{table}").json["last_event"] == 0
    # The server's own pages, and clients that are no browser (no Origin at all), may.
    same = client.post("/api/tables", json=body, headers={"Origin": "http://localhost:8000"})
    assert same.status_code == 201
    assert client.post("/api/tables", json=body).status_code == 201
    # Reading is never a change: another site's Origin on a GET does not matter.
    assert client.get("/api/tables", headers={"Origin": "http://evil.example"}).status_code == 200


def test_deleting_a_table_needs_its_token_and_removes_everything(client: Client) -> None:
    table, token = new_table(client)
    kept, _ = new_table(client)
    assert client.delete(f"/api/tables/{table}").status_code == 403
    wrong = client.delete(f"/api/tables/{table}", headers={"X-Table-Token": "x" * 32})
    assert wrong.status_code == 403
    assert client.get(f"/api/tables/{table}").status_code == 200
    answer = client.delete(f"/api/tables/{table}", headers={"X-Table-Token": token})
    assert answer.status_code == 200
    assert answer.json == {"deleted": table}
    assert client.get(f"/api/tables/{table}").status_code == 404
    assert client.get(f"/t/{table}").status_code == 404
    assert [t["id"] for t in client.get("/api/tables").json["tables"]] == [kept]
    again = client.delete(f"/api/tables/{table}", headers={"X-Table-Token": token})
    assert again.status_code == 404
    assert client.delete("/api/tables/" + "f" * 5000).status_code == 404


@pytest.fixture
def patient_app(tmp_path: Path, reader: Any) -> Iterator[Flask]:
    """Streams that would wait half a minute between keep-alives."""
    config = {"DATA_DIR": tmp_path, "SSE_KEEPALIVE": 30.0, "SSE_MAX_SECONDS": 60.0}
    app = create_app(config, reader)
    yield app
    services_of(app).tables.close()


def test_the_live_streams_of_a_deleted_table_end_at_once(patient_app: Flask) -> None:
    client = patient_app.test_client()
    table, token = new_table(client)
    answer = client.get(f"/api/tables/{table}/events", buffered=False)
    chunks: Any = iter(answer.response)
    assert next(chunks).startswith(b"retry:")
    deleted: list[int] = []

    def delete() -> None:
        headers = {"X-Table-Token": token}
        deleted.append(client.delete(f"/api/tables/{table}", headers=headers).status_code)

    start = time.monotonic()
    threading.Timer(0.2, delete).start()
    rest = b"".join(chunks).decode()
    # Without the wake-up the stream would wait 30 s for its next keep-alive.
    assert time.monotonic() - start < 10.0
    assert deleted == [200]
    assert [m for m in messages(rest) if "id" in m] == []
    answer.close()


def test_a_new_join_token_locks_out_the_old_one(client: Client) -> None:
    table, token = new_table(client)
    assert client.post(f"/api/tables/{table}/token").status_code == 403
    answer = client.post(f"/api/tables/{table}/token", headers={"X-Table-Token": token})
    assert answer.status_code == 201
    new = answer.json["token"]
    assert new != token and len(new) >= 32
    assert answer.json["links"]["scoreboard"].endswith(f"/t/{table}?token={new}")
    old = client.post(f"/api/tables/{table}/rounds", headers={"X-Table-Token": token})
    assert old.status_code == 403
    assert client.get(f"/api/tables/{table}").json["last_event"] == 0
    ended = client.post(f"/api/tables/{table}/rounds", headers={"X-Table-Token": new})
    assert ended.status_code == 201
    # A page opened with the old link is a watcher's now: it offers no changes.
    assert "Scan a board" not in client.get(f"/t/{table}?token={token}").text
    assert "Scan a board" in client.get(f"/t/{table}?token={new}").text


@dataclasses.dataclass
class FedLive:
    """A live source that feeds the given tables."""

    tables: Sequence[Created]

    def fed(self) -> Sequence[Created]:
        return self.tables

    def view(self, table: str) -> bytes | None:
        return None


def test_a_table_the_live_camera_feeds_keeps_its_token_and_stays(
    tmp_path: Path, reader: Any
) -> None:
    app = create_app({"DATA_DIR": tmp_path}, reader)
    try:
        client = app.test_client()
        table, token = new_table(client)
        install(app, dataclasses.replace(services_of(app), live=FedLive([Created(table, token)])))
        headers = {"X-Table-Token": token}
        for answer in (
            client.delete(f"/api/tables/{table}", headers=headers),
            client.post(f"/api/tables/{table}/token", headers=headers),
        ):
            assert answer.status_code == 409
            assert "live camera" in _one_line_error(answer)
        assert services_of(app).tables.authorised(table, token)
    finally:
        services_of(app).tables.close()


def test_tables_are_created_no_faster_than_the_limit(client: Client, app: Flask) -> None:
    now = [0.0]
    limit = RateLimit(per_minute=6, burst=2, clock=lambda: now[0])
    install(app, dataclasses.replace(services_of(app), creations=limit))
    body = {"game": "colorfield", "players": PLAYERS}
    assert [client.post("/api/tables", json=body).status_code for _ in range(2)] == [201, 201]
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "10"  # one table every 10 s
    assert "try again in 10 s" in _one_line_error(refused)
    assert _table_count(client) == 2
    # Another address has its own allowance; this one's refills with time.
    other = client.post("/api/tables", json=body, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201
    now[0] += 10.0
    assert client.post("/api/tables", json=body).status_code == 201
    assert client.post("/api/tables", json=body).status_code == 429
    assert _table_count(client) == 4


def test_the_start_form_counts_against_the_same_limit(client: Client, app: Flask) -> None:
    limit = RateLimit(per_minute=1, burst=1, clock=lambda: 0.0)
    install(app, dataclasses.replace(services_of(app), creations=limit))
    client.get("/")  # the session's CSRF token
    with client.session_transaction() as session:
        csrf = session["csrf_token"]
    form = {"csrf_token": csrf, "game": "colorfield", "name_1": "Ana", "name_2": "Ben"}
    assert client.post("/tables", data=form).status_code == 303
    refused = client.post("/tables", data=form)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "60"
    assert _table_count(client) == 1


def test_serve_refuses_a_name_no_browser_could_send(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run = atelier("serve", "--allow-host", "evil.example/path", "--data", data, "--port", "1")
    assert_user_error(run, "--allow-host", "evil.example/path")
    assert not data.exists()


def test_a_token_of_other_characters_is_simply_not_the_tables(client: Client) -> None:
    table, _ = new_table(client)
    answer = client.post(f"/api/tables/{table}/rounds", headers={"X-Table-Token": "é" * 43})
    assert answer.status_code == 403
    assert client.get(f"/t/{table}/scan?token={'é' * 43}").status_code == 403
    client.get("/")  # the session's CSRF token
    form = {"csrf_token": "é" * 32, "game": "colorfield", "name_1": "Ana", "name_2": "Ben"}
    assert client.post("/tables", data=form).status_code == 403
    assert _table_count(client) == 1
