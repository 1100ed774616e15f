"""The hub against a real Mosquitto: tables publish, the leaderboard's JSON follows; replays,
foreign payloads and older states change nothing; a vanished server shows offline; the broker
going away and coming back loses nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.broker.hub_fixtures import Hub, publish, running_hub, table_client
from tests.broker.scoreboards import scoreboard
from tests.mosquitto import Mosquitto
from web.broker.board import SharedBoard
from web.broker.protocol import (
    event_payload,
    server_status_topic,
    state_payload,
    status_payload,
    table_events_topic,
    table_state_topic,
)


def _get(hub: Hub, path: str) -> dict[str, Any]:
    answer = hub.client.get(path)
    body: dict[str, Any] | None = answer.json
    assert body is not None, answer.status_code
    return body


def _tables(hub: Hub) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = _get(hub, "/api/tables")["tables"]
    return tables


def _seq(hub: Hub, table: str) -> int | None:
    return next((t["seq"] for t in _tables(hub) if t["table"] == table), None)


@pytest.fixture
def boards(tmp_path: Path) -> dict[str, dict[str, Any]]:
    return {
        "t1": scoreboard(tmp_path / "a", "pigments", ["Ada", "Ben"], [14, 22]),
        "t2": scoreboard(tmp_path / "b", "pigments", ["Cleo", "Dev"], [30, 3]),
    }


def test_the_leaderboard_follows_what_tables_publish(
    mosquitto: Mosquitto, boards: dict[str, dict[str, Any]]
) -> None:
    with running_hub(mosquitto) as hub, table_client(mosquitto) as table:
        publish(table, server_status_topic("hall", "pi-1"), status_payload("pi-1", True, 1.0), True)
        for seq, name in enumerate(("t1", "t2"), start=1):
            state = state_payload("pi-1", name, seq, 1.0, boards[name])
            publish(table, table_state_topic("hall", name), state, retain=True)
        publish(
            table,
            table_events_topic("hall", "t2"),
            event_payload("pi-1", "t2", 3, "scan", "Cleo scanned", 2.0),
        )
        hub.until(lambda: _seq(hub, "t2") == 2 and len(_tables(hub)) == 2, "both tables")
        hub.until(lambda: _tables(hub)[1]["last"] == "Cleo scanned", "the event")
        first = _get(hub, "/api/tables/hall/t1")
        assert first["label"] == "Ada, Ben" and first["title"] == "Pigment Lab"
        assert [(p["name"], p["total"]) for p in first["players"]] == [("Ben", 22), ("Ada", 14)]
        assert first["online"] is True and first["server"] == "pi-1"
        standings = _get(hub, "/api/standings")["games"]
        assert [(p["rank"], p["name"], p["label"]) for p in standings[0]["players"]] == [
            (1, "Cleo", "Cleo, Dev"),
            (2, "Ben", "Ada, Ben"),
            (3, "Ada", "Ada, Ben"),
            (4, "Dev", "Cleo, Dev"),
        ]
        missing = hub.client.get("/api/tables/hall/nope")
        assert missing.status_code == 404 and "nope" in _get(hub, "/api/tables/hall/nope")["error"]
        page = hub.client.get("/")
        assert page.status_code == 200 and b"hub.js" in page.data
        assert page.headers["X-Frame-Options"] == "DENY"
        assert hub.client.get("/", headers={"Host": "evil.example"}).status_code == 421


def test_replays_older_states_and_foreign_payloads_change_nothing(
    mosquitto: Mosquitto, boards: dict[str, dict[str, Any]]
) -> None:
    with running_hub(mosquitto) as hub, table_client(mosquitto) as table:
        events = table_events_topic("hall", "t1")
        publish(
            table,
            table_state_topic("hall", "t1"),
            state_payload("pi-1", "t1", 5, 1.0, boards["t1"]),
            True,
        )
        publish(table, events, event_payload("pi-1", "t1", 5, "scan", "Ada scanned", 1.0))
        hub.until(lambda: bool(_tables(hub)) and _tables(hub)[0]["events"] == 1, "the event")
        before = _get(hub, "/api/tables")
        # The outbox replays after a reconnection; a stale state arrives late; someone else
        # publishes under our topics. A last marker state shows when all of that was taken.
        publish(table, events, event_payload("pi-1", "t1", 5, "scan", "Ada scanned", 1.0))
        older = {**boards["t1"], "round": 7}
        publish(table, table_state_topic("hall", "t1"), state_payload("pi-1", "t1", 4, 1.0, older))
        publish(table, table_state_topic("hall", "t1"), b'{"v": 1, "table": "t1", "seq": 99}')
        publish(table, table_state_topic("hall", "t1"), b"\xff\xfe not ours")
        publish(table, "atelier/hall/tables/t1/gossip", b"{}")
        publish(
            table,
            table_state_topic("hall", "marker"),
            state_payload("pi-1", "marker", 1, 1.0, boards["t2"]),
        )
        hub.until(lambda: _seq(hub, "marker") == 1, "the marker")
        after = _get(hub, "/api/tables/hall/t1")
        assert after == before["tables"][0]


def test_a_vanished_server_shows_offline_and_the_broker_restart_loses_nothing(
    mosquitto: Mosquitto, boards: dict[str, dict[str, Any]]
) -> None:
    status = server_status_topic("hall", "pi-1")
    will = (status, status_payload("pi-1", False, 1.0))
    with running_hub(mosquitto) as hub:
        with table_client(mosquitto, will) as table:
            publish(table, status, status_payload("pi-1", True, 1.0), retain=True)
            state = state_payload("pi-1", "t1", 3, 1.0, boards["t1"])
            publish(table, table_state_topic("hall", "t1"), state, retain=True)
            hub.until(lambda: bool(_tables(hub)) and _tables(hub)[0]["online"], "the table online")
            # A pulled cable: the connection drops without a goodbye; the broker sends the will.
            table.loop_stop()
            sock = table.socket()
            assert sock is not None
            sock.close()
        hub.until(lambda: not _tables(hub)[0]["online"], "the table offline")
        mosquitto.stop(crash=False)
        hub.until(lambda: not _get(hub, "/api/tables")["connected"], "the lost broker")
        assert _tables(hub)[0]["seq"] == 3  # the last scores heard stay shown meanwhile
        mosquitto.start()
        hub.until(lambda: hub.board.connected, "a new connection")
    # A hub started afresh gets the retained state and status from the restarted broker.
    with running_hub(mosquitto) as fresh:
        fresh.until(lambda: bool(_tables(fresh)), "the retained table")
        (table_json,) = _tables(fresh)
        assert (table_json["seq"], table_json["online"]) == (3, False)
    assert any("lost the broker" in line for line in hub.log)


def test_one_site_is_all_a_site_hub_shows(
    mosquitto: Mosquitto, boards: dict[str, dict[str, Any]]
) -> None:
    with running_hub(mosquitto, site="hall") as hub, table_client(mosquitto) as table:
        publish(
            table,
            table_state_topic("other", "x1"),
            state_payload("pi-9", "x1", 1, 1.0, boards["t1"]),
            True,
        )
        publish(
            table,
            table_state_topic("hall", "t2"),
            state_payload("pi-1", "t2", 1, 1.0, boards["t2"]),
            True,
        )
        hub.until(lambda: _seq(hub, "t2") == 1, "the hall's table")
        assert [t["table"] for t in _tables(hub)] == ["t2"]


def test_events_published_while_the_hub_is_away_wait_for_it_at_the_broker(
    mosquitto: Mosquitto, boards: dict[str, dict[str, Any]]
) -> None:
    board = SharedBoard()
    with table_client(mosquitto) as table:
        with running_hub(mosquitto, name="organisers", board=board) as hub:
            state = state_payload("pi-1", "t1", 1, 1.0, boards["t1"])
            publish(table, table_state_topic("hall", "t1"), state, retain=True)
            hub.until(lambda: _seq(hub, "t1") == 1, "the table")
        # The hub is away (its computer restarting, the hall's network down at its end).
        for seq in (2, 3):
            event = event_payload("pi-1", "t1", seq, "scan", f"scan {seq}", 2.0)
            publish(table, table_events_topic("hall", "t1"), event)
        with running_hub(mosquitto, name="organisers", board=board) as hub:
            hub.until(lambda: _tables(hub)[0]["events"] == 2, "both events")
            assert _tables(hub)[0]["last"] == "scan 3"
