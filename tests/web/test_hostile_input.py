"""Requests no page would send: JSON nested a thousand deep, numbers of thousands of digits,
oversized JSON bodies, ids past any the log can hold. Each is a one-line 4xx that changes
nothing, never a 500 or a stream that dies."""

from __future__ import annotations

import pytest

from companion.json_input import MAX_WHOLE
from tests.web.conftest import Client, new_table
from tests.web.test_live import messages

DEEP = "[" * 1_000 + "]" * 1_000
HUGE = "7" * 5_000  # more digits than Python converts at all
WIDE = str(MAX_WHOLE + 1)  # one past SQLite's integers
BODIES = {
    "deep": (DEEP, "body: nested more than 32 levels deep"),
    "huge": ('{"scan": ' + HUGE + "}", "body: a whole number out of range"),
    "wide": ('{"scan": ' + WIDE + ', "seat": 1}', "body: scan: a whole number out of range"),
    "nan": ('{"scan": NaN}', "body: scan: expected a finite number"),
}


def routes(client: Client) -> tuple[dict[str, str], str]:
    """The three routes that read a JSON body, and the token of the table corrected."""
    table, token = new_table(client)
    paths = {
        "tables": "/api/tables",
        "check": "/api/pigments/check",
        "corrections": f"/api/tables/{table}/corrections",
    }
    return paths, token


def state_of(client: Client) -> list[object]:
    listed = client.get("/api/tables").json["tables"]
    return [(t["id"], client.get(f"/api/tables/{t['id']}/history").json) for t in listed]


@pytest.mark.parametrize("route", ["tables", "check", "corrections"])
@pytest.mark.parametrize("body", sorted(BODIES))
def test_json_past_the_limits_is_a_one_line_400(client: Client, route: str, body: str) -> None:
    paths, token = routes(client)
    before = state_of(client)
    text, message = BODIES[body]
    answer = client.post(
        paths[route], data=text, content_type="application/json", headers={"X-Table-Token": token}
    )
    assert answer.status_code == 400, answer.text
    assert answer.json["error"].startswith(message)
    assert "\n" not in answer.json["error"]
    assert state_of(client) == before


def test_a_json_body_over_64_kb_is_413_before_it_is_parsed(client: Client) -> None:
    padding = " " * (64 * 1024)
    answer = client.post(
        "/api/tables", data='{"game": "isle"' + padding + "}", content_type="application/json"
    )
    assert answer.status_code == 413
    assert answer.json == {"error": "body: a JSON body is at most 65,536 bytes"}
    assert client.get("/api/tables").json["tables"] == []


@pytest.mark.parametrize("scan", [WIDE, HUGE, str(MAX_WHOLE)])
def test_a_picture_of_a_scan_past_any_id_is_404(client: Client, scan: str) -> None:
    table, _ = new_table(client)
    answer = client.get(f"/api/tables/{table}/seats/1/picture/{scan}.jpg")
    assert answer.status_code == 404
    assert "\n" not in answer.json["error"]


@pytest.mark.parametrize("after", [WIDE, HUGE])
def test_a_stream_after_an_id_past_any_is_400(client: Client, after: str) -> None:
    table, _ = new_table(client)
    answer = client.get(f"/api/tables/{table}/events?after={after}")
    assert (answer.status_code, answer.json) == (
        400,
        {"error": f"after: not an event id (0..{MAX_WHOLE})"},
    )
    header = client.get(f"/api/tables/{table}/events", headers={"Last-Event-ID": after})
    assert header.status_code == 400
    assert header.json["error"].startswith("Last-Event-ID: not an event id")


@pytest.mark.parametrize("after", [str(MAX_WHOLE), "²", "abc"])
def test_a_stream_after_the_largest_id_or_no_number_stays_open(client: Client, after: str) -> None:
    table, _ = new_table(client)
    answer = client.get(f"/api/tables/{table}/events", headers={"Last-Event-ID": after})
    assert answer.status_code == 200
    assert messages(answer.text)[0] == {"comment": f"stream of table {table}"}
