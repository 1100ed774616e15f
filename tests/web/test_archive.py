"""Past games: finished tables as an archive (who won, how, each player's total after every round
or scan), simple stats by player name, the JSON and the page at a phone's size and a tablet's.
Games are played through the session API with hand-made positions and a clock that ticks a
minute per write, so every number and date is known."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from companion.fields import Field
from companion.observation import BoardObservation
from companion.table.archive import PastGame, PastPlayer, past_game, player_stats
from companion.table.session import Tables
from tests.chromium import WAIT_MS
from tests.web.fake_reader import FakeReader
from tests.web.test_game_end import CONDITIONS, canvas, pigments_board, sheet
from tests.web.test_scoreboard import PHONE, TABLET, Server, no_missing_values
from web import create_app

START = 1_709_380_800.0  # Saturday 2 March 2024, 12:00 UTC
RED, BLUE, GREEN = "#d62728", "#1f77b4", "#2ca02c"


def ticking(start: float = START) -> Callable[[], float]:
    """A clock a minute further on at every call."""
    minutes = itertools.count()
    return lambda: start + 60 * next(minutes)


def scan(tables: Tables, table: str, positions: dict[int, dict[str, Any]]) -> None:
    tables.scan(
        table,
        [
            BoardObservation(p["game"], seat, (f"{p['game']}/board/{seat}",), p, 0.99, ())
            for seat, p in positions.items()
        ],
    )


def create(tables: Tables, game: str, names: list[str], **options: Any) -> str:
    players = [{"name": n, "colour": c} for n, c in zip(names, (RED, BLUE, GREEN), strict=False)]
    return tables.create({"game": game, "players": players, "options": options}).table


def color_field(tables: Tables) -> str:
    """Ana and Ben tie on 34; Ben's patch bonus wins (tests/web/test_game_end.py)."""
    table = create(tables, "colorfield", ["Ana", "Ben"])
    for _ in range(2):
        scan(tables, table, {1: canvas(11), 2: canvas(11)})
        tables.end_round(table)
    scan(tables, table, {1: canvas(1), 2: canvas(9)})
    tables.end_round(table)
    return table


def pigment_lab(tables: Tables) -> str:
    """Ana spills 3 chips (-2) after the first scan; a scan taken back is no step; Ana wins."""
    table = create(tables, "pigments", ["Ana", "Ben"])
    scan(tables, table, {1: pigments_board(("small",)), 2: pigments_board(("small",))})
    tables.enter_spill(table, Field({"seat": 1, "chips": 3}))
    for _ in range(4):
        tables.end_round(table)
    scan(tables, table, {2: pigments_board(("small", "large"))})
    tables.undo(table)
    scan(tables, table, {1: pigments_board(("small", "large")), 2: pigments_board(("small",))})
    tables.end_round(table)
    return table


def isle(tables: Tables) -> str:
    """'  ana ' (Ana again) and Cy tie: a shared win."""
    table = create(tables, "isle", ["  ana ", "Cy"], conditions=CONDITIONS)
    scan(tables, table, {1: sheet((4, 5, "red")), 2: sheet((2, 5, "red"))})
    tables.end_game(table)
    return table


def archived(tables: Tables, table: str) -> PastGame | None:
    return past_game(tables.state(table), tables.events(table))


def end_time(tables: Tables, table: str) -> float:
    return tables.events(table)[-1].at


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Tables]:
    opened = Tables(tmp_path / "data", ticking())
    yield opened
    opened.close()


def test_a_finished_game_with_each_players_total_after_every_round(tables: Tables) -> None:
    table = color_field(tables)
    assert archived(tables, table) == PastGame(
        table,
        "colorfield",
        START + 60 * 6,  # the table's creation, then six changes: the last ended the game
        (
            PastPlayer("Ben", BLUE, 34, 1, (11, 22, 34)),
            PastPlayer("Ana", RED, 34, 2, (11, 22, 34)),
        ),
        "patch bonus",
        3,
        3,
        ("Round 1", "Round 2", "Round 3"),
    )
    game = archived(tables, table)
    assert game is not None
    assert (game.title, game.result, game.length, game.decided) == (
        "Color Field",
        "Ben won",
        "3 rounds, 3 scans",
        "Tied on 34 points: the larger patch bonus breaks the tie.",
    )
    # Reopened by undo, the game is no past game; ended again, it ends at the new end.
    tables.undo(table)
    assert archived(tables, table) is None
    tables.end_round(table)
    game = archived(tables, table)
    assert game is not None and game.ended == end_time(tables, table) == START + 60 * 8


def test_elsewhere_a_step_is_a_scan_with_what_followed_it(tables: Tables) -> None:
    table = pigment_lab(tables)
    game = archived(tables, table)
    assert game is not None
    assert (game.steps, game.scans, game.rounds, game.decided_by) == (
        ("Scan 1", "Scan 2"),
        2,
        5,
        "points",
    )
    # Ana: 2 points, less 2 for her Spill Line, then 11 less 2; Ben's 2 points throughout.
    assert [(p.name, p.total, p.history) for p in game.players] == [
        ("Ana", 9, (0, 9)),
        ("Ben", 2, (2, 2)),
    ]


def test_players_stats_match_names_whatever_their_case_and_spaces(tables: Tables) -> None:
    games = [archived(tables, make(tables)) for make in (color_field, pigment_lab, isle)]
    assert all(games)
    shared = games[2]
    assert shared is not None and (shared.result, shared.decided_by) == (
        "ana and Cy shared the win",
        "shared",
    )
    stats = player_stats(g for g in games if g is not None)
    assert [s.to_json() for s in stats] == [
        {
            "name": "ana",
            "colour": RED,
            "played": 3,
            "wins": 2,
            "win_rate": 0.667,
            "record": "2 wins in 3 games (67%)",
            "games": [
                {
                    "game": "colorfield",
                    "title": "Color Field",
                    "played": 1,
                    "wins": 0,
                    "average": 34.0,
                    "best": 34,
                    "words": "Color Field: 1 game, 0 wins, average 34, best 34",
                },
                {
                    "game": "isle",
                    "title": "Isle of Colors",
                    "played": 1,
                    "wins": 1,
                    "average": 3.0,
                    "best": 3,
                    "words": "Isle of Colors: 1 game, 1 win, average 3, best 3",
                },
                {
                    "game": "pigments",
                    "title": "Pigment Lab",
                    "played": 1,
                    "wins": 1,
                    "average": 9.0,
                    "best": 9,
                    "words": "Pigment Lab: 1 game, 1 win, average 9, best 9",
                },
            ],
        },
        {
            "name": "Cy",
            "colour": BLUE,
            "played": 1,
            "wins": 1,
            "win_rate": 1.0,
            "record": "1 win in 1 game (100%)",
            "games": [
                {
                    "game": "isle",
                    "title": "Isle of Colors",
                    "played": 1,
                    "wins": 1,
                    "average": 3.0,
                    "best": 3,
                    "words": "Isle of Colors: 1 game, 1 win, average 3, best 3",
                }
            ],
        },
        {
            "name": "Ben",
            "colour": BLUE,
            "played": 2,
            "wins": 1,
            "win_rate": 0.5,
            "record": "1 win in 2 games (50%)",
            "games": [
                {
                    "game": "colorfield",
                    "title": "Color Field",
                    "played": 1,
                    "wins": 1,
                    "average": 34.0,
                    "best": 34,
                    "words": "Color Field: 1 game, 1 win, average 34, best 34",
                },
                {
                    "game": "pigments",
                    "title": "Pigment Lab",
                    "played": 1,
                    "wins": 0,
                    "average": 2.0,
                    "best": 2,
                    "words": "Pigment Lab: 1 game, 0 wins, average 2, best 2",
                },
            ],
        },
    ]


def test_an_average_keeps_its_half_point() -> None:
    def played(ended: float, total: int, rank: int) -> PastGame:
        ana = PastPlayer(" Ana", RED, total, rank, ())
        return PastGame("t", "colorfield", ended, (ana,), "points", 3, 3, ())

    [ana] = player_stats([played(2.0, 23, 2), played(1.0, 34, 1)])
    assert (ana.name, ana.played, ana.wins, ana.win_rate) == ("Ana", 2, 1, 0.5)
    assert ana.games[0].to_json()["words"] == "Color Field: 2 games, 1 win, average 28.5, best 34"


def test_the_archive_json_lists_finished_games_newest_first(tables: Tables) -> None:
    field, lab = color_field(tables), pigment_lab(tables)
    playing = create(tables, "isle", ["Ana", "Ben"], conditions=CONDITIONS)
    client: Any = create_app({"DATA_DIR": tables.store.path.parent}, FakeReader(), tables=tables)
    client = client.test_client()
    listed = client.get("/api/archive").json
    assert [g["table"] for g in listed["games"]] == [lab, field]
    assert listed["games"][1] == {
        "table": field,
        "game": "colorfield",
        "title": "Color Field",
        "ended": end_time(tables, field),
        "rounds": 3,
        "scans": 3,
        "length": "3 rounds, 3 scans",
        "winners": ["Ben"],
        "result": "Ben won",
        "decided_by": "patch bonus",
        "decided": "Tied on 34 points: the larger patch bonus breaks the tie.",
        "players": [
            {"name": "Ben", "colour": BLUE, "total": 34, "rank": 1, "winner": True},
            {"name": "Ana", "colour": RED, "total": 34, "rank": 2, "winner": False},
        ],
    }
    assert [(p["name"], p["record"]) for p in listed["players"]] == [
        ("Ana", "1 win in 2 games (50%)"),
        ("Ben", "1 win in 2 games (50%)"),
    ]
    # Reopened, a game leaves the archive; ended again, it comes back with its new end.
    tables.undo(lab)
    assert [g["table"] for g in client.get("/api/archive").json["games"]] == [field]
    tables.end_round(lab)
    again = client.get("/api/archive").json["games"]
    assert [(g["table"], g["ended"]) for g in again] == [(lab, end_time(tables, lab)), (field, ANY)]
    full = client.get(f"/api/archive/{lab}").json
    assert (full["steps"], [p["history"] for p in full["players"]]) == (
        ["Scan 1", "Scan 2"],
        [[0, 9], [2, 2]],
    )
    for path, error in (
        (f"/api/archive/{playing}", f"table {playing!r} is still being played: "),
        ("/api/archive/0000000z", "no table '0000000z'"),
    ):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json["error"].startswith(error)
    # Join tokens are never published, in the JSON or on the page.
    everything = b"".join(
        client.get(path).data
        for path in ("/api/archive", f"/api/archive/{field}", f"/api/archive/{lab}", "/archive")
    )
    for table in (field, lab, playing):
        assert tables.token(table).encode() not in everything


def test_an_empty_archive_says_so(tmp_path: Path) -> None:
    client: Any = create_app({"DATA_DIR": tmp_path}, FakeReader()).test_client()
    assert client.get("/api/archive").json == {"games": [], "players": []}
    assert b"Past games" in client.get("/").data


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_past_games_on_a_phone_and_a_tablet(
    browser: Browser, tmp_path: Path, viewport: ViewportSize
) -> None:
    # Two games played on 2 March 2024, then one today on the running server.
    made = Tables(tmp_path / "data", ticking())
    field, lab = color_field(made), pigment_lab(made)
    made.close()
    server = Server(tmp_path)
    try:
        today = isle(server.app.extensions["atelier"].tables)
        context = browser.new_context(viewport=viewport, timezone_id="UTC")
        page = context.new_page()
        # The tablet comes from a winner screen's link: that game opens by itself.
        opened = viewport == TABLET
        page.goto(f"{server.url}/archive" + (f"#{lab}" if opened else ""))
        rows = page.locator(".past summary")
        expect(rows).to_have_count(3, timeout=WAIT_MS)
        order = page.locator(".past").evaluate_all("(games) => games.map((g) => g.dataset.table)")
        assert order == [today, lab, field]
        assert [" | ".join(r.inner_text().split("\n")) for r in rows.all()] == [
            "Isle of Colors | Today | ★ ana and Cy shared the win | A | ana | 3 | C | Cy | 3",
            "Pigment Lab | Saturday 2 March 2024 | ★ Ana won | A | Ana | 9 | B | Ben | 2",
            "Color Field | Saturday 2 March 2024 | ★ Ben won | B | Ben | 34 | A | Ana | 34",
        ]
        game = page.locator(f'.past[data-table="{lab}"]')
        if not opened:
            game.locator("summary").click()
        expect(game.locator(".past-decided")).to_have_text("With the most points: 9.")
        expect(game.locator(".past-body .small")).to_have_text("5 rounds, 2 scans")
        expect(game.locator(".past-steps tbody tr")).to_have_count(2)
        cells = game.locator(".past-steps tr").evaluate_all(
            "(rows) => rows.map((row) => [...row.cells].map((cell) => cell.textContent))"
        )
        assert cells == [["Scan", "A Ana", "B Ben"], ["Scan 1", "0", "2"], ["Scan 2", "9", "2"]]
        expect(game.locator('.series[data-seat="1"] .point title')).to_have_text(
            ["Ana, scan 1: 0", "Ana, scan 2: 9"]
        )
        expect(page.locator(".stat-record")).to_have_text(
            ["2 wins in 3 games (67%)", "1 win in 1 game (100%)", "1 win in 2 games (50%)"]
        )
        expect(page.locator(".stat h3")).to_have_text(["A ana", "C Cy", "B Ben"])
        no_missing_values(page)
        text = page.locator("body").inner_text()
        assert not any(table in text for table in (field, lab, today))
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        context.close()
    finally:
        server.close()
