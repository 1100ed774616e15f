"""A fresh app over a temporary data folder per test, reading photos with the reader the command
line gives ``atelier serve`` (one for the session: it builds its scanner once), and photos
rendered once per session."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.samples import random_position
from vision.photos import PhotoReader
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from web import create_app
from web.services import services_of

# Seed 11 renders the Color Field canvas printed for seat 4, read back exactly (easy light).
SEED = 11
SEAT = 4
PLAYERS = [{"name": n} for n in ("Ana", "Ben", "Cy", "Dee")]
# Flask types a response's ``json`` as optional; these tests read the JSON they expect.
Client = Any


@pytest.fixture(scope="session")
def photo() -> dict[str, Any]:
    position = random_position("colorfield", random.Random(SEED))
    rendering = Renderer().render(
        plan_table(position, "test"), RenderOptions(SEED, Difficulty.EASY)
    )
    return {"position": position, "jpeg": rendering.jpeg}


@pytest.fixture(scope="session")
def reader() -> PhotoReader:
    return PhotoReader()


@pytest.fixture
def app(tmp_path: Path, reader: PhotoReader) -> Iterator[Flask]:
    config = {"DATA_DIR": tmp_path / "data", "SSE_KEEPALIVE": 0.05, "SSE_MAX_SECONDS": 0.3}
    app = create_app(config, reader)
    yield app
    services_of(app).tables.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def new_table(client: Client, game: str = "colorfield", **options: Any) -> tuple[str, str]:
    answer = client.post("/api/tables", json={"game": game, "players": PLAYERS, "options": options})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], answer.json["token"]
