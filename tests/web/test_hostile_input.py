"""Requests no page would send: JSON nested a thousand deep, numbers of thousands of digits,
oversized JSON bodies. Each is a one-line 4xx that changes nothing, never a 500."""

from __future__ import annotations

import pytest

from companion.json_input import MAX_WHOLE
from tests.web.conftest import Client, new_table

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
