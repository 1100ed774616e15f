"""Malformed requests to every route, as a careless client or an attacker sends them: none is
answered 500, every refusal is one line, and no refused request changes any table."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import PLAYERS, Client
from web import create_app
from web.services import services_of

EXAMPLES = 2000

# Places a route takes from its address: a table that exists, one that does not, and what no
# table id is (huge numbers, other characters, escapes).
ODD_IDS = st.sampled_from(
    ["deadbeef", "DEADBEEF", "0", "9" * 400, "%00", "..", "a%2Fb", "ü", "-1", "1e309", " "]
)
NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=10),
    st.sampled_from([2**31, 2**63, 2**64 + 1, 10**400]),
).map(str) | st.sampled_from(["x", "-", "", "1.5", "0x10"])
JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False),
    st.text(max_size=30),
)
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
# Documents no parser should choke on: deep nesting, numbers too long to convert.
HOSTILE_TEXT = st.sampled_from(
    [
        "[" * 2000 + "]" * 2000,
        '{"a":' * 1000 + "1" + "}" * 1000,
        "1" * 5000,
        '{"game": "colorfield", "players": [{"name": "' + "x" * 100000 + '"}]}',
        "",
        "{",
        "\x00",
        '{"game": 1e999}',
    ]
)
SETUP_KEYS = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["colorfield", "paintings", "isle", "pigments", "chess"]) | JSON,
        "players": st.lists(
            st.fixed_dictionaries({}, optional={"name": JSON, "colour": JSON}), max_size=7
        )
        | JSON,
        "options": JSON,
    },
)
CORRECTION_KEYS = st.fixed_dictionaries(
    {},
    optional={"scan": JSON, "seat": JSON, "component": JSON, "value": JSON},
)
# The taps of what no camera sees: Spill Lines, diagnoses, rolls, tokens in hand.
ENTRY_KEYS = st.fixed_dictionaries(
    {},
    optional={
        "seat": JSON | st.integers(0, 6),
        "chips": JSON,
        "round": JSON,
        "right": JSON,
        "roll": JSON | st.integers(0, 7),
        "tokens": JSON,
    },
)
RECIPE_KEYS = st.fixed_dictionaries(
    {}, optional={"shade": JSON, "pan": JSON, "chips": st.lists(JSON, max_size=12) | JSON}
)

# Each game's table as the requests find it: what its setup needs, nothing more.
GAME_OPTIONS: dict[str, dict[str, Any]] = {
    "colorfield": {},
    "pigments": {},
    "paintings": {"scoring_cards": ["variety", "repetition", "emphasis", "composition"]},
    "isle": {"conditions": {"green": "grass", "blue": "shore", "brown": "desert", "red": "town"}},
}


@st.composite
def bodies(draw: Any, document: Any) -> tuple[bytes, str | None]:
    """A body and its content type: a document shaped like the route's, any JSON, hostile
    text, or bytes that are no JSON; sometimes labelled wrongly."""
    kind = draw(st.sampled_from(["shaped", "json", "hostile", "bytes"]))
    if kind == "shaped":
        data = json.dumps(draw(document)).encode()
    elif kind == "json":
        data = json.dumps(draw(JSON)).encode()
    elif kind == "hostile":
        data = draw(HOSTILE_TEXT).encode()
    else:
        data = draw(st.binary(max_size=200))
    label = draw(st.sampled_from(["application/json", "text/plain", None, "multipart/form-data"]))
    return data, label


# Each request is sent about a table of its own, made for it: "{table}" and "{token}" stand for
# its id and join token, so that a request that deletes its table or replaces its token leaves
# the next one a table to go at.
TABLE, TOKEN = "{table}", "{token}"


@st.composite
def requests(draw: Any) -> dict[str, Any]:
    """One request to some route, with odd parts."""
    table, token = TABLE, TOKEN
    place = draw(st.sampled_from([table, table]) | ODD_IDS)
    seat, scan = draw(NUMBERS), draw(NUMBERS)
    # A header's value is Latin-1 on the wire, without control characters.
    header_text = st.text(
        st.characters(max_codepoint=0xFF, blacklist_categories=("Cc", "Cs")), max_size=8
    )
    given_token = draw(st.sampled_from([token, "", "x" * 43, token + "x", "é" * 43]) | header_text)
    headers = {"X-Table-Token": given_token}
    if draw(st.booleans()):
        headers["Last-Event-ID"] = draw(NUMBERS)
    route = draw(
        st.sampled_from(
            [
                ("POST", "/api/tables", SETUP_KEYS),
                ("GET", f"/api/tables/{place}", None),
                ("DELETE", f"/api/tables/{place}", None),
                ("POST", f"/api/tables/{place}/token", None),
                ("GET", f"/api/tables/{place}/history", None),
                ("GET", f"/api/archive/{place}", None),
                ("POST", f"/api/tables/{place}/scans", "image"),
                ("POST", f"/api/tables/{place}/corrections", CORRECTION_KEYS),
                ("POST", f"/api/tables/{place}/rounds", None),
                ("POST", f"/api/tables/{place}/end", None),
                ("POST", f"/api/tables/{place}/spills", ENTRY_KEYS),
                ("POST", f"/api/tables/{place}/diagnoses", ENTRY_KEYS),
                ("POST", f"/api/tables/{place}/rolls", ENTRY_KEYS),
                ("POST", f"/api/tables/{place}/tokens", ENTRY_KEYS),
                ("POST", f"/api/tables/{place}/undo", None),
                ("GET", f"/api/tables/{place}/seats/{seat}", None),
                ("GET", f"/api/tables/{place}/seats/{seat}/picture/{scan}.jpg", None),
                ("GET", f"/api/tables/{place}/events?after={scan}", None),
                ("GET", "/api/pigments", None),
                ("POST", "/api/pigments/check", RECIPE_KEYS),
                ("GET", "/api/led", None),
                ("GET", "/api/live", None),
                ("GET", f"/t/{place}?token={given_token}", None),
                ("GET", f"/t/{place}/seat/{seat}", None),
                ("GET", f"/t/{place}/scan?token={given_token}", None),
                ("GET", f"/t/{place}/history", None),
                ("GET", f"/t/{place}/camera?token={given_token}", None),
                ("POST", "/tables", SETUP_KEYS),
                ("GET", "/", None),
            ]
        )
    )
    method, path, shape = route
    request: dict[str, Any] = {"method": method, "path": path, "headers": headers}
    if shape == "image":
        image = draw(
            st.sampled_from([b"", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF89a"])
        ) + draw(st.binary(max_size=64))
        field = draw(st.sampled_from(["image", "photo"]))
        request["data"] = {field: (io.BytesIO(image), "photo.jpg")}
    elif shape is not None:
        data, label = draw(bodies(shape))
        request["data"] = data
        if label is not None:
            request["content_type"] = label
    return request


def _tables(app: Flask, table: str) -> Any:
    """Which tables there are, and ``table`` as it stands (state and token) if it still is."""
    tables = services_of(app).tables
    ids = tables.ids()
    own = (tables.state(table).to_json(), tables.token(table)) if table in ids else None
    return ids, own


@pytest.fixture(scope="module")
def fuzzed_app(tmp_path_factory: pytest.TempPathFactory, reader: Any) -> Iterator[Flask]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    config = {"DATA_DIR": folder, "SSE_KEEPALIVE": 0.01, "SSE_MAX_SECONDS": 0.01}
    app = create_app(config, reader)
    yield app
    services_of(app).tables.close()


@pytest.mark.slow
def test_no_malformed_request_is_answered_500_or_changes_a_table_when_refused(
    fuzzed_app: Flask,
) -> None:
    client: Client = fuzzed_app.test_client()
    tables = services_of(fuzzed_app).tables

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,  # the same requests on every run: a failure is reproduced as it was
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(requests(), st.sampled_from(sorted(GAME_OPTIONS)))
    def one(request: dict[str, Any], game: str) -> None:
        made = tables.create({"game": game, "players": PLAYERS, "options": GAME_OPTIONS[game]})
        for name in ("path", "headers"):
            text = json.dumps(request[name])
            text = text.replace(TABLE, made.table).replace(TOKEN, made.token)
            request = {**request, name: json.loads(text)}
        before = _tables(fuzzed_app, made.table)
        answer = client.open(**request)
        assert answer.status_code < 500, (request["method"], request["path"], answer.text[:300])
        if answer.status_code >= 400:
            assert _tables(fuzzed_app, made.table) == before, (request["method"], request["path"])
            if request["path"].startswith("/api/"):
                error = answer.json["error"]
                assert "\n" not in error and "Traceback" not in error
        answer.close()
        if made.table in tables.ids():
            tables.remove(made.table)  # each request's table is its own

    one()
