"""Never a false 0: a board that needs a look (a hand over a tile, a glare) leaves the seat's
last confirmed score in place, marked unsure, until a correction or a new scan scores it; the
scoreboard, the standings and the LED displays all show the kept total."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from companion.observation import BoardObservation, ComponentRead, GameOptions, score_observation
from companion.reading import PhotoReading
from companion.samples import random_position
from firmware_bridge.driver import DisplayDriver
from firmware_bridge.emulator import Emulator, state_json
from firmware_bridge.follow import ScoreFollower, scene_for
from firmware_bridge.transport import SerialPort
from tests.web.conftest import Client
from tests.web.fake_reader import FakeReader
from tests.web.test_game_end import CARDS, CONDITIONS, paintings, sheet
from tests.web.test_game_end import Table as GameTable
from tests.web.test_led import wait_for
from vision.benchmark import TRUTH
from web import create_app
from web.services import services_of

TWO = [{"name": "Ana"}, {"name": "Ben"}]
COVERED = "space 1: covered by a hand"


def canvas(seed: int) -> dict[str, Any]:
    return random_position("colorfield", random.Random(seed))


def observe(position: dict[str, Any], seat: int, covered: bool = False) -> BoardObservation:
    """A Color Field canvas as the camera reports it; ``covered``: space 1 under a hand."""
    components = tuple(
        ComponentRead(name, None, 0.0, COVERED)
        if covered and name == "space 1"
        else ComponentRead(name, value, 0.99, None)
        for name, value in TRUTH["colorfield"](position).items()
    )
    return BoardObservation(
        "colorfield",
        seat,
        (f"colorfield/canvas/{seat}",),
        position,
        0.99,
        (COVERED,) if covered else (),
        components,
    )


class Table:
    """A two-player Color Field table on an app whose reader reads what the test shows it."""

    def __init__(self, tmp_path: Path, led_state: Any = None) -> None:
        self.reader = FakeReader()
        self.app = create_app({"DATA_DIR": tmp_path}, self.reader, led_state=led_state)
        self.client: Client = self.app.test_client()
        body = {"game": "colorfield", "players": TWO}
        made: Any = self.client.post("/api/tables", json=body).json
        self.id = made["id"]
        self.headers = {"X-Table-Token": made["token"]}

    def scan(self, *boards: BoardObservation) -> Any:
        self.reader.reading = PhotoReading(tuple(boards), {}, 0.0)
        answer = self.client.post(
            f"/api/tables/{self.id}/scans",
            data={"image": (io.BytesIO(b"photo"), "p.jpg")},
            headers=self.headers,
        )
        assert answer.status_code == 201, answer.json
        return answer.json

    def post(self, path: str, body: Any = None) -> Any:
        answer = self.client.post(f"/api/tables/{self.id}/{path}", json=body, headers=self.headers)
        assert answer.status_code == 201, answer.json
        return answer.json

    def state(self) -> Any:
        return self.client.get(f"/api/tables/{self.id}").json

    def player(self, seat: int) -> Any:
        return self.state()["players"][seat - 1]


def space_1(position: dict[str, Any]) -> Any:
    return TRUTH["colorfield"](position)["space 1"]


def seeds_with_space_1() -> tuple[int, int]:
    """Two canvases with a tile on space 1 and different totals: the covered one differs."""
    found = [s for s in range(100) if space_1(canvas(s)) is not None]
    return found[0], next(s for s in found[1:] if _total(s) != _total(found[0]))


def _total(seed: int) -> int:
    scored = score_observation(observe(canvas(seed), 1), GameOptions())
    assert scored.score is not None
    return int(scored.score["total"])


def test_a_hand_over_a_tile_keeps_the_last_score_marked_unsure(tmp_path: Path) -> None:
    first, second = seeds_with_space_1()
    table = Table(tmp_path)
    scored = table.scan(observe(canvas(first), 1), observe(canvas(second), 2))
    kept = scored["scores"]["players"][0]["total"]
    assert kept == _total(first) and kept > 0
    places = [p["place"] for p in scored["scores"]["players"]]
    assert [p["unsure"] for p in scored["scores"]["players"]] == [False, False]

    split = scored["scores"]["players"][0]["categories"]
    covered = table.scan(observe(canvas(second), 1, covered=True))
    ana = covered["scores"]["players"][0]
    assert (ana["total"], ana["unsure"]) == (kept, True)
    # The score sheet splits the kept score, as the total shows it, not the unread board.
    assert ana["categories"] == split
    # The scan still says what it saw: no score, one problem.
    assert (ana["board_total"], ana["problems"]) == (None, 1)
    assert [p["place"] for p in covered["scores"]["players"]] == places
    state = table.state()
    assert (state["players"][0]["total"], state["players"][0]["unsure"]) == (kept, True)
    assert state["players"][1]["unsure"] is False
    assert state["standings"][[s["seat"] for s in state["standings"]].index(1)]["total"] == kept
    seat = table.client.get(f"/api/tables/{table.id}/seats/1").json
    assert (seat["total"], seat["unsure"], seat["board"]["score"]) == (kept, True, None)
    assert seat["board"]["problems"] == [COVERED]
    history = table.client.get(f"/api/tables/{table.id}/history").json
    summaries = [e["summary"] for e in history["history"]]
    assert "Ana's board scanned: needs a look (1 problem)" in summaries

    # A correction that scores the board clears the mark with the board's own total.
    scan = state["players"][0]["scan"]
    value = space_1(canvas(second))
    table.post("corrections", {"scan": scan, "seat": 1, "component": "space 1", "value": value})
    ana = table.player(1)
    assert (ana["total"], ana["unsure"]) == (_total(second), False)

    # Undo takes the correction back: the kept score and the mark return; undo again, the
    # covered scan goes and the scored board is in effect again.
    table.post("undo")
    ana = table.player(1)
    assert (ana["total"], ana["unsure"]) == (kept, True)
    table.post("undo")
    ana = table.player(1)
    assert (ana["total"], ana["unsure"], ana["board"]["score"]["total"]) == (kept, False, kept)


def test_a_new_scan_that_scores_clears_the_mark(tmp_path: Path) -> None:
    first, second = seeds_with_space_1()
    table = Table(tmp_path)
    table.scan(observe(canvas(first), 1))
    table.scan(observe(canvas(first), 1, covered=True))
    assert table.player(1)["unsure"] is True
    table.scan(observe(canvas(second), 1))
    ana = table.player(1)
    assert (ana["total"], ana["unsure"]) == (_total(second), False)


def test_a_board_never_scored_shows_0_marked_unsure(tmp_path: Path) -> None:
    first, _ = seeds_with_space_1()
    table = Table(tmp_path)
    players = table.scan(observe(canvas(first), 1, covered=True))["scores"]["players"]
    # Ana's 0 is no score read but none known: unsure. Ben, never scanned, is a plain 0.
    assert [(p["total"], p["unsure"]) for p in players] == [(0, True), (0, False)]


def test_color_field_keeps_only_a_score_of_the_round_being_played(tmp_path: Path) -> None:
    first, second = seeds_with_space_1()
    table = Table(tmp_path)
    table.scan(observe(canvas(first), 1))
    ended = table.post("rounds")
    assert ended["scores"]["players"][0]["round_scores"] == [_total(first)]
    # Round 2: the canvas is laid anew, so round 1's board is no guess at it; the banked round
    # stands, the round being played adds nothing until a board of it scores.
    table.scan(observe(canvas(second), 1, covered=True))
    ana = table.player(1)
    assert (ana["total"], ana["unsure"]) == (_total(first), True)
    table.scan(observe(canvas(second), 1))
    table.scan(observe(canvas(first), 1, covered=True))
    ana = table.player(1)
    assert (ana["total"], ana["unsure"]) == (_total(first) + _total(second), True)
    # The round's end banks the kept score, as the scoreboard showed it: a banked round is a
    # record, no longer unsure once over.
    ended = table.post("rounds")
    assert ended["scores"]["players"][0]["round_scores"] == [_total(first), _total(second)]
    ana = table.player(1)
    assert (ana["total"], ana["unsure"]) == (_total(first) + _total(second), False)


def scan_unreadable(table: GameTable, game: str, seat: int, position: dict[str, Any]) -> None:
    """A scan of ``seat``'s board with one problem (a hand over a card or a cell)."""
    board = BoardObservation(
        game, seat, (f"{game}/board/{seat}",), position, 0.99, ("covered by a hand",)
    )
    table.reader.reading = PhotoReading((board,), {}, 0.0)
    answer = table.client.post(
        f"/api/tables/{table.id}/scans",
        data={"image": (io.BytesIO(b"photo"), "p.jpg")},
        headers=table.headers,
    )
    assert answer.status_code == 201, answer.json


def test_paintings_does_not_end_on_a_third_painting_that_needs_a_look(tmp_path: Path) -> None:
    table = GameTable(tmp_path, "paintings", scoring_cards=CARDS)
    assert table.scan({1: paintings(2), 2: paintings(3)}).status_code == 201
    two = table.state()["players"][0]["total"]
    assert two > 0
    scan_unreadable(table, "paintings", 1, paintings(3))
    state = table.state()
    assert (state["over"], state["players"][0]["total"], state["players"][0]["unsure"]) == (
        False,
        two,
        True,
    )
    assert table.scan({1: paintings(3)}).json["scores"]["over"] is True
    assert table.state()["players"][0]["unsure"] is False


def test_an_isle_game_ended_by_its_players_keeps_the_mark(tmp_path: Path) -> None:
    table = GameTable(tmp_path, "isle", conditions=CONDITIONS)
    assert table.scan({1: sheet((4, 5, "red")), 2: sheet((2, 5, "red"))}).status_code == 201
    kept = table.state()["players"][0]["total"]
    scan_unreadable(table, "isle", 1, sheet((4, 5, "red"), (2, 2, "red")))
    assert table.post("end").status_code == 201
    state = table.state()
    ana = state["players"][0]
    assert (state["over"], ana["total"], ana["unsure"]) == (True, kept, True)
    assert state["winner"] == [1, 2]


def test_the_scene_blinks_the_unsure_totals() -> None:
    scene = scene_for((12, 30, 0), (2, 1, 3), (True, False, True))
    assert scene.contents == (12, 30, 0)
    assert scene.highlight == frozenset({1})
    assert scene.blink == frozenset({0, 2})
    assert scene_for((12, 30), (2, 1)).blink == frozenset()


def test_the_led_displays_show_the_kept_total_blinking(tmp_path: Path) -> None:
    first, second = seeds_with_space_1()
    kept = _total(first)
    with Emulator() as emulator:
        table = Table(tmp_path, led_state=lambda: state_json(emulator.state))
        tables = services_of(table.app).tables
        with DisplayDriver(lambda: SerialPort(emulator.path)) as driver:
            tables.listen(ScoreFollower(tables, driver))
            table.scan(observe(canvas(first), 1), observe(canvas(second), 2))
            table.scan(observe(canvas(second), 1, covered=True))
            shown = f"{kept:>8}"

            def shows(blinking: list[bool]) -> bool:
                led: Any = state_json(emulator.state)
                return bool(led["displays"][0] == shown and led["blink"][:2] == blinking)

            assert wait_for(lambda: shows([True, False]))
            assert table.client.get("/api/led").json["blink"][:2] == [True, False]
            # Undo of the covered scan: the same total, from the board in effect, steady.
            table.post("undo")
            assert wait_for(lambda: shows([False, False]))
        tables.close()
