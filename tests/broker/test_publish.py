"""A table server's publisher against a real Mosquitto: changes made through the app arrive as
events in order and a retained state; a removed table is cleared; the broker killed and started
again misses nothing and doubles nothing; no join token ever leaves the table."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.broker.watcher import WAIT_S, Watcher
from tests.mosquitto import Mosquitto
from tests.web.test_game_end import CARDS, Table, paintings
from web.broker import protocol, publisher
from web.broker.client import BrokerLogin
from web.broker.outbox import Outbox
from web.broker.protocol import parse_broker
from web.broker.publisher import Connection, Publisher
from web.services import services_of

SITE, SERVER = "spring-con", "table-pc-1"


class Published(Table):
    """A Paintings table on an app whose tables are published, as ``atelier serve --broker``
    wires it; ``lines`` are what the publisher reported."""

    def __init__(
        self,
        tmp_path: Path,
        broker: Mosquitto,
        login: str = "",
        tls: bool = False,
        ca: Path | None = None,
        keepalive_s: int = 15,
    ) -> None:
        super().__init__(tmp_path, "paintings", scoring_cards=CARDS)
        self.data = tmp_path
        self.tables = services_of(self.client.application).tables
        self.lines: list[str] = []
        self.reported = threading.Event()
        scheme = "mqtts" if tls else "mqtt"
        address = parse_broker(broker.url.replace("mqtt://", f"{scheme}://{login}"))
        self.outbox = Outbox(tmp_path, f"{address.host}:{address.port}/{SITE}")
        broker_login = BrokerLogin(address, ca, keepalive_s)
        self.connection = Connection(broker_login, SITE, SERVER, retry_s=(1, 1))
        self.publisher = Publisher(self.tables, self.outbox, self.connection, self.report)

    def report(self, line: str) -> None:
        self.lines.append(line)
        self.reported.set()

    def first_report(self) -> str:
        """The publisher started, the first line it reported, the publisher closed."""
        self.publisher.start()
        try:
            assert self.reported.wait(WAIT_S)
            return self.lines[0]
        finally:
            self.publisher.close()
            self.tables.close()

    def tokens(self, seat: int, count: int) -> int:
        answer = self.client.post(
            f"/api/tables/{self.id}/tokens",
            json={"seat": seat, "tokens": count},
            headers=self.headers,
        )
        assert answer.status_code == 201, answer.json
        return int(answer.json["event"])

    def log(self, table: str | None = None) -> list[int]:
        return [e.id for e in self.tables.events(table or self.id)]


@pytest.fixture
def table(tmp_path: Path, mosquitto: Mosquitto) -> Iterator[Published]:
    made = Published(tmp_path / "data", mosquitto)
    made.publisher.start()
    yield made
    made.publisher.close()
    made.tables.close()


@pytest.fixture
def watcher(mosquitto: Mosquitto) -> Iterator[Watcher]:
    watching = Watcher(mosquitto.port)
    yield watching
    watching.close()


def caught_up(table: Published, watcher: Watcher, ids: list[int]) -> dict[str, Any] | None:
    """The table's state once the watcher holds every event of ``ids`` and the state that
    counts the last of them."""
    seen = {e["seq"] for e in watcher.events(SITE, table.id)}
    state = watcher.state(SITE, table.id)
    last = ids[-1] if ids else 0
    if not set(ids) <= seen or state is None or state["seq"] != last:
        return None
    return state


def test_changes_made_through_the_app_arrive_as_events_in_order_then_a_retained_state(
    table: Published, watcher: Watcher, mosquitto: Mosquitto
) -> None:
    assert table.scan({1: paintings(1), 2: paintings(1)}).status_code == 201
    assert table.post("rounds").status_code == 201
    table.tokens(1, 3)
    ids = table.log()
    state = watcher.wait(lambda w: caught_up(table, w, ids))
    events = watcher.events(SITE, table.id)
    assert [e["seq"] for e in events] == ids  # each once, in the log's order
    assert [e["id"] for e in events] == [f"{table.id}/{i}" for i in ids]
    assert [e["kind"] for e in events] == ["scan", "round-end", "tokens"]
    assert events[-1]["summary"] == "Inspiration tokens: Ana holds 3"
    assert {e["server"] for e in events} == {SERVER}
    assert state["scores"] == table.tables.state(table.id).scores_json()
    assert watcher.status(SITE, SERVER) == {
        "v": 1,
        "server": SERVER,
        "online": True,
        "at": watcher.status(SITE, SERVER)["at"],  # type: ignore[index]
    }
    # Whoever subscribes later gets the retained state and status at once.
    late = Watcher(mosquitto.port, f"atelier/{SITE}/+/+/+")
    try:
        retained = late.wait(lambda w: w.state(SITE, table.id))
        assert retained["seq"] == ids[-1]
        assert all(m.retained for m in late.messages)
        assert late.status(SITE, SERVER)["online"] is True  # type: ignore[index]
    finally:
        late.close()
    assert table.lines == [f"publishing to {parse_broker(mosquitto.url)} as {SITE}/{SERVER}"]


def test_a_new_table_is_published_before_its_first_event_and_a_removed_one_is_cleared(
    table: Published, watcher: Watcher, mosquitto: Mosquitto
) -> None:
    made: Any = table.client.post(
        "/api/tables",
        json={
            "game": "paintings",
            "players": [{"name": "Cy"}],
            "options": {"scoring_cards": CARDS},
        },
    ).json
    other = made["id"]
    state = watcher.wait(lambda w: w.state(SITE, other))
    assert (state["seq"], state["scores"]["players"][0]["name"]) == (0, "Cy")
    removed = table.client.delete(f"/api/tables/{other}", headers={"X-Table-Token": made["token"]})
    assert removed.status_code == 200, removed.json
    topic = protocol.table_state_topic(SITE, other)
    watcher.wait(lambda w: any(m.topic == topic and m.payload == b"" for m in w.messages))
    # Nothing of it is retained any more; the table still served is.
    late = Watcher(mosquitto.port)
    try:
        late.wait(lambda w: w.state(SITE, table.id))
        assert late.payloads(topic) == []
    finally:
        late.close()


def saved(broker: Mosquitto, since: float) -> bool:
    """Whether the broker has saved its sessions (the watcher's subscription) after ``since``:
    killed, it keeps only what it saved."""
    database = broker.folder / "mosquitto.db"
    return database.exists() and database.stat().st_mtime > since


def test_the_broker_killed_and_restarted_misses_nothing_and_doubles_nothing(
    table: Published, watcher: Watcher, mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A few messages in flight at most: the replay below takes several rounds from the log.
    monkeypatch.setattr(publisher, "IN_FLIGHT", 4)
    table.tokens(1, 1)
    watcher.wait(lambda w: caught_up(table, w, table.log()))
    now = time.time()
    watcher.wait(lambda _: saved(mosquitto, now))
    mosquitto.stop()
    for count in range(2, 14):  # while the broker is away, and while the table notices
        table.tokens(1 + count % 2, count)
    assert table.scan({1: paintings(2), 2: paintings(1)}).status_code == 201
    mosquitto.start()
    ids = table.log()
    state = watcher.wait(lambda w: caught_up(table, w, ids))
    seen = [e["seq"] for e in watcher.events(SITE, table.id)]
    assert sorted(set(seen)) == ids  # none missing, none the log does not hold
    assert state["scores"] == table.tables.state(table.id).scores_json()
    # The retained state is the latest, whatever the broker lost when it was killed.
    late = Watcher(mosquitto.port)
    try:
        assert late.wait(lambda w: w.state(SITE, table.id))["seq"] == ids[-1]
        assert late.status(SITE, SERVER)["online"] is True  # type: ignore[index]
    finally:
        late.close()
    assert any(line.startswith("lost the broker") for line in table.lines)


def test_no_payload_ever_holds_a_join_token(
    table: Published, watcher: Watcher, mosquitto: Mosquitto
) -> None:
    tokens = [table.headers["X-Table-Token"]]
    rotated = table.client.post(f"/api/tables/{table.id}/token", headers=table.headers)
    assert rotated.status_code == 201, rotated.json
    tokens.append(rotated.json["token"])
    table.headers = {"X-Table-Token": tokens[-1]}
    assert table.scan({1: paintings(1)}).status_code == 201
    table.tokens(2, 2)
    watcher.wait(lambda w: caught_up(table, w, table.log()))
    assert watcher.messages
    for message in watcher.messages:
        for token in tokens:
            assert token.encode() not in message.payload, message.topic
            assert token not in message.topic


def test_a_broker_with_logins_takes_the_right_password_and_refuses_a_wrong_one(
    tmp_path: Path,
) -> None:
    broker = Mosquitto(tmp_path / "broker")
    passwords = tmp_path / "broker" / "passwords"
    users = subprocess.run(
        ["mosquitto_passwd", "-b", "-c", str(passwords), "table-07", "s3cret"], check=False
    )
    if users.returncode != 0:
        pytest.skip("mosquitto_passwd is not installed (apt: mosquitto)")
    passwords.chmod(0o600)
    anonymous = "allow_anonymous true\n"
    logins = f"allow_anonymous false\npassword_file {passwords}\n"
    broker.config.write_text(broker.config.read_text().replace(anonymous, logins))
    broker.start()
    try:
        for password, said in (
            ("wrong", "refused the connection (Not authorized)"),
            ("s3cret", "publishing to"),
        ):
            first = Published(tmp_path / password, broker, f"table-07:{password}@").first_report()
            assert said in first, first
    finally:
        broker.stop()


def test_a_failure_while_publishing_is_said_and_publishing_goes_on(
    table: Published, watcher: Watcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    watcher.wait(lambda w: caught_up(table, w, table.log()))
    store = table.tables.store
    read = store.events
    failures = iter([sqlite3.OperationalError("disk I/O error")])

    def failing_once(table_id: str, after: int = 0, limit: int | None = None) -> Any:
        if threading.current_thread().name == "broker-publisher":
            for failure in failures:
                raise failure
        return read(table_id, after, limit)

    monkeypatch.setattr(store, "events", failing_once)
    table.tokens(1, 2)
    watcher.wait(lambda w: caught_up(table, w, table.log()))
    assert "publishing failed (OperationalError: disk I/O error); trying again" in table.lines


def authority(folder: Path) -> tuple[Path, Path, Path]:
    """A private authority's certificate, and a broker's certificate and key it signed for
    127.0.0.1, made with openssl (the test is skipped without it)."""
    folder.mkdir(parents=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    (folder / "san").write_text("subjectAltName=IP:127.0.0.1\n")
    ca = ["-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=hall-ca"]
    request = ["-keyout", "broker.key", "-out", "broker.csr", "-subj", "/CN=127.0.0.1"]
    signed = ["-in", "broker.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"]
    steps = [
        ["req", "-x509", *ec, *ca, "-days", "1"],
        ["req", *ec, *request],
        ["x509", "-req", *signed, "-out", "broker.pem", "-days", "1", "-extfile", "san"],
    ]
    for step in steps:
        try:
            subprocess.run(["openssl", *step], cwd=folder, check=True, capture_output=True)
        except FileNotFoundError:
            pytest.skip("openssl is not installed")
    return folder / "ca.pem", folder / "broker.pem", folder / "broker.key"


def test_tls_with_a_private_authority_is_trusted_with_broker_ca_only(tmp_path: Path) -> None:
    ca, certificate, key = authority(tmp_path / "pki")
    broker = Mosquitto(tmp_path / "broker")
    listener = f"listener {broker.port} 127.0.0.1\n"
    tls = f"cafile {ca}\ncertfile {certificate}\nkeyfile {key}\n"
    broker.config.write_text(broker.config.read_text().replace(listener, listener + tls))
    broker.start()
    try:
        for trusted, said in (
            (ca, "publishing to mqtts://"),
            (None, "cannot trust its certificate"),
        ):
            table = Published(tmp_path / str(bool(trusted)), broker, tls=True, ca=trusted)
            first = table.first_report()
            assert said in first, first
    finally:
        broker.stop()


def test_a_broker_gone_silent_is_noticed_and_what_it_missed_follows_when_it_answers(
    tmp_path: Path, watcher: Watcher, mosquitto: Mosquitto
) -> None:
    # A pulled cable closes nothing: the broker frozen answers nothing, as one out of reach.
    table = Published(tmp_path / "data", mosquitto, keepalive_s=1)
    table.publisher.start()
    try:
        table.tokens(1, 1)
        watcher.wait(lambda w: caught_up(table, w, table.log()))
        now = time.time()
        watcher.wait(lambda _: saved(mosquitto, now))
        process = mosquitto.process
        assert process is not None
        table.reported.clear()
        process.send_signal(signal.SIGSTOP)
        try:
            for count in range(2, 6):
                table.tokens(1, count)
            assert table.reported.wait(WAIT_S)  # noticed by the missing keep-alive answers
            assert table.lines[-1].startswith("lost the broker"), table.lines
            for count in range(6, 9):
                table.tokens(2, count)
        finally:
            process.send_signal(signal.SIGCONT)
        ids = table.log()
        watcher.wait(lambda w: caught_up(table, w, ids))
        assert sorted({e["seq"] for e in watcher.events(SITE, table.id)}) == ids
    finally:
        table.publisher.close()
        table.tables.close()


def bookmark(table: Published) -> int | None:
    """The outbox's bookmark of the table, once the publisher's thread has written it."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        found = table.outbox.acked(table.id)
        if found == table.log()[-1]:
            return found
        time.sleep(0.02)
    return table.outbox.acked(table.id)


def test_a_restarted_server_publishes_only_what_follows_its_bookmark(
    tmp_path: Path, watcher: Watcher, mosquitto: Mosquitto
) -> None:
    first = Published(tmp_path / "data", mosquitto)
    first.publisher.start()
    before = [first.tokens(1, count) for count in (1, 2, 3)]
    watcher.wait(lambda w: caught_up(first, w, before))
    assert bookmark(first) == before[-1]
    first.publisher.close()
    # Changed while not publishing (the server stopped, its broker option forgotten).
    after = [first.tokens(2, count) for count in (4, 5)]
    heard = len(watcher.messages)
    # Started again on the same data folder: a new outbox reads the bookmark it left.
    outbox = Outbox(first.data, first.outbox.destination)
    second = Publisher(first.tables, outbox, first.connection)
    second.start()
    try:
        watcher.wait(lambda w: caught_up(first, w, before + after))
        later = [m.decoded() for m in watcher.messages[heard:] if m.topic.endswith("/events")]
        assert [e["seq"] for e in later if e is not None] == after
    finally:
        second.close()
        first.tables.close()
