"""The pieces the correction picker draws (GET /api/content/<game>), and the candidates an unsure
read names, kept with a board through the table's log."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.content import colorfield, isle, paintings, pigments
from companion.games.pigments.model import Chip
from companion.observation import BoardObservation, ComponentRead
from companion.samples import random_position
from companion.table.readings import BoardReading
from tests.web.conftest import Client
from tests.web.fake_reader import FakeReader
from vision.benchmark import TRUTH
from vision.layout.inks import INKS
from web import create_app
from web.pictures import INKS as DRAWN


@pytest.fixture
def client(tmp_path: Path) -> Client:
    return create_app({"DATA_DIR": tmp_path}, FakeReader()).test_client()


def content(client: Client, game: str) -> Any:
    answer = client.get(f"/api/content/{game}")
    assert answer.status_code == 200
    return answer.json


def test_color_field_tiles_come_with_their_edges(client: Client) -> None:
    data = content(client, "colorfield")
    tiles = colorfield.default_content().tiles
    assert [t["id"] for t in data["tiles"]] == list(tiles)
    first = data["tiles"][0]
    assert first["edges"] == [[e.colour.value, e.multiplier] for e in tiles[first["id"]].edges]
    assert set(data["colours"]) == {"lemon", "coral", "navy", "turquoise"}
    assert data["letters"] == {"lemon": "L", "coral": "C", "navy": "N", "turquoise": "T"}


def test_art_cards_come_with_their_slots(client: Client) -> None:
    data = content(client, "paintings")
    assert len(data["cards"]) == len(paintings.default_content().cards) == 60
    assert all(len(card["slots"]) == 5 for card in data["cards"])
    assert set(data["icons"]) == {"hue", "shape", "texture", "tone"}


def test_isle_comes_with_its_islands_and_lettered_pencils(client: Client) -> None:
    data = content(client, "isle")
    assert [(c["name"], c["letter"]) for c in data["colours"]] == [
        ("green", "G"),
        ("blue", "B"),
        ("brown", "Br"),
        ("red", "R"),
    ]
    island = isle.default_content().islands["default"]
    assert data["islands"][0]["cells"] == [[c.row, c.col] for c in island.cells]


def test_shades_are_sent_by_their_face_alone(client: Client) -> None:
    answer = client.get("/api/content/pigments")
    data = answer.json
    assert [c["name"] for c in data["chips"]] == [chip.value for chip in Chip]
    shades = pigments.default_content().shades
    assert [s["name"] for s in data["shades"]] == sorted(shades)
    assert all(set(s) == {"name", "srgb"} for s in data["shades"])
    # No recipe anywhere: not as a key, nor as the chips of a card written out.
    text = json.dumps(data["shades"])
    assert "recipe" not in answer.get_data(as_text=True)
    assert not any(chip in text for chip in ("Fe2O3", "FeO(OH)", "ultramarine", "TiO2"))


def test_the_content_is_cached_and_an_unknown_game_is_404(client: Client) -> None:
    answer = client.get("/api/content/isle")
    assert "max-age=" in answer.headers["Cache-Control"]
    again = client.get("/api/content/isle", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304
    missing = client.get("/api/content/chess")
    assert missing.status_code == 404
    assert "chess" in missing.json["error"]


def test_the_picker_draws_with_the_printed_inks() -> None:
    assert {name: INKS[name] for name in DRAWN} == {
        name: (int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16))
        for name, code in DRAWN.items()
    }


def test_an_unsure_reads_candidates_are_kept_with_the_board(tmp_path: Path) -> None:
    position = random_position("pigments", random.Random(1))
    name = "large window 2"
    components = tuple(
        ComponentRead(n, None, 0.0, f"{n}: unsure", ("binder", None))
        if n == name
        else ComponentRead(n, v, 0.99)
        for n, v in TRUTH["pigments"](position).items()
    )
    board = BoardObservation(
        "pigments", 1, ("pigments/board/1",), position, 0.99, (f"{name}: unsure",), components
    )
    reader = FakeReader([board])
    client: Client = create_app({"DATA_DIR": tmp_path}, reader).test_client()
    made = client.post("/api/tables", json={"game": "pigments", "players": [{"name": "Ana"}]}).json
    scanned = client.post(
        f"/api/tables/{made['id']}/scans",
        data={"image": (io.BytesIO(b"photo"), "p.jpg")},
        headers={"X-Table-Token": made["token"]},
    ).json
    read = next(c for c in scanned["boards"][0]["components"] if c["component"] == name)
    assert read["candidates"] == ["binder", None]
    others = [c for c in scanned["boards"][0]["components"] if c["component"] != name]
    assert all("candidates" not in c for c in others)
    # Read back from the log as the table rebuilds its state.
    again = BoardReading.from_json(scanned["boards"][0])
    assert {c.component: c.candidates for c in again.components}[name] == ("binder", None)
