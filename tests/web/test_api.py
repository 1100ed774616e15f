"""Every route of the app through Flask's test client, and every refusal: a refused request
answers a clear 4xx and changes nothing."""

from __future__ import annotations

import io
import random
import re
import struct
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.observation import BoardObservation
from companion.positions import evaluate_document
from companion.reading import PhotoReading
from companion.samples import random_position
from companion.table.store import BoardView
from tests.web.conftest import PLAYERS, SEAT, SEED, Client, new_table
from tests.web.fake_reader import FakeReader
from web import create_app


def upload(client: Client, table: str, data: bytes, token: str | None) -> Any:
    headers = {"X-Table-Token": token} if token else {}
    return client.post(
        f"/api/tables/{table}/scans",
        data={"image": (io.BytesIO(data), "photo.jpg")},
        headers=headers,
    )


def events_of(client: Client, table: str) -> list[Any]:
    answer = client.get(f"/api/tables/{table}/history")
    assert answer.status_code == 200
    history: list[Any] = answer.json["history"]
    return history


def png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))
    )


def test_create_answers_the_id_and_token(client: Client) -> None:
    answer = client.post("/api/tables", json={"game": "colorfield", "players": PLAYERS})
    assert answer.status_code == 201
    body = answer.json
    assert re.fullmatch(r"[0-9a-f]{8}", body["id"])
    assert body["links"]["scoreboard"].endswith(f"/t/{body['id']}?token={body['token']}")
    state = client.get(f"/api/tables/{body['id']}").json
    assert [p["name"] for p in state["players"]] == ["Ana", "Ben", "Cy", "Dee"]
    assert state["round"] == 1 and state["last_event"] == 0
    assert client.get("/api/tables").json["tables"][0]["id"] == body["id"]


@pytest.mark.parametrize(
    ("body", "content_type", "status", "message"),
    [
        (b"{", "application/json", 400, "body: line 1 column 2: not valid JSON"),
        (b"{}", "text/plain", 415, "send the body as JSON"),
        (
            b'{"game": "chess", "players": []}',
            "application/json",
            400,
            "game: unknown game 'chess'",
        ),
        (b'{"game": "isle", "players": [{"name": "A"}]}', "application/json", 400, "conditions"),
        (
            b'{"game": "colorfield", "players": []}',
            "application/json",
            400,
            "players: expected at least 1",
        ),
        (
            b'{"game": "colorfield", "players": [{"name": "A", "colour": "red"}]}',
            "application/json",
            400,
            "players[0].colour: expected a colour like #1f77b4",
        ),
        (
            b'{"game": "colorfield", "players": [{"name": "A"}], "x": 1}',
            "application/json",
            400,
            "x: unknown key",
        ),
    ],
)
def test_bad_tables_are_refused(
    client: Client, body: bytes, content_type: str, status: int, message: str
) -> None:
    answer = client.post("/api/tables", data=body, content_type=content_type)
    assert answer.status_code == status
    assert message in answer.json["error"]
    assert client.get("/api/tables").json["tables"] == []


@pytest.mark.parametrize("path", ["/api/tables/deadbeef", "/api/tables/..%2F..", "/t/deadbeef"])
def test_unknown_tables_are_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


def test_a_rendered_photo_is_read_scored_and_shown(client: Client, photo: dict[str, Any]) -> None:
    table, token = new_table(client)
    answer = upload(client, table, photo["jpeg"], token)
    assert answer.status_code == 201, answer.json
    expected = evaluate_document(photo["position"], "truth").data["total"]
    assert expected == 11
    (board,) = answer.json["boards"]
    assert (board["seat"], board["score"]["total"], board["problems"]) == (SEAT, 11, [])
    state = client.get(f"/api/tables/{table}").json
    assert [p["total"] for p in state["players"]] == [0, 0, 0, 11]
    first = state["standings"][0]
    assert first | {"seat": 4, "name": "Dee", "place": 1, "total": 11, "rank": 1} == first
    assert (first["decided_by"], state["over"], state["winner"]) == ("points", False, [])
    seat = client.get(f"/api/tables/{table}/seats/{SEAT}").json
    assert seat["marks"]["space 1"]["text"].startswith("+")
    assert set(seat["view"]["regions"]) == {f"space {i}" for i in range(1, 7)}
    picture = client.get(seat["view"]["image"])
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(picture.data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    assert image.shape[:2] == (seat["view"]["height"], seat["view"]["width"])


def test_changes_without_the_token_are_403_and_change_nothing(
    client: Client, photo: dict[str, Any]
) -> None:
    table, token = new_table(client)
    for wrong in (None, "x" * 32, token[:-1]):
        assert upload(client, table, photo["jpeg"], wrong).status_code == 403
        headers = {"X-Table-Token": wrong} if wrong else {}
        for path in ("undo", "rounds"):
            assert client.post(f"/api/tables/{table}/{path}", headers=headers).status_code == 403
        correction = client.post(f"/api/tables/{table}/corrections", json={}, headers=headers)
        assert correction.status_code == 403
        assert "join token" in correction.json["error"]
    assert events_of(client, table) == []


def test_the_token_may_come_in_the_form(client: Client, photo: dict[str, Any]) -> None:
    table, token = new_table(client)
    answer = client.post(
        f"/api/tables/{table}/scans",
        data={"image": (io.BytesIO(photo["jpeg"]), "p.jpg"), "token": token},
    )
    assert answer.status_code == 201


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        (b"", 400, "image: empty file"),
        (b"GIF89a" + b"\0" * 100, 400, "image: not an image (expected JPEG or PNG)"),
        (
            b"\xff\xd8\xff\xe0\x00\x10JFIF" + b"\0" * 50,
            400,
            "image: a JPEG whose header is cut short or damaged",
        ),
        (png_header(100_000, 100_000), 400, "image: 100000x100000 is 10,000,000,000 pixels"),
        (png_header(64, 64), 400, "image: a damaged PNG"),
    ],
)
def test_bad_images_are_refused(client: Client, data: bytes, status: int, message: str) -> None:
    table, token = new_table(client)
    answer = upload(client, table, data, token)
    assert answer.status_code == status
    assert message in answer.json["error"]
    assert events_of(client, table) == []


def test_a_truncated_photo_and_a_photo_of_no_board(client: Client, photo: dict[str, Any]) -> None:
    table, token = new_table(client)
    truncated = upload(client, table, photo["jpeg"][:2000], token)
    assert truncated.status_code == 400
    assert truncated.json["error"] == "image: a damaged JPEG that cannot be decoded"
    ok, blank = cv2.imencode(".png", np.full((120, 160, 3), 200, np.uint8))
    assert ok
    answer = upload(client, table, blank.tobytes(), token)
    assert answer.status_code == 422
    assert "no board of this table in the photo (no Atelier board found)" in answer.json["error"]
    assert events_of(client, table) == []


def test_a_missing_image_field(client: Client) -> None:
    table, token = new_table(client)
    answer = client.post(
        f"/api/tables/{table}/scans", data={"photo": "x"}, headers={"X-Table-Token": token}
    )
    assert answer.status_code == 400
    assert answer.json["error"].startswith("image: missing")


def test_a_huge_body_is_413(tmp_path: Path) -> None:
    app = create_app({"DATA_DIR": tmp_path, "MAX_CONTENT_LENGTH": 10_000}, FakeReader())
    client = app.test_client()
    table, token = new_table(client)
    refused = {"error": "body: a request body is at most 10,000 bytes"}
    answer = upload(client, table, b"\xff\xd8\xff" + b"\0" * 20_000, token)
    assert (answer.status_code, answer.json) == (413, refused)
    big = client.post("/api/tables", data=b"[" * 20_000, content_type="application/json")
    assert (big.status_code, big.json) == (413, refused)
    # Refused on its declared length, though this view never reads a body.
    ended = client.post(
        f"/api/tables/{table}/rounds", data=b"x" * 20_000, headers={"X-Table-Token": token}
    )
    assert (ended.status_code, ended.json) == (413, refused)
    assert events_of(client, table) == []


def test_corrections_rounds_and_undo(client: Client, photo: dict[str, Any]) -> None:
    table, token = new_table(client)
    headers = {"X-Table-Token": token}
    scan = upload(client, table, photo["jpeg"], token).json["event"]
    space = photo["position"]["spaces"][0]
    value = {"tile": space["tile"], "rotation": (space["rotation"] + 1) % 4}
    fixed = client.post(
        f"/api/tables/{table}/corrections",
        json={"scan": scan, "seat": SEAT, "component": "space 1", "value": value},
        headers=headers,
    )
    assert fixed.status_code == 201, fixed.json
    assert fixed.json["board"]["corrected"] == {"space 1": value}
    assert fixed.json["scores"]["players"][3]["total"] == 10
    bad = client.post(
        f"/api/tables/{table}/corrections",
        json={"scan": scan, "seat": SEAT, "component": "space 7", "value": None},
        headers=headers,
    )
    assert bad.status_code == 400 and "no component 'space 7'" in bad.json["error"]
    broken = client.post(
        f"/api/tables/{table}/corrections",
        data=b"{nope",
        content_type="application/json",
        headers=headers,
    )
    assert broken.status_code == 400
    ended = client.post(f"/api/tables/{table}/rounds", headers=headers)
    assert ended.status_code == 201 and ended.json["scores"]["round"] == 2
    for undone in (ended.json["event"], fixed.json["event"], scan):
        answer = client.post(f"/api/tables/{table}/undo", headers=headers)
        assert (answer.status_code, answer.json["undoes"]) == (201, undone)
    nothing = client.post(f"/api/tables/{table}/undo", headers=headers)
    assert nothing.status_code == 409 and nothing.json["error"] == "nothing to undo"
    history = events_of(client, table)
    assert [e["kind"] for e in history] == [
        "undo",
        "undo",
        "undo",
        "round-end",
        "correction",
        "scan",
    ]
    assert [e["undone"] for e in history] == [False, False, False, True, True, True]


def test_seat_routes_refuse_unknown_seats_and_pictures(
    client: Client, photo: dict[str, Any]
) -> None:
    table, token = new_table(client)
    assert client.get(f"/api/tables/{table}/seats/9").status_code == 404
    empty = client.get(f"/api/tables/{table}/seats/1").json
    assert (empty["board"], empty["view"], empty["total"]) == (None, None, 0)
    scan = upload(client, table, photo["jpeg"], token).json["event"]
    assert client.get(f"/api/tables/{table}/seats/1/picture/{scan}.jpg").status_code == 404
    other, _ = new_table(client)
    assert client.get(f"/api/tables/{other}/seats/{SEAT}/picture/{scan}.jpg").status_code == 404


def test_the_recipe_checker(client: Client) -> None:
    catalogue = client.get("/api/pigments").json
    assert catalogue["chips"] == ["Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder"]
    assert {"name": "medium", "slots": 3} in catalogue["pans"]
    answer = client.post(
        "/api/pigments/check",
        json={"shade": "coral", "pan": "medium", "chips": ["Fe2O3", "FeO(OH)", "binder"]},
    )
    assert answer.status_code == 200
    assert answer.json["pressed"] is True and answer.json["colour"]["shade"] == "coral"
    assert answer.json["says"] == "Pressed: it matches the card"
    bad = client.post("/api/pigments/check", json={"shade": "nope", "pan": "small", "chips": []})
    assert bad.status_code == 400 and "shade: unknown shade 'nope'" in bad.json["error"]
    over = client.post(
        "/api/pigments/check", json={"shade": "coral", "pan": "small", "chips": ["binder"] * 3}
    )
    assert over.status_code == 400 and "chips: expected at most 2 entries" in over.json["error"]


def test_the_recipe_checker_names_a_cards_recipe_only_when_asked(client: Client) -> None:
    coral = {"name": "coral", "srgb": "#ff4d00"}
    assert coral in client.get("/api/pigments").json["shades"]
    assert coral in client.get("/api/pigments?reveal=0").json["shades"]
    shown = client.get("/api/pigments?reveal=1").json["shades"]
    assert {**coral, "recipe": ["Fe2O3", "FeO(OH)"]} in shown
    bad = client.get("/api/pigments?reveal=yes")
    assert bad.status_code == 400 and bad.json["error"] == "reveal: expected 0 or 1, not 'yes'"
    pan = {"shade": "coral", "pan": "medium", "chips": ["Fe2O3", "Fe2O3", "binder"]}
    hidden = client.post("/api/pigments/check", json=pan).json
    assert hidden["shade"] == {"name": "coral"}
    assert hidden["explanation"].splitlines()[-1] == (
        "  Nothing happens (a wrong guess is free). The pan holds Fe2O3 + Fe2O3: a different "
        "recipe that gives the same colour as coral."
    )
    assert client.post("/api/pigments/check", json={**pan, "reveal": False}).json == hidden
    told = client.post("/api/pigments/check", json={**pan, "reveal": True}).json
    assert told["shade"] == {"name": "coral", "recipe": ["Fe2O3", "FeO(OH)"]}
    assert told["explanation"].endswith("(coral is Fe2O3 + FeO(OH)).")
    wrong = client.post("/api/pigments/check", json={**pan, "reveal": "yes"})
    assert wrong.status_code == 400
    assert wrong.json["error"] == "reveal: expected true or false, got a string"


def test_pages_render_and_carry_the_token_only_when_given(client: Client) -> None:
    table, token = new_table(client)
    for path in ("/", f"/t/{table}", f"/t/{table}/seat/1", f"/t/{table}/history", "/recipes"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert token not in answer.text
        assert answer.headers["Referrer-Policy"] == "same-origin"
        assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    joined = client.get(f"/t/{table}?token={token}")
    assert f'data-token="{token}"' in joined.text and "<svg" in joined.text
    assert client.get(f"/t/{table}?token=wrong").text.count(token) == 0
    assert client.get(f"/t/{table}/scan").status_code == 403
    assert client.get(f"/t/{table}/scan?token={token}").status_code == 200
    assert client.get(f"/t/{table}/seat/7").status_code == 404


def test_the_start_form_needs_its_csrf_token(client: Client) -> None:
    form = {"game": "colorfield", "name_1": "Ana", "colour_1": "#ff0000", "name_2": "Ben"}
    assert client.post("/tables", data=form).status_code == 403
    page = client.get("/").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf is not None
    refused = client.post("/tables", data={**form, "csrf_token": "x"})
    assert refused.status_code == 403
    assert client.get("/api/tables").json["tables"] == []
    wrong = client.post("/tables", data={**form, "game": "paintings", "csrf_token": csrf[1]})
    assert (
        wrong.status_code == 400 and "options.scoring_cards[0]: unknown scoring card" in wrong.text
    )
    made = client.post("/tables", data={**form, "csrf_token": csrf[1]})
    assert made.status_code == 303
    (table,) = client.get("/api/tables").json["tables"]
    assert made.headers["Location"].startswith(f"/t/{table['id']}?token=")
    assert table["players"] == ["Ana", "Ben"]


def canvas_of(seat: int) -> BoardObservation:
    """The rendered photo's canvas (11 points) as a reader reports it, at ``seat``."""
    position = random_position("colorfield", random.Random(SEED))
    boards = (f"colorfield/canvas/{seat}",)
    return BoardObservation("colorfield", seat, boards, position, 0.99, ())


def test_a_scan_is_scored_from_what_the_reader_read(tmp_path: Path) -> None:
    board = canvas_of(2)
    picture = BoardView(b"\xff\xd8 the canvas", {"width": 3, "height": 2, "regions": {}})
    reader = FakeReader([board], {board.boards: picture}, total_ms=12.34)
    client: Client = create_app({"DATA_DIR": tmp_path}, reader).test_client()
    table, token = new_table(client)
    answer = upload(client, table, b"any bytes", token)
    assert answer.status_code == 201, answer.json
    assert reader.photos == [b"any bytes"]  # the upload reaches the reader as it was sent
    (read,) = answer.json["boards"]
    assert (read["seat"], read["score"]["total"], read["problems"]) == (2, 11, [])
    assert answer.json["timing_ms"] == 12.3
    assert [p["total"] for p in answer.json["scores"]["players"]] == [0, 11, 0, 0]
    seat = client.get(f"/api/tables/{table}/seats/2").json
    assert (seat["total"], seat["view"]["width"], seat["view"]["height"]) == (11, 3, 2)
    assert client.get(seat["view"]["image"]).data == b"\xff\xd8 the canvas"


def test_boards_the_reader_found_for_no_player_are_ignored_or_refused(tmp_path: Path) -> None:
    reader = FakeReader([canvas_of(1), canvas_of(9)])
    client: Client = create_app({"DATA_DIR": tmp_path}, reader).test_client()
    table, token = new_table(client)
    answer = upload(client, table, b"a photo", token)
    assert answer.status_code == 201
    assert [b["seat"] for b in answer.json["boards"]] == [1]
    assert answer.json["ignored"] == [
        "a Color Field board (colorfield/canvas/9): no player sits at seat 9"
    ]
    reader.reading = PhotoReading((canvas_of(9),), {}, 0.0)
    refused = upload(client, table, b"a photo", token)
    assert refused.status_code == 422
    assert refused.json["ignored"] == answer.json["ignored"]
    assert [e["kind"] for e in events_of(client, table)] == ["scan"]


def test_a_photo_the_reader_refuses_is_a_one_line_400(tmp_path: Path) -> None:
    reader = FakeReader(refusal="image: not a JPEG or PNG photo")
    client: Client = create_app({"DATA_DIR": tmp_path}, reader).test_client()
    table, token = new_table(client)
    answer = upload(client, table, b"GIF89a", token)
    assert (answer.status_code, answer.json) == (400, {"error": "image: not a JPEG or PNG photo"})
    assert events_of(client, table) == []


def test_a_photo_with_a_board_seen_but_not_decodable_is_refused_saying_why(
    tmp_path: Path,
) -> None:
    problem = "markers seen but not decodable: 4 candidates at 2.6 px per marker cell (too small)"
    reader = FakeReader(unreadable=[problem])
    client: Client = create_app({"DATA_DIR": tmp_path}, reader).test_client()
    table, token = new_table(client)
    refused = upload(client, table, b"a photo", token)
    assert refused.status_code == 422
    assert refused.json == {"error": f"no board of this table was read: {problem}"}
    assert events_of(client, table) == []


def test_a_refused_start_form_comes_back_as_it_was_sent(client: Client) -> None:
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text)
    assert csrf is not None
    form = {
        "csrf_token": csrf[1],
        "game": "isle",
        "name_1": "Ana",
        "colour_1": "#123456",
        "name_2": "Ben",
        "condition_green": "swamp",
        "condition_blue": "river",
        "condition_brown": "caves",
        "condition_red": "nowhere",
    }
    refused = client.post("/tables", data=form)
    assert refused.status_code == 400
    page = refused.text
    assert "options.conditions.red: unknown condition &#39;nowhere&#39;" in page
    assert '<option value="isle" data-seats="4" selected>' in page
    assert 'name="name_1"' in page and 'value="Ana"' in page and 'value="Ben"' in page
    assert 'value="#123456"' in page
    assert "<option selected>swamp</option>" in page and "<option selected>river</option>" in page
    # Unticked, the suggestions box stays unticked.
    assert re.search(r'name="advice"\s*>', page)
