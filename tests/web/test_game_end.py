"""Whole games through the API, from setup to the winner, with hand-made scans: each game ends
as its rule text says, the tie-breaks the table can know decide ties, and the table refuses
changes once the game is over (undo of the change that ended it reopens it)."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from companion.observation import BoardObservation
from companion.reading import PhotoReading
from companion.samples import random_position
from tests.web.conftest import Client
from tests.web.fake_reader import FakeReader
from web import create_app

TWO = [{"name": "Ana"}, {"name": "Ben"}]
OVER = "the game is over: undo the change that ended it to change the table"


class Table:
    """One table of two players on an app whose reader reads what the test shows it."""

    def __init__(self, tmp_path: Path, game: str, **options: Any) -> None:
        self.reader = FakeReader()
        self.client: Client = create_app({"DATA_DIR": tmp_path}, self.reader).test_client()
        body = {"game": game, "players": TWO, "options": options}
        made: Any = self.client.post("/api/tables", json=body).json
        self.id, self.game = made["id"], game
        self.headers = {"X-Table-Token": made["token"]}

    def scan(self, positions: dict[int, dict[str, Any]]) -> Any:
        boards = [
            BoardObservation(self.game, seat, (f"{self.game}/board/{seat}",), position, 0.99, ())
            for seat, position in positions.items()
        ]
        self.reader.reading = PhotoReading(tuple(boards), {}, 0.0)
        return self.client.post(
            f"/api/tables/{self.id}/scans",
            data={"image": (io.BytesIO(b"photo"), "p.jpg")},
            headers=self.headers,
        )

    def post(self, path: str) -> Any:
        return self.client.post(f"/api/tables/{self.id}/{path}", headers=self.headers)

    def state(self) -> Any:
        return self.client.get(f"/api/tables/{self.id}").json

    def refuses_changes(self, positions: dict[int, dict[str, Any]]) -> None:
        scan = self.state()["players"][0]["scan"]
        correction = self.client.post(
            f"/api/tables/{self.id}/corrections",
            json={"scan": scan, "seat": 1, "component": "x", "value": None},
            headers=self.headers,
        )
        for answer in (self.scan(positions), correction, self.post("rounds"), self.post("end")):
            assert (answer.status_code, answer.json) == (409, {"error": OVER})


def canvas(seed: int) -> dict[str, Any]:
    return random_position("colorfield", random.Random(seed))


def test_color_field_ends_after_round_three_and_the_patch_bonus_breaks_a_tie(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, "colorfield")
    for _ in range(2):
        assert table.scan({1: canvas(11), 2: canvas(11)}).status_code == 201
        assert table.post("rounds").status_code == 201
    # Round 3: 12 points each, Ben's patch bonus 3 against Ana's 0.
    assert table.scan({1: canvas(1), 2: canvas(9)}).status_code == 201
    assert table.state()["over"] is False
    ended = table.post("rounds")
    assert ended.status_code == 201
    assert (
        ended.json["scores"] | {"over": True, "winner": [2], "decided_by": "patch bonus"}
        == (ended.json["scores"])
    )
    state = table.state()
    assert (state["over"], state["finished"], state["round"], state["winner"]) == (
        True,
        True,
        3,
        [2],
    )
    assert [(s["seat"], s["total"], s["rank"], s["decided_by"]) for s in state["standings"]] == [
        (2, 34, 1, "patch bonus"),
        (1, 34, 2, "patch bonus"),
    ]
    # Ben's round-3 canvas shows R3-15, kept from round 2, moved and turned: two tokens.
    assert state["standings"][0]["tie_breaks"] == [
        {"criterion": "patch bonus", "value": 3},
        {"criterion": "unused inspiration tokens", "value": 1},
    ]
    table.refuses_changes({1: canvas(1)})
    reopened = table.post("undo")
    assert reopened.status_code == 201 and reopened.json["scores"]["over"] is False
    assert (table.state()["round"], table.state()["winner"]) == (3, [])
    assert table.post("rounds").json["scores"]["winner"] == [2]


def pigments_board(pressed: tuple[str, ...]) -> dict[str, Any]:
    full = {
        "small": {"pan": "small", "chips": ["FeO(OH)", "binder"], "shade": "ochre"},
        "medium": {"pan": "medium", "chips": ["Fe2O3", "FeO(OH)", "binder"], "shade": "coral"},
        "large": {
            "pan": "large",
            "chips": ["FeO(OH)", "TiO2", "TiO2", "binder", "binder"],
            "shade": "cream",
        },
    }
    pans: list[dict[str, Any]] = [
        full[size] if size in pressed else {"pan": size, "chips": [], "shade": None}
        for size in ("small", "medium", "medium", "large")
    ]
    return {"game": "pigments", "pans": pans}


def test_pigment_lab_ends_after_round_five(tmp_path: Path) -> None:
    table = Table(tmp_path, "pigments")
    for round_number in range(1, 6):
        assert table.state()["round"] == round_number
        if round_number == 5:
            assert table.scan(
                {1: pigments_board(("small", "large")), 2: pigments_board(("small",))}
            )
        assert table.post("rounds").status_code == 201
    state = table.state()
    assert (state["over"], state["round"], state["winner"], state["decided_by"]) == (
        True,
        5,
        [1],
        "points",
    )
    assert [(s["seat"], s["total"], s["tie_breaks"]) for s in state["standings"]] == [
        (1, 11, [{"criterion": "large pans pressed", "value": 1}]),
        (2, 2, [{"criterion": "large pans pressed", "value": 0}]),
    ]
    table.refuses_changes({1: pigments_board(())})


def test_a_pigment_lab_tie_on_points_and_large_pans_is_shared(tmp_path: Path) -> None:
    # Equal pans pressed and no penalties entered: equal points and equal large pans.
    table = Table(tmp_path, "pigments")
    board = pigments_board(("small", "medium"))
    assert table.scan({1: board, 2: board}).status_code == 201
    for _ in range(5):
        table.post("rounds")
    state = table.state()
    assert (state["winner"], state["decided_by"]) == ([1, 2], "shared")
    assert [(s["rank"], s["decided_by"]) for s in state["standings"]] == [
        (1, "shared"),
        (1, "shared"),
    ]


PAINTING = [{"slots": [["hue"], ["shape"], ["texture"], ["tone"], []]}] * 3
CARDS = ["variety", "repetition", "emphasis", "composition"]


def paintings(count: int, painting: list[dict[str, Any]] = PAINTING) -> dict[str, Any]:
    return {"game": "paintings", "paintings": [painting] * count}


def test_paintings_ends_when_every_third_painting_is_scanned(tmp_path: Path) -> None:
    table = Table(tmp_path, "paintings", scoring_cards=CARDS)
    assert table.scan({1: paintings(1), 2: paintings(1)}).status_code == 201
    assert table.post("rounds").status_code == 201
    done = table.scan({1: paintings(3)})
    assert done.status_code == 201 and done.json["scores"]["over"] is False
    sparse = [{"slots": [["hue"], [], [], [], []]}] * 3
    last = table.scan({2: paintings(3, sparse)})
    assert last.status_code == 201
    state = table.state()
    assert (state["over"], state["winner"], state["decided_by"]) == (True, [1], "points")
    assert state["standings"][0]["total"] > state["standings"][1]["total"]
    table.refuses_changes({2: paintings(3)})
    assert table.post("undo").status_code == 201
    assert table.state()["over"] is False


def test_a_paintings_tie_is_broken_by_the_tokens_the_players_enter(tmp_path: Path) -> None:
    table = Table(tmp_path, "paintings", scoring_cards=CARDS)
    assert table.scan({1: paintings(3), 2: paintings(3)}).status_code == 201
    state = table.state()
    # No board shows the tokens in hand: until both counts are entered the tie is shared.
    assert (state["over"], state["winner"], state["decided_by"]) == (True, [1, 2], "shared")
    assert state["standings"][0]["tie_breaks"] == []
    for seat, held in ((1, 2), (2, 5)):
        entered = table.client.post(
            f"/api/tables/{table.id}/tokens",
            json={"seat": seat, "tokens": held},
            headers=table.headers,
        )
        assert entered.status_code == 201
    state = table.state()
    assert (state["over"], state["winner"], state["decided_by"]) == (
        True,
        [2],
        "inspiration tokens",
    )
    assert [(s["seat"], s["rank"], s["tie_breaks"]) for s in state["standings"]] == [
        (2, 1, [{"criterion": "inspiration tokens", "value": 5}]),
        (1, 2, [{"criterion": "inspiration tokens", "value": 2}]),
    ]
    assert [p["tokens"] for p in state["players"]] == [2, 5]
    history = table.client.get(f"/api/tables/{table.id}/history").json["history"]
    assert history[0]["summary"] == "Inspiration tokens: Ben holds 5"
    assert table.post("undo").status_code == 201
    assert table.state()["decided_by"] == "shared"


def test_tokens_are_entered_at_paintings_tables_only_and_checked(tmp_path: Path) -> None:
    table = Table(tmp_path, "paintings", scoring_cards=CARDS)
    url = f"/api/tables/{table.id}/tokens"
    for body, error in (
        ({"seat": 3, "tokens": 1}, "seat: no player sits at seat 3"),
        ({"seat": 1, "tokens": -1}, "tokens: -1 is out of range (0..99)"),
        ({"seat": 1}, "tokens: missing"),
    ):
        answer = table.client.post(url, json=body, headers=table.headers)
        assert (answer.status_code, answer.json) == (400, {"error": error})
    assert table.client.post(url, json={"seat": 1, "tokens": 1}).status_code == 403
    field = Table(tmp_path / "field", "colorfield")
    answer = field.client.post(
        f"/api/tables/{field.id}/tokens", json={"seat": 1, "tokens": 1}, headers=field.headers
    )
    assert (answer.status_code, answer.json) == (
        409,
        {
            "error": "Inspiration tokens in hand are entered at Paintings tables: "
            "this table plays Color Field"
        },
    )


CONDITIONS = {"green": "grass", "blue": "shore", "brown": "desert", "red": "hamlet"}


def sheet(*cells: tuple[int, int, str]) -> dict[str, Any]:
    return {"game": "isle", "island": "default", "cells": [list(c) for c in cells]}


def test_isle_of_colors_ends_when_the_players_say_and_ties_are_shared(tmp_path: Path) -> None:
    table = Table(tmp_path, "isle", conditions=CONDITIONS)
    for _ in range(7):
        assert table.post("rounds").status_code == 201
    assert table.scan({1: sheet((4, 5, "red")), 2: sheet((2, 5, "red"))}).status_code == 201
    assert table.state()["over"] is False
    ended = table.post("end")
    assert ended.status_code == 201
    state = table.state()
    assert (state["over"], state["round"], state["winner"], state["decided_by"]) == (
        True,
        8,
        [1, 2],
        "shared",
    )
    table.refuses_changes({1: sheet()})
    assert table.post("undo").json["undoes"] == ended.json["event"]
    assert table.scan({1: sheet((4, 5, "red"), (2, 2, "red"))}).status_code == 201
    assert table.post("end").json["scores"]["winner"] == [1]
    history = table.client.get(f"/api/tables/{table.id}/history").json["history"]
    assert history[0]["summary"] == "Game ended by the players in round 8"


def test_only_isle_of_colors_is_ended_by_its_players(tmp_path: Path) -> None:
    table = Table(tmp_path, "colorfield")
    answer = table.post("end")
    assert (answer.status_code, answer.json) == (
        409,
        {"error": "a colorfield game ends by itself, after round 3"},
    )


def test_the_scoreboard_offers_end_game_only_where_players_end_it(tmp_path: Path) -> None:
    isle = Table(tmp_path / "isle", "isle", conditions=CONDITIONS)
    field = Table(tmp_path / "field", "colorfield")
    token = {"token": isle.headers["X-Table-Token"]}
    assert b'id="end-game"' in isle.client.get(f"/t/{isle.id}", query_string=token).data
    token = {"token": field.headers["X-Table-Token"]}
    assert b'id="end-game"' not in field.client.get(f"/t/{field.id}", query_string=token).data
