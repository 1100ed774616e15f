"""The live loop on its own thread feeding tables: the demo's games scored hands-free, each on a
table of its own, a camera that vanishes and returns, and ``atelier serve`` refusing a bad source
or bad stability settings."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.cli.live import LiveChoice, choose_source, start_live
from companion.cli.main import build_parser
from companion.cli.serve import steadiness
from companion.errors import SourceError
from companion.live.setups import DEMO_PLAYERS
from companion.positions import evaluate_document
from companion.table.events import SCAN
from companion.table.session import Created, Tables
from tests.cli import assert_user_error, atelier_main
from tests.live.video import SEED, render, scanner
from vision.capture.latest import Capture
from vision.images import Image
from vision.live.demo import DemoGame, DemoSource, Shot, demo_games, scripted_game
from vision.live.loop import LiveLoop, LiveReader, Views
from vision.live.stability import Accepted, Settings

GAMES = {game.script.game: game for game in demo_games(len(DEMO_PLAYERS))}
WAIT_S = 60.0  # the most a test waits for the live thread (the games last seconds)
POLL_S = 0.1


def openings(names: list[str], repeat: bool = False) -> LiveChoice:
    """Demo games cut to their opening table, held 4 s each: a short game of each (the second
    rendered while the first stays in view)."""
    cut = [GAMES[name] for name in names]
    played = [DemoGame(g.script, g.seed, (Shot(g.script.opening, None, 4.0),)) for g in cut]
    source = DemoSource(played, repeat)
    players = [{"name": player} for player in DEMO_PLAYERS]
    setups = tuple(
        {"game": g.script.game, "players": players, "options": g.script.options} for g in cut
    )
    return LiveChoice(source, setups, source.game_at)


def scores(tables: Tables, created: Created) -> list[int]:
    state = tables.state(created.table)
    return [state.total(seat) for seat in range(1, len(DEMO_PLAYERS) + 1)]


def opening_totals(name: str) -> list[int]:
    script = GAMES[name].script
    return [
        evaluate_document({**b, **script.options}, "truth").data["total"] for b in script.opening
    ]


def scanned_seats(tables: Tables, created: Created) -> list[list[int]]:
    events = [e for e in tables.events(created.table) if e.kind == SCAN]
    return [[b["seat"] for b in e.data["boards"]] for e in events]


def test_the_demo_plays_its_games_in_turn_each_on_a_table_of_its_own(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    messages: list[str] = []
    play = start_live(tables, openings(["colorfield", "isle"]), messages.append)
    try:
        assert play.wait(timeout=WAIT_S)
    finally:
        play.stop()
    first, second = play.fed()
    assert [tables.state(c.table).setup.game for c in (first, second)] == ["colorfield", "isle"]
    assert messages == [
        f"live: Color Field on table {first.table}",
        "live: scan #1 (seat 1, 2)",
        f"live: Isle of Colors on table {second.table}",
        "live: scan #2 (seat 1, 2)",  # event ids count across the data folder's tables
        "demo: ended",
    ]
    assert scanned_seats(tables, first) == scanned_seats(tables, second) == [[1, 2]]
    assert scores(tables, first) == opening_totals("colorfield")
    assert scores(tables, second) == opening_totals("isle")
    # The camera view of any table the demo fed shows what the camera sees now.
    newest = play.view(second.table)
    assert newest is not None and newest[:2] == b"\xff\xd8"
    assert play.view(first.table) == newest
    assert play.view("0badc0de") is None
    tables.close()


def test_the_demo_starts_again_on_a_new_table_that_gets_every_board(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    messages: list[str] = []
    play = start_live(tables, openings(["colorfield"], repeat=True), messages.append)
    try:
        for _ in range(round(WAIT_S / POLL_S)):
            if len(messages) >= 4:  # the second game's table made and scanned
                break
            threading.Event().wait(POLL_S)
        playing = not play.wait(timeout=0)
    finally:
        play.stop()
    assert playing  # a demo plays on until stopped
    first, again = [m.rsplit(" ", 1)[1] for m in messages if " on table " in m][:2]
    # The boards read in the first game are news again to the second game's table, which
    # replaced the first one's.
    assert messages[:4] == [
        f"live: Color Field on table {first}",
        "live: scan #1 (seat 1, 2)",
        f"live: Color Field on table {again}",
        "live: scan #2 (seat 1, 2)",
    ]
    (kept,) = play.fed()
    assert tables.ids() == [kept.table] == [again]
    assert scanned_seats(tables, kept)[:1] == [[1, 2]]
    assert scores(tables, kept) == opening_totals("colorfield")
    tables.close()


class Vanishing:
    """A camera showing one table, unplugged once its boards were read, plugged back in on
    another."""

    name = "camera 7"
    fps = None
    finite = False

    def __init__(self, before: Image, after: Image, unplugged: threading.Event) -> None:
        self.images = (before, after)
        self.unplugged = unplugged
        self.opens = 0

    def open(self) -> None:
        self.opens += 1

    def read(self) -> Image | None:
        threading.Event().wait(0.02)
        if self.opens == 1 and self.unplugged.is_set():
            return None
        return self.images[min(self.opens, 2) - 1]

    def close(self) -> None:
        return None


def test_a_camera_that_vanishes_is_reported_and_read_again_when_it_returns() -> None:
    shots = scripted_game(SEED)
    before, after = render(shots[0].positions), render(shots[2].positions)
    messages: list[str] = []
    accepted: list[list[Accepted]] = []
    unplugged, done = threading.Event(), threading.Event()

    def accept(found: Sequence[Accepted], _: Views) -> None:
        accepted.append(list(found))
        unplugged.set()
        if len(accepted) == 2:
            done.set()

    capture = Capture(Vanishing(before, after, unplugged), messages.append, retry_s=0.05)
    reader = LiveReader(accept, Settings(hold_s=0.2), scanner())
    loop = LiveLoop(capture, reader)
    capture.start()
    loop.start()
    try:
        assert done.wait(timeout=WAIT_S)
    finally:
        loop.stop()
    assert messages == ["camera 7: lost; retrying every 0.05 s", "camera 7: back"]
    assert [[a.observation.player for a in found] for found in accepted] == [[1, 2], [1]]


def test_serve_refuses_a_missing_video_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "table.mp4"
    run = atelier_main("serve", "--video", missing, "--data", tmp_path / "data")
    assert_user_error(run, f"{missing}: no such file, folder, camera index or stream URL")
    assert not (tmp_path / "data").exists()


def test_no_live_option_means_a_table_scanned_from_phones_only() -> None:
    assert choose_source(None, None, False) is None
    camera = choose_source(3, None, False)
    assert camera is not None
    assert camera.source.name == "camera 3"
    assert camera.setups == (
        {
            "game": "colorfield",
            "players": [{"name": f"Seat {seat}"} for seat in (1, 2, 3, 4)],
            "options": {},
        },
    )
    assert [camera.game_at(index) for index in (1, 1000, 10**6)] == [0, 0, 0]


def test_the_demo_choice_is_every_game_round_and_round() -> None:
    demo = choose_source(None, None, True)
    assert demo is not None
    assert (demo.source.name, demo.source.finite) == ("demo", False)
    assert [s["game"] for s in demo.setups] == ["colorfield", "paintings", "isle", "pigments"]
    assert all(s["players"] == [{"name": "Ana"}, {"name": "Ben"}] for s in demo.setups)


class Unplugged:
    name = "camera 5"
    fps = None
    finite = False

    def open(self) -> None:
        raise SourceError(self.name, "cannot be opened (not a camera or stream that answers)")

    def read(self) -> Image | None:
        return None

    def close(self) -> None:
        return None


def test_a_camera_that_cannot_be_opened_fails_before_a_table_is_made(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    with pytest.raises(SourceError, match=r"^camera 5: cannot be opened \(not a camera or"):
        setup = {"game": "colorfield", "players": [{"name": "Ana"}]}
        start_live(tables, LiveChoice(Unplugged(), (setup,)), lambda _: None)
    assert tables.ids() == []
    tables.close()


def test_serve_takes_the_stability_settings() -> None:
    parse = build_parser().parse_args
    assert steadiness(parse(["serve", "--demo"])) == Settings()
    chosen = steadiness(parse(["serve", "--camera", "0", "--settle", "0.3", "--votes", "7"]))
    assert chosen == Settings(hold_s=0.3, window=7, min_frames=3, max_change=6.0)
    assert steadiness(parse(["serve", "--demo", "--settle", "0", "--votes", "3"])) == Settings(
        hold_s=0.0, window=3
    )
    assert steadiness(parse(["serve", "--demo", "--settle", "10", "--votes", "30"])) == Settings(
        hold_s=10.0, window=30
    )


def test_serve_with_good_stability_settings_goes_on_to_open_the_source(tmp_path: Path) -> None:
    missing = tmp_path / "table.mp4"
    run = atelier_main("serve", "--video", missing, "--settle", "0.5", "--votes", "9")
    assert_user_error(run, f"{missing}: no such file, folder, camera index or stream URL")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--settle", "-0.1"], "atelier: --settle: -0.1 is out of range (0..10)"),
        (["--settle", "10.5"], "atelier: --settle: 10.5 is out of range (0..10)"),
        (["--settle", "nan"], "atelier: --settle: nan is out of range (0..10)"),
        (["--settle", "soon"], "atelier serve: argument --settle: invalid float value: 'soon'"),
        (["--votes", "2"], "atelier: --votes: 2 is out of range (3..30)"),
        (["--votes", "31"], "atelier: --votes: 31 is out of range (3..30)"),
        (["--votes", "4.5"], "atelier serve: argument --votes: invalid int value: '4.5'"),
    ],
)
def test_serve_refuses_bad_stability_settings_in_one_line(
    tmp_path: Path, args: list[str], error: str
) -> None:
    run = atelier_main("serve", "--demo", "--data", tmp_path / "data", *args)
    assert_user_error(run, error)
    assert not (tmp_path / "data").exists()


def test_stability_settings_need_a_live_source(tmp_path: Path) -> None:
    run = atelier_main("serve", "--data", tmp_path / "data", "--votes", "5")
    assert_user_error(run, "atelier: --votes: only with --camera, --video or --demo")
    run = atelier_main("serve", "--data", tmp_path / "data", "--settle", "1")
    assert_user_error(run, "atelier: --settle: only with --camera, --video or --demo")
    assert not (tmp_path / "data").exists()


def test_serve_help_explains_the_stability_settings() -> None:
    run = atelier_main("serve", "--help")
    assert run.status == 0
    text = " ".join(run.stdout.split())
    assert "--settle SECONDS live: how long a board's reading must hold still" in text
    assert "(0..10, default 0.06)" in text
    assert "--votes N live: how many recent clean frames vote" in text
    assert "(3..30, default 5)" in text
