"""The camera view: the live frame annotated, and the web page that shows it to a table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from companion.observation import Unreadable
from companion.table.session import Created, Tables
from tests.live.fake_live import FakeLive
from tests.live.video import SEED, SETTINGS, render, scanner
from tests.web.fake_reader import FakeReader
from vision.capture.latest import Frame
from vision.live.debug import COVERED, STEADY, UNREADABLE, debug_jpeg, debug_picture
from vision.live.demo import scripted_game
from vision.live.loop import LiveReader, Seen
from vision.scan.registration import register
from web import create_app

SHOTS = scripted_game(SEED)
CONDITIONS = {"conditions": {"green": "grass", "blue": "river", "brown": "caves", "red": "town"}}


def seen_with_a_hand() -> Seen:
    reader = LiveReader(lambda *_: None, SETTINGS, scanner())
    reader.process(Frame(render(SHOTS[0].positions), 1, 0.0))
    reader.process(Frame(render(SHOTS[1].positions, hand_over=0), 2, 0.2))
    assert reader.latest is not None
    return reader.latest


def test_boards_are_outlined_red_when_covered_and_green_when_steady() -> None:
    seen = seen_with_a_hand()
    picture = debug_picture(seen, scanner().index, SETTINGS)
    sightings = {
        s.layout.key: s for s in register(seen.observation.markers, scanner().index).boards
    }
    colours = {}
    for key, sighting in sightings.items():
        if not key.startswith("colorfield/canvas/"):
            continue
        corners = sighting.to_image(np.asarray(sighting.layout.outline.corners(), np.float64))
        # Along the right-hand edge, clear of any label, the outline is drawn 2 px wide.
        x, y = np.round((corners[1] + corners[2]) / 2).astype(int)
        colours[key] = tuple(int(v) for v in picture[y, x])
    assert colours == {"colorfield/canvas/1": COVERED, "colorfield/canvas/2": STEADY}


def test_the_camera_view_is_a_jpeg_no_wider_than_the_browser_needs() -> None:
    data = debug_jpeg(seen_with_a_hand(), scanner().index, SETTINGS)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    assert image.shape == (720, 1280, 3)


def test_the_camera_page_shows_the_live_tables_frame_to_its_players(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    live = tables.create({"game": "colorfield", "players": [{"name": "Ana"}]})
    other = tables.create({"game": "colorfield", "players": [{"name": "Ben"}]})
    unfed = create_app({"DATA_DIR": tmp_path}, FakeReader(), tables=tables).test_client()
    assert unfed.get(f"/t/{live.table}/camera?token={live.token}").status_code == 404
    camera = FakeLive([live], {live.table: b"\xff\xd8jpeg"})
    app = create_app({"DATA_DIR": tmp_path}, FakeReader(), tables=tables, live=camera)
    client = app.test_client()
    page = client.get(f"/t/{live.table}/camera?token={live.token}")
    assert page.status_code == 200
    assert f'src="/t/{live.table}/camera.jpg?token={live.token}"' in page.get_data(as_text=True)
    frame = client.get(f"/t/{live.table}/camera.jpg?token={live.token}")
    assert (frame.status_code, frame.mimetype, frame.data) == (200, "image/jpeg", b"\xff\xd8jpeg")
    assert frame.headers["Cache-Control"] == "no-store"
    # Without the join token, or for a table no camera feeds, there is nothing to see.
    assert client.get(f"/t/{live.table}/camera").status_code == 403
    assert client.get(f"/t/{live.table}/camera.jpg?token=wrong").status_code == 403
    assert client.get(f"/t/{other.table}/camera.jpg?token={other.token}").status_code == 404
    assert client.get("/t/0badc0de/camera").status_code == 404
    tables.close()


def test_the_live_address_opens_the_scoreboard_of_the_game_played_now(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    unfed = create_app({"DATA_DIR": tmp_path}, FakeReader(), tables=tables).test_client()
    assert unfed.get("/live").status_code == 404  # no live source feeds this server
    assert unfed.get("/api/live").status_code == 404
    fed: list[Created] = []
    app = create_app({"DATA_DIR": tmp_path}, FakeReader(), tables=tables, live=FakeLive(fed))
    client = app.test_client()
    assert client.get("/live").status_code == 404  # nor before it has fed a table
    first = tables.create({"game": "colorfield", "players": [{"name": "Ana"}]})
    now = tables.create({"game": "isle", "players": [{"name": "Ana"}], "options": CONDITIONS})
    fed.append(first)
    assert client.get("/api/live").get_json() == {"table": first.table}
    fed.append(now)
    assert client.get("/api/live").get_json() == {"table": now.table}
    # The join token of a table the live source fed before passes on to the one fed now.
    joined = client.get(f"/live?token={first.token}")
    assert joined.status_code == 302
    assert joined.headers["Location"] == f"/t/{now.table}?token={now.token}&follow=1"
    # Without it, or with another token, the scoreboard is only watched.
    for asked in ("/live", "/live?token=wrong"):
        assert client.get(asked).headers["Location"] == f"/t/{now.table}?follow=1"
    page = client.get(f"/t/{now.table}?token={now.token}&follow=1").get_data(as_text=True)
    assert f'data-follow="/live?token={now.token}"' in page
    assert 'data-follow="/live"' in client.get(f"/t/{now.table}?follow=1").get_data(as_text=True)
    assert "data-follow" not in client.get(f"/t/{now.table}").get_data(as_text=True)
    tables.close()


def test_markers_seen_but_not_decodable_are_boxed_with_why() -> None:
    seen = seen_with_a_hand()
    problem = "markers seen but not decodable: 2 candidates at 8.6 px per marker cell (...)"
    unread = Unreadable((40, 40, 120, 100), 2, 8.6, "too blurred", problem)
    seen = replace(seen, observation=replace(seen.observation, unreadable=(unread,)))
    picture = debug_picture(seen, scanner().index, SETTINGS)
    # Along the right-hand edge, clear of the label, the box is drawn 2 px wide.
    assert tuple(int(v) for v in picture[90, 160]) == UNREADABLE
