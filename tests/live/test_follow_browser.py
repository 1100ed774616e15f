"""The live address in a real browser: the scoreboard moves on with the live source from one
game's table to the next, the join token with it (Chromium, as the web's browser tests)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, expect

from companion.table.session import Created, Tables
from tests.chromium import WAIT_MS
from tests.live.fake_live import FakeLive
from tests.web.fake_reader import FakeReader
from web import create_app
from web.front import create_server

ISLE = {"conditions": {"green": "grass", "blue": "river", "brown": "caves", "red": "town"}}
PLAYERS = [{"name": "Ana"}, {"name": "Ben"}]


def fed_app(tmp_path: Path) -> tuple[Tables, list[Created], Flask]:
    """An app fed by a live source that has played one Color Field table so far; a table
    appended to the list is the source's next."""
    tables = Tables(tmp_path)
    fed: list[Created] = [tables.create({"game": "colorfield", "players": PLAYERS})]
    app = create_app({"DATA_DIR": tmp_path}, FakeReader(), tables=tables, live=FakeLive(fed))
    return tables, fed, app


def test_the_live_scoreboard_follows_the_demo_to_its_next_game(
    browser: Browser, tmp_path: Path
) -> None:
    tables, fed, app = fed_app(tmp_path)
    first = fed[0]
    running = create_server(app, host="127.0.0.1", port=0, threads=16)
    url = f"http://127.0.0.1:{running.effective_port}"
    threading.Thread(target=running.run, daemon=True).start()
    try:
        page = browser.new_context().new_page()
        page.goto(f"{url}/live?token={first.token}")
        expect(page).to_have_url(f"{url}/t/{first.table}?token={first.token}&follow=1")
        expect(page).to_have_title("Scores · Color Field")
        following = tables.create({"game": "isle", "players": PLAYERS, "options": ISLE})
        fed.append(following)
        expect(page).to_have_url(
            f"{url}/t/{following.table}?token={following.token}&follow=1", timeout=WAIT_MS
        )
        expect(page).to_have_title("Scores · Isle of Colors")
        expect(page.locator("#undo")).to_have_count(1)  # joined, not only watching
        # A scoreboard opened without following stays where it is.
        watcher = browser.new_context().new_page()
        watcher.goto(f"{url}/t/{first.table}")
        watcher.wait_for_timeout(3000)
        expect(watcher).to_have_url(re.compile(rf"/t/{first.table}$"))
    finally:
        running.close()
        tables.close()


@pytest.mark.slow  # the view polls the live table every two seconds
def test_the_camera_view_follows_the_demo_and_the_scoreboard_links_it(
    browser: Browser, tmp_path: Path
) -> None:
    tables, fed, app = fed_app(tmp_path)
    first = fed[0]
    client = app.test_client()
    assert client.get("/live/camera").status_code == 403
    assert client.get("/live/camera?token=wrong").status_code == 403
    running = create_server(app, host="127.0.0.1", port=0, threads=16)
    url = f"http://127.0.0.1:{running.effective_port}"
    threading.Thread(target=running.run, daemon=True).start()
    try:
        page = browser.new_context().new_page()
        page.goto(f"{url}/t/{first.table}?token={first.token}")
        page.get_by_role("link", name="Camera").click()
        expect(page).to_have_url(f"{url}/t/{first.table}/camera?token={first.token}")
        following = tables.create({"game": "isle", "players": PLAYERS, "options": ISLE})
        fed.append(following)
        # The first game's token opens the next game's view: whoever joined one joins the next.
        expect(page).to_have_url(
            f"{url}/t/{following.table}/camera?token={following.token}", timeout=WAIT_MS
        )
        expect(page).to_have_title("Camera · Isle of Colors")
        # Watchers see no link to the camera; a table no camera feeds has none.
        page.goto(f"{url}/t/{following.table}")
        expect(page.get_by_role("link", name="Camera")).to_have_count(0)
        other = tables.create({"game": "colorfield", "players": PLAYERS})
        page.goto(f"{url}/t/{other.table}?token={other.token}")
        expect(page.locator("nav")).to_contain_text("History")
        expect(page.get_by_role("link", name="Camera")).to_have_count(0)
    finally:
        running.close()
        tables.close()
