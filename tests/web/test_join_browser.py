"""Joining like a party game in a real browser: a phone types the table's code, says who it is,
a tablet already at the table allows it, and the phone lands on its seat and keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.chromium import WAIT_MS
from tests.web.page_checks import assert_no_overlaps
from tests.web.test_scoreboard import PHONE, TABLET, Server
from web.codes import grouped
from web.services import services_of


# Two browser contexts and six page loads: 5 to 10 s on a loaded two-core machine.
@pytest.mark.slow
def test_a_phone_joins_by_code_and_a_tablet_at_the_table_allows_it(
    browser: Browser, tmp_path: Path
) -> None:
    server = Server(tmp_path)
    try:
        table, headers = server.table("colorfield")
        code = grouped(services_of(server.app).codes.code(table))
        token = headers["X-Table-Token"]

        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(f"{server.url}/join")
        phone.fill("#code", code.lower())
        phone.get_by_role("button", name="Join").click()
        expect(phone.locator("h1")).to_have_text("Who are you?")
        expect(phone.locator(".who-name")).to_have_text(["Ana", "Ben"])
        assert_no_overlaps(phone, ".who-list li, h1, .small")
        phone.get_by_role("button", name="Ben", exact=True).click()
        expect(phone.locator("#waiting-text")).to_have_text("Asking to play as Ben…")

        tablet = browser.new_context(viewport=TABLET).new_page()
        tablet.goto(f"{server.url}/t/{table}?token={token}")
        expect(tablet.locator("#table-code")).to_have_text(code)
        ask = tablet.locator(".join-ask")
        expect(ask).to_contain_text("A phone wants to join as Ben", timeout=WAIT_MS)
        ask.get_by_role("button", name="Allow").click()
        expect(ask).to_have_count(0)

        phone.wait_for_url(f"**/t/{table}/seat/2?token={token}", timeout=WAIT_MS)
        expect(phone.locator("#who-text")).to_have_text("You are Ben")
        words = phone.locator("body").inner_text()
        assert "undefined" not in words and table not in words and token not in words
        assert_no_overlaps(phone, "#who-bar > *")
        # The phone keeps its seat: opening /join or the table again takes it back there.
        for address in ("/join", f"/t/{table}"):
            phone.goto(f"{server.url}{address}")
            phone.wait_for_url(f"**/t/{table}/seat/2?token={token}", timeout=WAIT_MS)

        # A page without the token watches, and offers to play.
        tablet.goto(f"{server.url}/t/{table}")
        expect(tablet.locator("#who-text")).to_have_text("Watching")
        expect(tablet.locator("#join-to-play")).to_have_attribute("href", f"/join/{code}")
        # A device that came with the join link itself says which player it is.
        tablet.goto(f"{server.url}/t/{table}/seat/1?token={token}")
        tablet.get_by_role("button", name="I am Ana").click()
        expect(tablet.locator("#who-text")).to_have_text("You are Ana")
    finally:
        server.close()
