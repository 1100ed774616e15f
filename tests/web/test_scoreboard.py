"""The scoreboard page: the game and round, players best first, the points by category, the score
by round, the winner and the tie-break in words, the LED mirrors named; at a phone's size and a
tablet's. Positions are shown to the server by a reader that reads no pixels, so every number is
known."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, ViewportSize, expect

from companion.observation import BoardObservation
from companion.reading import PhotoReading, StoredViews
from tests.chromium import WAIT_MS
from tests.web.fake_reader import FakeReader
from tests.web.test_game_end import CARDS, CONDITIONS, canvas, paintings, pigments_board, sheet
from web import create_app
from web.front import create_server
from web.pages import PLAYER_COLOURS

PHONE: ViewportSize = {"width": 390, "height": 844}
TABLET: ViewportSize = {"width": 1024, "height": 768}
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
        return self.show(table, headers, boards)

    def show(
        self,
        table: str,
        headers: dict[str, str],
        boards: list[BoardObservation],
        views: StoredViews | None = None,
    ) -> Any:
        """A photo scanned that the reader reads as ``boards``, with their pictures ``views``."""
        self.reader.reading = PhotoReading(tuple(boards), dict(views or {}), 0.0)
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


def seats_in_order(page: Page) -> list[int]:
    return [
        int(s)
        for s in page.locator("#players .player").evaluate_all(
            "(cards) => cards.map((card) => card.dataset.seat)"
        )
    ]


def cell(page: Page, seat: int, category: str) -> Any:
    return page.locator(
        f'#category-table td[data-seat="{seat}"][data-category="{category}"] .value'
    )


def overlaps(page: Page) -> list[Any]:
    """Pairs of boxes that overlap: the cards with each other, and within each card the parts
    (place, name, total, badges, notes) with each other, once the cards stopped moving."""
    found: list[Any] = page.evaluate(
        """async () => {
            await Promise.all(document.getAnimations().map((motion) => motion.finished));
            const box = (node) => node.getBoundingClientRect();
            const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
            const found = [];
            const check = (nodes, what) => {
                const shown = nodes.filter((n) => box(n).width > 0 && box(n).height > 0);
                for (let i = 0; i < shown.length; i++)
                    for (let j = i + 1; j < shown.length; j++)
                        if (hit(box(shown[i]), box(shown[j])))
                            found.push(`${what}: ${shown[i].className} / ${shown[j].className}`);
            };
            const cards = [...document.querySelectorAll("#players .player")];
            check(cards, "cards");
            for (const card of cards) check([...card.children], `card ${card.dataset.seat}`);
            return found;
        }"""
    )
    return found


def no_missing_values(page: Page) -> None:
    text = page.locator("body").inner_text()
    assert "undefined" not in text and "null" not in text and "NaN" not in text


# The phone asks for less motion: its cards jump to their places, the tablet's glide.
@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_color_field_game_on_the_scoreboard(
    browser: Browser, server: Server, viewport: ViewportSize
) -> None:
    table, token = server.table("colorfield")
    still = viewport == PHONE
    context = browser.new_context(
        viewport=viewport,
        reduced_motion="reduce" if still else "no-preference",
    )
    page = context.new_page()
    page.goto(f"{server.url}/t/{table}")
    expect(page.locator("#live.on")).to_have_count(1, timeout=WAIT_MS)
    expect(page.locator("#game-name")).to_have_text("Color Field")
    expect(page.locator("#round")).to_have_text("Round 1")
    expect(page.locator("#turn")).to_have_text("Ana's turn")
    expect(page.locator("#chart")).to_be_hidden()  # no round banked yet
    assert seats_in_order(page) == [1, 2]

    server.scan(table, token, {1: canvas(11)})
    server.scan(table, token, {2: canvas(11)})
    server.post(table, token, "rounds")
    expect(page.locator("#round")).to_have_text("Round 2", timeout=WAIT_MS)
    expect(page.locator('#chart .series[data-seat="1"] .point')).to_have_count(1)
    # Ben's second canvas puts him ahead: his card moves first.
    server.scan(table, token, {2: canvas(11)})
    expect(page.locator('.player[data-seat="2"] .total')).to_have_text("22", timeout=WAIT_MS)
    assert seats_in_order(page) == [2, 1]
    if still:
        assert page.evaluate("() => document.getAnimations().length") == 0
    expect(cell(page, 2, "Earlier rounds")).to_have_text("11")
    expect(cell(page, 2, "Edges")).to_have_text("11")
    # Ben's canvas is still the round's first scan: random tiles are no primed canvas.
    expect(page.locator('.player[data-seat="2"] .badge.warn')).to_have_text("⚠ 1 rule warning")
    assert overlaps(page) == []
    server.scan(table, token, {1: canvas(11)})
    expect(page.locator('.player[data-seat="1"] .total')).to_have_text("22", timeout=WAIT_MS)
    assert seats_in_order(page) == [1, 2]  # tied: by seat
    server.post(table, token, "rounds")

    # Round 3: 12 points each, 34 in all; Ben's patch bonus 3 against Ana's 0 decides.
    server.scan(table, token, {1: canvas(1), 2: canvas(9)})
    server.post(table, token, "rounds")
    expect(page.locator("#winner")).to_have_text("Ben wins", timeout=WAIT_MS)
    expect(page.locator("#winner-screen")).to_be_visible()
    expect(page.locator("#decided")).to_have_text(
        "Tied on 34 points: the larger patch bonus breaks the tie."
    )
    expect(page.locator("#round")).to_have_text("Game over")
    expect(page.locator("#to-archive")).to_have_attribute("href", f"/archive#{table}")
    assert seats_in_order(page) == [2, 1]  # the winner first, though the places are equal
    names = ("Earlier rounds", "Edges", "Largest patch", "Total", "Unused Inspiration tokens")
    for seat, numbers in {1: ("22", "12", "0", "34", "3"), 2: ("22", "9", "3", "34", "1")}.items():
        for name, number in zip(names, numbers, strict=True):
            expect(cell(page, seat, name)).to_have_text(number)
    # One point per banked round, at each round's running total.
    for seat in (1, 2):
        points = page.locator(f'#chart .series[data-seat="{seat}"] .point')
        expect(points).to_have_count(3)
        name = ("Ana", "Ben")[seat - 1]
        expect(points.locator("title")).to_have_text(
            [f"{name}, round {r}: {v}" for r, v in ((1, 11), (2, 22), (3, 34))]
        )
    # The LED mirrors are named after the players and say who leads.
    expect(page.locator("#led figcaption")).to_have_text(
        ["Ana · leads", "Ben · leads"], timeout=WAIT_MS
    )
    expect(page.locator("#led .digits")).to_have_text(["      34", "      34"])
    assert overlaps(page) == []
    no_missing_values(page)


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

    field, token = server.table("colorfield", community_tools=True)
    server.post(field, token, "tools", {"card": "mahl-stick"})
    server.post(field, token, "tools", {"seat": 1, "declined": True})
    scores = server.post(field, token, "rounds")
    assert categories(scores, 1) == [
        ("Earlier rounds", 0),
        ("Edges", 0),
        ("Largest patch", 0),
        ("Community Tools", 0),
        ("Unused Inspiration tokens", 3),
    ]
    assert scores["players"][0]["categories"][3]["note"] == "Mahl Stick"

    isle, token = server.table("isle", conditions=CONDITIONS)
    scores = server.scan(isle, token, {1: sheet((4, 5, "red"), (2, 2, "red"))})
    assert categories(scores, 1) == [
        ("Green: grass", 0),
        ("Blue: shore", 0),
        ("Brown: desert", 0),
        ("Red: hamlet", 6),
    ]


def test_a_board_that_needs_a_look_shows_dashes_and_words(browser: Browser, server: Server) -> None:
    table, token = server.table("paintings", scoring_cards=CARDS)
    server.reader.reading = PhotoReading(
        (
            BoardObservation(
                "paintings", 1, ("paintings/board/1",), {}, 0.3, ("painting 1: unread",)
            ),
        ),
        {},
        0.0,
    )
    answer = server.client.post(
        f"/api/tables/{table}/scans",
        data={"image": (io.BytesIO(b"photo"), "p.jpg")},
        headers=token,
    )
    assert answer.status_code == 201, answer.json
    assert categories(answer.json["scores"], 1)[0] == ("Variety", None)
    page = browser.new_context(viewport=PHONE).new_page()

    # Never scored, the board needing a look: 0, marked unsure (no score kept from before).
    assert answer.json["scores"]["players"][0]["unsure"] is True
    page.goto(f"{server.url}/t/{table}")
    expect(page.locator(".player.unsure")).to_have_count(1)
    expect(page.locator(".player.unsure .badge.unsure")).to_have_text("≈ earlier score kept")
    expect(page.locator("#game-name")).to_have_text("Paintings")
    expect(page.locator('.player[data-seat="1"] .badge.warn')).to_have_text("⚠ Board needs a look")
    expect(cell(page, 1, "Variety")).to_have_text("—")
    expect(page.locator("#chart")).to_be_hidden()  # Paintings banks no rounds
    assert overlaps(page) == []
    no_missing_values(page)
