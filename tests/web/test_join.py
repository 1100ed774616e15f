"""Joining by the table's short code: the code itself, the limit on guessing it, and the whole
flow through the API (code, who are you, a yes or a no from a device already at the table)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from tests.web.conftest import Client, new_table
from tests.web.fake_reader import FakeReader
from web import create_app
from web.access import RateLimit
from web.codes import ALPHABET, LENGTH, TableCodes, grouped, normalise
from web.seat_requests import JoinRequests
from web.services import install, services_of

SECRET = b"k" * 32


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"DATA_DIR": tmp_path / "data", "SECRET_KEY": SECRET}, FakeReader())
    yield app
    services_of(app).tables.close()


def code_of(app: Flask, table: str) -> str:
    return services_of(app).codes.code(table)


def test_a_code_is_six_unambiguous_characters_read_back_in_any_case() -> None:
    codes = TableCodes(SECRET)
    code = codes.code("3f9c2a1b")
    assert len(code) == LENGTH and set(code) <= set(ALPHABET)
    assert not set("01ILO") & set(ALPHABET)
    assert code == codes.code("3f9c2a1b") != codes.code("3f9c2a1c")
    assert TableCodes(b"another key").code("3f9c2a1b") != code
    assert grouped("K7Q4MZ") == "K7Q-4MZ"
    assert normalise(" k7q-4mz ") == normalise("K7Q 4MZ") == "K7Q4MZ"
    assert [normalise(t) for t in ("K7Q4M", "K7Q4MZ2", "K7Q4M0", "K7Q-4MI", "")] == [None] * 5
    assert codes.find(code, ["00000000", "3f9c2a1b"]) == "3f9c2a1b"
    assert codes.find(code, ["00000000"]) is None


def test_guesses_are_limited_per_address() -> None:
    now = [0.0]
    limit = RateLimit(per_minute=6, burst=2, clock=lambda: now[0])
    assert [limit.take("a"), limit.take("a"), limit.take("b")] == [0.0, 0.0, 0.0]
    assert limit.take("a") == pytest.approx(10.0)
    now[0] = 10.0
    assert limit.take("a") == 0.0


def test_a_phone_joins_by_code_and_is_allowed_by_a_device_at_the_table(
    client: Client, app: Flask
) -> None:
    table, token = new_table(client)
    code = code_of(app, table)
    found = client.post("/api/join", json={"code": grouped(code).lower()}).json
    assert found["table"] == table and found["code"] == grouped(code)
    assert [(p["seat"], p["name"], p["initial"]) for p in found["players"]] == [
        (1, "Ana", "A"),
        (2, "Ben", "B"),
        (3, "Cy", "C"),
        (4, "Dee", "D"),
    ]
    # Watching needs nothing: the scoreboard without a token says so and offers to play.
    watch = client.get(found["links"]["watch"])
    assert watch.status_code == 200 and b"Watching" in watch.data and b"Join to play" in watch.data
    asked = client.post("/api/join/requests", json={"code": code, "seat": 2})
    assert asked.status_code == 201
    request = asked.json["request"]
    assert asked.json["status"] == "pending" and asked.json["name"] == "Ben"
    assert "token" not in client.get(f"/api/join/requests/{request}").json
    waiting = f"/api/tables/{table}/join-requests"
    assert client.get(waiting).status_code == 403
    listed = client.get(waiting, headers={"X-Table-Token": token}).json["requests"]
    assert [(r["request"], r["name"]) for r in listed] == [(request, "Ben")]
    # Answering needs the token.
    refused = client.post(f"{waiting}/{request}", json={"allow": True})
    assert refused.status_code == 403
    allowed = client.post(
        f"{waiting}/{request}", json={"allow": True}, headers={"X-Table-Token": token}
    )
    assert allowed.status_code == 200
    answer = client.get(f"/api/join/requests/{request}").json
    assert answer["status"] == "allowed" and answer["token"] == token
    assert answer["links"]["seat"] == f"/t/{table}/seat/2?token={token}"
    assert client.get(waiting, headers={"X-Table-Token": token}).json["requests"] == []
    again = client.post(
        f"{waiting}/{request}", json={"allow": False}, headers={"X-Table-Token": token}
    )
    assert again.status_code == 409 and again.json == {"error": "this request was already allowed"}


def test_a_refused_or_expired_request_says_so(client: Client, app: Flask) -> None:
    now = [0.0]
    install(app, dataclasses.replace(services_of(app), join_requests=JoinRequests(lambda: now[0])))
    table, token = new_table(client)
    code = code_of(app, table)
    headers = {"X-Table-Token": token}
    first = client.post("/api/join/requests", json={"code": code, "seat": 1}).json["request"]
    client.post(
        f"/api/tables/{table}/join-requests/{first}", json={"allow": False}, headers=headers
    )
    refused = client.get(f"/api/join/requests/{first}").json
    assert refused["status"] == "refused" and "token" not in refused
    second = client.post("/api/join/requests", json={"code": code, "seat": 1}).json["request"]
    now[0] = 301.0
    assert client.get(f"/api/join/requests/{second}").json["status"] == "expired"
    late = client.post(
        f"/api/tables/{table}/join-requests/{second}", json={"allow": True}, headers=headers
    )
    assert late.status_code == 409
    assert late.json == {"error": "this request expired: the phone must ask again"}
    # Long after, the request is forgotten.
    now[0] = 1300.0
    lost = client.get(f"/api/join/requests/{second}")
    assert lost.status_code == 404 and "expired" in lost.json["error"]


def test_few_phones_wait_at_one_table_and_only_for_its_seats(client: Client, app: Flask) -> None:
    table, _ = new_table(client)
    code = code_of(app, table)
    assert client.post("/api/join/requests", json={"code": code, "seat": 5}).json == {
        "error": "seat: no player sits at seat 5"
    }
    for _ in range(4):
        assert client.post("/api/join/requests", json={"code": code, "seat": 1}).status_code == 201
    crowded = client.post("/api/join/requests", json={"code": code, "seat": 1})
    assert crowded.status_code == 429
    assert crowded.json["error"].startswith("4 phones are already waiting to join this table")


def test_wrong_codes_answer_alike_and_guessing_is_rate_limited(client: Client, app: Flask) -> None:
    wrong = "ZZZ-ZZZ"
    alone = client.post("/api/join", json={"code": wrong})
    table, _ = new_table(client)
    assert code_of(app, table) != "ZZZZZZ"
    beside = client.post("/api/join", json={"code": wrong})
    expected = {
        "error": "No table has the code 'ZZZ-ZZZ': check the code on the scoreboard (like K7Q-4MZ)."
    }
    assert (alone.status_code, alone.json) == (beside.status_code, beside.json) == (404, expected)
    # The page answers in the same words, with the code kept in the form.
    page = client.get("/join", query_string={"code": wrong})
    assert page.status_code == 404 and b"No table has the code" in page.data
    assert b'value="ZZZ-ZZZ"' in page.data
    # Ten guesses at once (three made above), then one every 10 s, right or wrong.
    answers = [client.post("/api/join", json={"code": wrong}).status_code for _ in range(7)]
    assert answers == [404] * 7
    limited = client.post("/api/join", json={"code": code_of(app, table)})
    assert limited.status_code == 429 and limited.headers["Retry-After"] == "10"
    assert limited.json == {
        "error": "too many table codes tried from this address: try again in 10 s"
    }
    assert client.get(f"/join/{code_of(app, table)}").status_code == 429
    form = client.get("/join", query_string={"code": "k7q-4mz"})
    assert form.status_code == 429 and form.headers["Retry-After"] == "10"
    assert b'value="k7q-4mz"' in form.data and b"try again in 10 s" in form.data
    other = {"REMOTE_ADDR": "10.0.0.9"}
    assert client.post("/api/join", json={"code": wrong}, environ_base=other).status_code == 404


def test_the_join_pages(client: Client, app: Flask) -> None:
    table, token = new_table(client)
    code = grouped(code_of(app, table))
    assert b'name="code"' in client.get("/join").data
    typed = client.get("/join", query_string={"code": code.lower()})
    assert typed.status_code == 303 and typed.headers["Location"] == f"/join/{code}"
    who = client.get(f"/join/{code}").data.decode()
    assert "Who are you?" in who and "Just watching" in who
    assert [name in who for name in ("Ana", "Ben", "Cy", "Dee")] == [True] * 4
    board = client.get(f"/t/{table}?token={token}").data.decode()
    assert f'<strong id="table-code">{code}</strong>' in board
    assert "Playing" in board and "join-to-play" not in board
    assert 'href="http://localhost/join"' in board
