"""The leaderboard page in Chromium, on a phone and a tablet: every table in words (online or
not), the standings per game, live as tables publish."""

from __future__ import annotations

import threading
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.broker.hub_fixtures import publish, running_hub, table_client
from tests.broker.scoreboards import scoreboard
from tests.mosquitto import Mosquitto
from tests.web.page_checks import assert_contrast, assert_no_overlaps, assert_no_raw_text
from tests.web.test_scoreboard import PHONE, TABLET
from web.broker.hub_app import create_hub_app
from web.broker.protocol import (
    event_payload,
    server_status_topic,
    state_payload,
    status_payload,
    table_events_topic,
    table_state_topic,
)
from web.front import create_server


def test_the_leaderboard_page_reads_well_on_a_phone_and_a_tablet(
    browser: Browser, mosquitto: Mosquitto, tmp_path: Path
) -> None:
    boards = {
        "t1": ("pi-1", scoreboard(tmp_path / "a", "pigments", ["Ada", "Ben", "Cleo"], [14, 22, 9])),
        "t2": ("pi-2", scoreboard(tmp_path / "b", "pigments", ["Dev", "Eli"], [30, 3])),
        "t3": ("pi-2", scoreboard(tmp_path / "c", "colorfield", ["Fay", "Gus"], [41, 40])),
    }
    with running_hub(mosquitto) as hub, table_client(mosquitto) as table:
        publish(table, server_status_topic("hall", "pi-1"), status_payload("pi-1", True, 1.0), True)
        publish(
            table, server_status_topic("hall", "pi-2"), status_payload("pi-2", False, 1.0), True
        )
        for seq, (name, (computer, scores)) in enumerate(boards.items(), start=1):
            publish(
                table,
                table_state_topic("hall", name),
                state_payload(computer, name, seq, 1.0, scores),
                True,
            )
        publish(
            table,
            table_events_topic("hall", "t1"),
            event_payload("pi-1", "t1", 4, "scan", "Ben scanned a board", 2.0),
        )
        hub.until(lambda: hub.board.read(lambda b: len(b.tables()) == 3), "three tables")
        server = create_server(create_hub_app(hub.board, {}), "127.0.0.1", 0, threads=8)
        serving = threading.Thread(target=server.run)
        serving.start()
        try:
            url = f"http://127.0.0.1:{server.effective_port}/"
            for viewport in (PHONE, TABLET):
                page = browser.new_context(viewport=viewport).new_page()
                page.goto(url)
                cards = page.locator(".hub-table")
                expect(cards).to_have_count(3)
                expect(page.locator("#counts")).to_have_text("3 tables, 2 offline")
                expect(page.locator('[data-key="hall/t1"] .hub-online')).to_have_text("● Online")
                expect(page.locator('[data-key="hall/t2"] .hub-online')).to_contain_text("Offline")
                expect(page.locator('[data-key="hall/t1"]')).to_contain_text("Ben scanned a board")
                pigments = page.locator('.hub-game[data-game="pigments"] tbody tr')
                expect(pigments).to_have_count(5)
                expect(pigments.first).to_contain_text("Dev" if viewport is PHONE else "Ada")
                assert_no_raw_text(page)
                assert_contrast(page)
                assert_no_overlaps(page, ".hub-table h3, .hub-online")
                assert_no_overlaps(page, ".hub-players li > *")
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= viewport["width"], "the page scrolls sideways"
                # Live: a scan at a table reorders the standings on the open page.
                scores = boards["t1"][1]
                scores["players"][0]["total"] = 50
                scores["players"][0]["place"] = 1
                seq = 10 if viewport is PHONE else 11
                publish(
                    table,
                    table_state_topic("hall", "t1"),
                    state_payload("pi-1", "t1", seq, 3.0, scores),
                    True,
                )
                expect(pigments.first).to_contain_text("Ada")
                page.context.close()
        finally:
            hub.board.close()  # the open pages' streams end at once, as when the hub stops
            server.close()
            serving.join()
