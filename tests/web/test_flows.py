"""A whole evening as players live it, in a real browser: a tablet starts the table from the start
form, a phone joins by the table's code and is allowed by the tablet, scans its board, corrects a
misread cell by tapping it on the drawn map, undoes the correction, and the tablet ends the game
and shows the winner. Every page on the way is read as a player reads it: no missing values, no
ids, no labels over each other, and a board that needs a look never shows a false score."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.observation import BoardObservation
from companion.positions import evaluate_document
from companion.reading import PhotoReading
from companion.samples import random_position
from tests.chromium import WAIT_MS, choose_photo
from tests.web.page_checks import assert_no_overlaps, assert_no_raw_text
from tests.web.test_picker import misread
from tests.web.test_scoreboard import PHONE, TABLET, Server
from web.codes import grouped
from web.services import services_of


def read_as_a_player(page: Page, *labels: str) -> None:
    """The page as a player sees it: nothing raw, and the labels ``labels`` apart."""
    assert_no_raw_text(page)
    for selector in labels:
        assert_no_overlaps(page, selector)


def start_from_the_form(tablet: Page, url: str) -> tuple[str, str]:
    """The start form, filled and sent as a person would; the table's id and join token."""
    tablet.goto(f"{url}/")
    read_as_a_player(tablet, "form label, form button")
    tablet.select_option("#game", "isle")
    tablet.fill('input[name="name_1"]', "Ana")
    tablet.fill('input[name="name_2"]', "Ben")
    tablet.get_by_role("button", name="Start").click()
    tablet.wait_for_url("**/t/*?token=*", timeout=WAIT_MS)
    table, _, token = tablet.url.split("/t/")[1].partition("?token=")
    return table, token


def join_by_code(phone: Page, tablet: Page, url: str, code: str, seat_page: str) -> None:
    """The phone finds the join form from the start page, types ``code``, says it is Ana, the
    tablet allows it: the phone is on ``seat_page``, the table's join link to Ana's seat."""
    phone.goto(f"{url}/")
    phone.get_by_role("link", name="Join with the table's code").click()
    read_as_a_player(phone, "h1, label, button")
    phone.fill("#code", code)
    phone.get_by_role("button", name="Join").click()
    expect(phone.locator("h1")).to_have_text("Who are you?")
    phone.get_by_role("button", name="Ana", exact=True).click()
    ask = tablet.locator(".join-ask")
    expect(ask).to_contain_text("A phone wants to join as Ana", timeout=WAIT_MS)
    ask.get_by_role("button", name="Allow").click()
    phone.wait_for_url(seat_page, timeout=WAIT_MS)
    expect(phone.locator("#who-text")).to_have_text("You are Ana")


def scan(phone: Page, server: Server, tmp_path: Path, board: BoardObservation) -> None:
    """A photo taken on the scan page, read by the server as ``board``."""
    server.reader.reading = PhotoReading((board,), {}, 0.0)
    # A new file each time: choosing the same file again is no change to the input.
    picture = tmp_path / f"board-{len(server.reader.photos)}.jpg"
    picture.write_bytes(b"a photo")
    choose_photo(phone, str(picture))


@pytest.mark.slow  # two browser contexts through nine page loads: about 10 s
def test_an_isle_game_from_the_start_form_to_the_winner(browser: Browser, tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        tablet = browser.new_context(viewport=TABLET).new_page()
        phone = browser.new_context(viewport=PHONE).new_page()
        table, token = start_from_the_form(tablet, server.url)
        code = grouped(services_of(server.app).codes.code(table))
        expect(tablet.locator("#table-code")).to_have_text(code)
        read_as_a_player(tablet, "#players .player", "header > *")

        seat_page = f"{server.url}/t/{table}/seat/1?token={token}"
        join_by_code(phone, tablet, server.url, code.replace("-", "").lower(), seat_page)
        read_as_a_player(phone, "#who-bar > *, nav a")

        # The table's conditions as the form chose them: the score to expect is the engine's.
        conditions = server.client.get(f"/api/tables/{table}").json["setup"]["options"]
        position: dict[str, Any] = {
            **random_position("isle", random.Random(3)),
            "conditions": conditions["conditions"],
        }
        total = evaluate_document(position, "test").data["total"]
        cell = next(c for c in position["cells"] if c[2] == "red")
        name = f"cell ({cell[0]},{cell[1]})"

        phone.get_by_role("link", name="Scan").click()
        read_as_a_player(phone, "nav a, label, button")
        seen = {key: value for key, value in position.items() if key != "conditions"}
        whole = BoardObservation("isle", 1, ("isle/board/1",), seen, 0.99, ())
        scan(phone, server, tmp_path, whole)
        # Read whole first: the same board with every cell sure.
        expect(phone.locator('.reading[data-seat="1"] .total')).to_have_text(
            f"{total} points", timeout=WAIT_MS
        )
        player = tablet.locator('.player[data-seat="1"]')
        expect(player.locator(".total")).to_have_text(str(total), timeout=WAIT_MS)

        # A red cell read unsure: the board needs a look, and Ana keeps her score, marked unsure.
        unsure = misread("isle", position, name, None, "faint red or brown", "red", "brown")
        scan(phone, server, tmp_path, unsure)
        expect(phone.locator('.reading[data-seat="1"] h2')).to_have_text(
            "Ana's board: needs a look", timeout=WAIT_MS
        )
        expect(player.locator(".badge.unsure")).to_have_text(
            "≈ earlier score kept", timeout=WAIT_MS
        )
        expect(player.locator(".total")).to_have_text(str(total))
        read_as_a_player(phone, ".reading h2, .isle-map text")

        # Corrected by tapping the cell on the drawn map and picking the red pencil.
        phone.locator(f'.isle-map [data-component="{name}"]').click()
        expect(phone.locator("#fix-grid .pick-label").first).to_have_text("R · red")
        phone.locator('#fix-grid .pick[data-value="red"]').click()
        expect(phone.locator('.reading[data-seat="1"] .total')).to_have_text(f"{total} points")
        expect(player.locator(".badge.unsure")).to_have_count(0, timeout=WAIT_MS)

        # The correction undone from the history: the board needs its look again.
        phone.get_by_role("link", name="History").click()
        history = phone.locator("#history li")
        expect(history.first).to_contain_text("Ana's board corrected")
        read_as_a_player(phone, "#history li, nav a")
        phone.get_by_role("button", name="Undo").click()
        expect(history.nth(0)).to_contain_text("Undone:", timeout=WAIT_MS)
        expect(phone.locator("#history li.undone")).to_contain_text("Ana's board corrected")
        expect(player.locator(".badge.unsure")).to_have_count(1, timeout=WAIT_MS)
        read_as_a_player(phone, "#history li")

        # Scanned again, read whole; the tablet ends the game and names the winner.
        phone.get_by_role("link", name="Scan").click()
        scan(phone, server, tmp_path, whole)
        expect(player.locator(".badge.unsure")).to_have_count(0, timeout=WAIT_MS)
        tablet.get_by_role("button", name="End game").click()
        expect(tablet.locator("#winner")).to_have_text("Ana wins", timeout=WAIT_MS)
        expect(tablet.locator("#winner-screen")).to_be_visible()
        expect(tablet.get_by_role("button", name="End game")).to_be_hidden()
        read_as_a_player(tablet, "#players .player", "#winner-screen > *")
        tablet.goto(f"{server.url}/")
        expect(tablet.locator(".tables li")).to_have_text("Isle of Colors: Ana, Ben · game over")
    finally:
        server.close()
