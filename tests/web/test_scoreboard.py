"""The scoreboard's points by category, from positions shown to the server by a reader that reads
no pixels, so every number is known."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.observation import BoardObservation
from companion.reading import PhotoReading
from tests.web.fake_reader import FakeReader
from tests.web.test_game_end import CARDS, CONDITIONS, paintings, pigments_board, sheet
from web import create_app
from web.front import create_server
from web.pages import PLAYER_COLOURS

LED = {"displays": ["      34", "      34"], "highlight": [True, True], "brightness": 8}


class Server:
    """A real server whose reader reads the positions a test shows it, and whose emulated LED
    displays show ``LED``."""

    def __init__(self, tmp_path: Path) -> None:
        self.reader = FakeReader()
        self.app: Flask = create_app(
            {"DATA_DIR": tmp_path / "data", "SSE_KEEPALIVE": 1.0},
            self.reader,
            led_state=lambda: LED,
        )
        self.client: Any = self.app.test_client()
        self.running = create_server(self.app, host="127.0.0.1", port=0, threads=16)
        self.url = f"http://127.0.0.1:{self.running.effective_port}"
        threading.Thread(target=self.running.run, daemon=True).start()

    def table(self, game: str, players: int = 2, **options: Any) -> tuple[str, dict[str, str]]:
        names = [
            {"name": n, "colour": c}
            for n, c in zip(("Ana", "Ben", "Cy", "Dee")[:players], PLAYER_COLOURS, strict=False)
        ]
        body = {"game": game, "players": names, "options": options}
        made = self.client.post("/api/tables", json=body).json
        return made["id"], {"X-Table-Token": made["token"]}

    def scan(self, table: str, headers: dict[str, str], positions: dict[int, Any]) -> Any:
        game = next(iter(positions.values()))["game"]
        boards = [
            BoardObservation(game, seat, (f"{game}/board/{seat}",), position, 0.99, ())
            for seat, position in positions.items()
        ]
        self.reader.reading = PhotoReading(tuple(boards), {}, 0.0)
        answer = self.client.post(
            f"/api/tables/{table}/scans",
            data={"image": (io.BytesIO(b"photo"), "p.jpg")},
            headers=headers,
        )
        assert answer.status_code == 201, answer.json
        return answer.json["scores"]

    def post(self, table: str, headers: dict[str, str], path: str, body: Any = None) -> Any:
        answer = self.client.post(f"/api/tables/{table}/{path}", json=body, headers=headers)
        assert answer.status_code == 201, answer.json
        return answer.json["scores"]

    def close(self) -> None:
        self.running.close()
        self.app.extensions["atelier"].tables.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    yield running
    running.close()


def categories(scores: Any, seat: int) -> list[tuple[str, Any]]:
    player = next(p for p in scores["players"] if p["seat"] == seat)
    return [(c["name"], c.get("points", c.get("count"))) for c in player["categories"]]


def test_the_categories_of_each_game_add_up_to_the_total(server: Server) -> None:
    lab, token = server.table("pigments")
    server.scan(lab, token, {1: pigments_board(("small", "large"))})
    server.post(lab, token, "spills", {"seat": 1, "chips": 4})
    scores = server.post(lab, token, "diagnoses", {"seat": 1, "right": False})
    assert categories(scores, 1) == [
        ("Small pans", 2),
        ("Medium pans", 0),
        ("Large pans", 9),
        ("Spill Lines", -4),
        ("Fault diagnoses", -1),
    ]
    assert scores["players"][0]["total"] == 6

    gallery, token = server.table("paintings", scoring_cards=CARDS)
    server.scan(gallery, token, {1: paintings(2)})
    scores = server.post(gallery, token, "tokens", {"seat": 1, "tokens": 2})
    assert categories(scores, 1) == [
        ("Variety", 8),
        ("Repetition", 0),
        ("Emphasis", 4),
        ("Composition", 0),
        ("Silver ribbons", 0),
        ("Inspiration tokens", 2),
    ]
    assert [c.get("note") for c in scores["players"][0]["categories"]][:2] == [
        "2 ribbons",
        "0 ribbons",
    ]
    # Ben's tokens are not entered yet: no tie-break row to show for him.
    assert categories(scores, 2)[-1] == ("Silver ribbons", 0)

    isle, token = server.table("isle", conditions=CONDITIONS)
    scores = server.scan(isle, token, {1: sheet((4, 5, "red"), (2, 2, "red"))})
    assert categories(scores, 1) == [
        ("Green: grass", 0),
        ("Blue: shore", 0),
        ("Brown: desert", 0),
        ("Red: hamlet", 6),
    ]
