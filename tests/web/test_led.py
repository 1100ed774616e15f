"""The LED displays follow the scoreboard; the emulator's digits show on the scoreboard page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from firmware_bridge.driver import DisplayDriver
from firmware_bridge.emulator import Emulator, state_json
from firmware_bridge.follow import ScoreFollower, scene_for
from firmware_bridge.transport import SerialPort
from tests.web.conftest import SEAT, new_table
from tests.web.test_api import upload
from vision.photos import PhotoReader
from web import create_app
from web.services import services_of

Client = Any


def wait_for(check: Any, limit: float = 10.0) -> bool:
    """Poll ``check`` until it holds; the limit guards against a hang, it is no speed claim."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_the_scene_shows_totals_by_seat_and_lights_the_leaders() -> None:
    scene = scene_for((12, 30, 30, 4, 9), (3, 1, 1, 4, 2))
    assert scene.contents == (12, 30, 30, 4)
    assert scene.highlight == frozenset({1, 2})


def test_the_displays_follow_an_accepted_scan(
    tmp_path: Path, reader: PhotoReader, photo: dict[str, Any]
) -> None:
    with Emulator() as emulator:
        app = create_app(
            {"DATA_DIR": tmp_path}, reader, led_state=lambda: state_json(emulator.state)
        )
        tables = services_of(app).tables
        with DisplayDriver(lambda: SerialPort(emulator.path)) as driver:
            tables.listen(ScoreFollower(tables, driver))
            client: Client = app.test_client()
            table, token = new_table(client)
            assert upload(client, table, photo["jpeg"], token).status_code == 201
            expected = ["       0", "       0", "       0", "      11"]
            assert wait_for(lambda: state_json(emulator.state)["displays"] == expected)
            led = client.get("/api/led").json
            assert led["displays"] == expected
            assert led["highlight"][SEAT - 1] is True
            page = client.get(f"/t/{table}")
            assert b'id="led"' in page.data
        tables.close()


def test_without_displays_there_is_no_led_endpoint_nor_strip(client: Client) -> None:
    assert client.get("/api/led").status_code == 404
    table, _token = new_table(client)
    assert b'id="led"' not in client.get(f"/t/{table}").data
