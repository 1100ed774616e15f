"""Real browsers on a real server: Debian's Chromium driven by Playwright (tests/chromium.py)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.chromium import WAIT_MS, choose_photo
from tests.web.conftest import PLAYERS, SEAT
from vision.photos import PhotoReader
from web import create_app
from web.front import create_server


@pytest.fixture
def server(tmp_path: Path, reader: PhotoReader) -> Iterator[str]:
    app = create_app({"DATA_DIR": tmp_path / "data", "SSE_KEEPALIVE": 1.0}, reader)
    running = create_server(app, host="127.0.0.1", port=0, threads=16)
    url = f"http://127.0.0.1:{running.effective_port}"
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    yield url
    running.close()
    app.extensions["atelier"].tables.close()


def call(url: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"X-Table-Token": token} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    method = "GET" if body is None and token is None else "POST"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


PRESSED = "Pressed: it matches the card"
NO_MATCH = "Nothing happens: it does not match the card (a wrong guess is free)"


def total_of(page: Page, seat: int) -> Any:
    return page.locator(f'.player[data-seat="{seat}"] .total')


def set_hidden(page: Page, hidden: bool) -> None:
    """What a phone does when its screen sleeps and wakes: the page hides, then shows."""
    page.evaluate(
        """(hidden) => {
            Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_a_scan_from_a_phone_shows_on_another_screen_live(
    browser: Browser, server: str, photo: dict[str, Any], tmp_path: Path
) -> None:
    made = call(f"{server}/api/tables", {"game": "colorfield", "players": PLAYERS})
    table, token = made["id"], made["token"]
    tablet = browser.new_context().new_page()
    tablet.goto(f"{server}/t/{table}?token={token}")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server}/t/{table}")
    expect(total_of(watcher, SEAT)).to_have_text("0")
    expect(watcher.locator("#live.on")).to_have_count(1, timeout=WAIT_MS)

    phone = browser.new_context().new_page()
    phone.goto(f"{server}/t/{table}/scan?token={token}")
    picture = tmp_path / "table.jpg"
    picture.write_bytes(photo["jpeg"])
    choose_photo(phone, str(picture))
    expect(phone.locator(f'.reading[data-seat="{SEAT}"] .total')).to_have_text(
        "11 points", timeout=WAIT_MS
    )
    # The other screen, never reloaded, shows the score and marks the change.
    expect(total_of(watcher, SEAT)).to_have_text("11", timeout=WAIT_MS)
    expect(watcher.locator(f'.player.changed[data-seat="{SEAT}"]')).to_have_count(1)
    # A random canvas of Round tiles is no primed canvas: the round's first scan warns of it.
    expect(watcher.locator("#last")).to_have_text("Dee's board scanned: 11 points, 1 warning")

    # A tap on a component corrects it: space 1 turned once more scores 10.
    space = photo["position"]["spaces"][0]
    phone.locator('[data-component="space 1"]').click()
    expect(phone.locator("#fix-grid .pick.picked")).to_have_attribute("data-value", space["tile"])
    phone.locator("#fix-rotate").click()
    phone.locator("#fix-save").click()
    expect(phone.locator(f'.reading[data-seat="{SEAT}"] .total')).to_have_text("10 points")
    expect(total_of(watcher, SEAT)).to_have_text("10", timeout=WAIT_MS)

    tablet.locator("#undo").click()
    expect(total_of(watcher, SEAT)).to_have_text("11", timeout=WAIT_MS)
    tablet.locator("#undo").click()
    expect(total_of(watcher, SEAT)).to_have_text("0", timeout=WAIT_MS)

    # The player's view draws the board as last seen, with its components outlined.
    phone.goto(f"{server}/t/{table}/scan?token={token}")
    choose_photo(phone, str(picture))
    expect(total_of(watcher, SEAT)).to_have_text("11", timeout=WAIT_MS)
    player = browser.new_context().new_page()
    player.goto(f"{server}/t/{table}/seat/{SEAT}")
    expect(player.locator("#total")).to_have_text("11", timeout=WAIT_MS)
    expect(player.locator("#board img")).to_have_count(1)
    expect(player.locator("#board polygon.region")).to_have_count(6)


def test_a_viewer_that_slept_catches_up_exactly(browser: Browser, server: str) -> None:
    made = call(f"{server}/api/tables", {"game": "pigments", "players": PLAYERS})
    table, token = made["id"], made["token"]
    viewer = browser.new_context().new_page()
    viewer.goto(f"{server}/t/{table}")
    expect(viewer.locator("#live.on")).to_have_count(1, timeout=WAIT_MS)
    expect(viewer.locator("#round")).to_have_text("Round 1")
    set_hidden(viewer, True)
    expect(viewer.locator("#live.on")).to_have_count(0)
    for _ in range(3):
        call(f"{server}/api/tables/{table}/rounds", token=token)
    call(f"{server}/api/tables/{table}/undo", token=token)
    viewer.wait_for_timeout(300)
    expect(viewer.locator("#round")).to_have_text("Round 1")  # asleep: nothing arrived
    set_hidden(viewer, False)
    expect(viewer.locator("#round")).to_have_text("Round 3", timeout=WAIT_MS)
    expect(viewer.locator("#last")).to_have_text("Undone: Round 3 ended: Ana 0, Ben 0, Cy 0, Dee 0")
    history = browser.new_context().new_page()
    history.goto(f"{server}/t/{table}/history")
    expect(history.locator("#history li")).to_have_count(4, timeout=WAIT_MS)
    expect(history.locator("#history li.undone")).to_have_count(1)


def test_the_scoreboard_names_the_winner_once_the_game_is_over(
    browser: Browser, server: str
) -> None:
    made = call(f"{server}/api/tables", {"game": "pigments", "players": PLAYERS[:2]})
    table, token = made["id"], made["token"]
    tablet = browser.new_context().new_page()
    tablet.goto(f"{server}/t/{table}?token={token}")
    expect(tablet.locator("#live.on")).to_have_count(1, timeout=WAIT_MS)
    expect(tablet.locator("#winner")).to_be_hidden()
    for _ in range(5):
        call(f"{server}/api/tables/{table}/rounds", token=token)
    # No pan pressed: equal on points and on large pans, so the win is shared.
    expect(tablet.locator("#winner")).to_have_text("Ana and Ben share the win", timeout=WAIT_MS)
    expect(tablet.locator("#decided")).to_have_text(
        "Tied on 0 points and on every tie-break the table knows."
    )
    expect(tablet.locator("#round")).to_have_text("Game over")
    expect(tablet.locator("#end-round")).to_be_hidden()
    tablet.reload()
    expect(tablet.locator("#winner")).to_have_text("Ana and Ben share the win")
    expect(tablet.locator("#end-round")).to_be_hidden()
    tablet.locator("#undo").click()
    expect(tablet.locator("#end-round")).to_be_visible(timeout=WAIT_MS)
    expect(tablet.locator("#winner")).to_be_hidden()


def test_spill_lines_and_diagnoses_are_entered_with_a_tap(browser: Browser, server: str) -> None:
    made = call(f"{server}/api/tables", {"game": "pigments", "players": PLAYERS[:2]})
    table, token = made["id"], made["token"]
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{server}/t/{table}?token={token}")
    expect(phone.locator("#live.on")).to_have_count(1, timeout=WAIT_MS)
    ana = phone.locator('form.penalty[data-seat="1"]')
    ana.locator('input[name="chips"]').fill("4")
    ana.get_by_role("button", name="Save").click()
    expect(total_of(phone, 1)).to_have_text("-4", timeout=WAIT_MS)
    ana.get_by_role("button", name="Diagnosis wrong").click()
    expect(total_of(phone, 1)).to_have_text("-5", timeout=WAIT_MS)
    details = phone.locator('.player[data-seat="1"] .penalty-line')
    expect(details).to_have_text(
        ["Round 1 Spill Line: 4 chips, -4 points", "Round 1 Fault diagnosis: wrong, -1 point"]
    )
    phone.locator("#undo").click()
    expect(total_of(phone, 1)).to_have_text("-4", timeout=WAIT_MS)


def test_an_isle_roll_is_entered_with_a_tap(browser: Browser, server: str) -> None:
    conditions = {"green": "grass", "blue": "shore", "brown": "desert", "red": "hamlet"}
    setup = {"game": "isle", "players": PLAYERS[:2], "options": {"conditions": conditions}}
    made = call(f"{server}/api/tables", setup)
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{server}/t/{made['id']}?token={made['token']}")
    expect(phone.locator("#live.on")).to_have_count(1, timeout=WAIT_MS)
    phone.get_by_role("button", name="4", exact=True).click()
    expect(phone.locator("#round")).to_have_text("Round 1 · roll 4", timeout=WAIT_MS)
    expect(phone.locator('button[data-roll="4"]')).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("#last")).to_have_text("Roll: 4 in round 1")
    phone.locator("#end-round").click()
    expect(phone.locator("#round")).to_have_text("Round 2", timeout=WAIT_MS)
    expect(phone.locator('button[data-roll="4"]')).to_have_attribute("aria-pressed", "false")


def test_a_player_asks_for_a_suggested_move_on_their_phone(browser: Browser, server: str) -> None:
    conditions = {"green": "grass", "blue": "shore", "brown": "desert", "red": "hamlet"}
    setup = {"game": "isle", "players": PLAYERS[:2], "options": {"conditions": conditions}}
    made = call(f"{server}/api/tables", setup)
    table, token = made["id"], made["token"]
    call(f"{server}/api/tables/{table}/rolls", {"roll": 3}, token)
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{server}/t/{table}/seat/2?token={token}")
    phone.get_by_role("button", name="Suggest").click()
    expect(phone.locator("#suggest-error")).to_have_text(
        "hand: expected 2 entries, got 0", timeout=WAIT_MS
    )
    phone.get_by_label("green").check()
    phone.get_by_label("red").check()
    phone.get_by_role("button", name="Suggest").click()
    # A round's look-ahead on an open sheet is some 5 s of work, more on a loaded machine.
    expect(phone.locator("#advice")).to_contain_text("(roll 3)", timeout=4 * WAIT_MS)
    expect(phone.locator("#suggest-error")).to_have_text("")
    # Opened without the join link, the page only watches: no suggestions.
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server}/t/{table}/seat/2")
    expect(watcher.locator("#suggest")).to_have_count(0)


def test_a_community_tools_card_and_a_decline_are_entered_with_a_tap(
    browser: Browser, server: str
) -> None:
    setup = {"game": "colorfield", "players": PLAYERS[:2], "options": {"community_tools": True}}
    made = call(f"{server}/api/tables", setup)
    table, token = made["id"], made["token"]
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{server}/t/{table}?token={token}")
    expect(phone.locator("#live.on")).to_have_count(1, timeout=WAIT_MS)
    ana = phone.locator('#tools input[data-seat="1"]')
    expect(ana).to_be_disabled()  # nothing to decline before a card is entered
    phone.select_option("#tool-card", "mahl-stick")
    expect(ana).to_be_enabled(timeout=WAIT_MS)
    ana.check()
    expect(phone.locator("#last")).to_have_text(
        "Community Tools: Ana declines round 1's card", timeout=WAIT_MS
    )
    phone.locator("#end-round").click()
    expect(phone.locator('.player[data-seat="1"] .penalty-line')).to_have_text(
        "Round 1 Mahl Stick: declined, 0 points", timeout=WAIT_MS
    )
    # Round 2 starts without a card, and so does the control.
    expect(phone.locator("#tool-card")).to_have_value("")
    expect(ana).not_to_be_checked()


def test_the_start_form_offers_the_seats_of_the_chosen_game(browser: Browser, server: str) -> None:
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{server}/")
    rows = phone.locator(".player-row:visible")
    phone.locator("#game").select_option("paintings")
    expect(rows).to_have_count(5)
    phone.locator("#game").select_option("isle")
    expect(rows).to_have_count(4)
    expect(phone.get_by_label("name of seat 5")).to_be_disabled()
    icon = phone.locator('link[rel="icon"]').get_attribute("href")
    assert urllib.request.urlopen(f"{server}{icon}", timeout=20).status == 200


def test_the_recipe_checker_page(browser: Browser, server: str) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{server}/recipes")
    page.select_option("#shade", "coral")
    page.select_option("#pan", "medium")
    for chip in ("Fe2O3", "FeO(OH)", "binder"):
        page.locator(f'[data-chip="{chip}"]').click()
    expect(page.locator("#verdict-word")).to_have_text(PRESSED, timeout=WAIT_MS)


def test_the_recipe_checker_page_shows_a_cards_recipe_only_when_asked(
    browser: Browser, server: str
) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{server}/recipes")
    page.select_option("#shade", "coral")
    page.select_option("#pan", "medium")
    for chip in ("Fe2O3", "Fe2O3", "binder"):
        page.locator(f'[data-chip="{chip}"]').click()
    expect(page.locator("#verdict-word")).to_have_text(NO_MATCH, timeout=WAIT_MS)
    explanation = page.locator("#verdict .explanation")
    expect(explanation).to_contain_text("a different recipe that gives the same colour as coral.")
    expect(explanation).not_to_contain_text("FeO(OH)")
    expect(page.locator("#card-recipe")).to_have_count(0)
    page.locator("#reveal").check()
    expect(page.locator("#card-recipe")).to_have_text(
        "coral's recipe: Fe2O3 + FeO(OH)", timeout=WAIT_MS
    )
    expect(explanation).to_contain_text("(coral is Fe2O3 + FeO(OH)).")
    page.locator("#reveal").uncheck()
    expect(page.locator("#card-recipe")).to_have_count(0, timeout=WAIT_MS)
    expect(explanation).not_to_contain_text("FeO(OH)")


def test_a_slow_answer_about_an_earlier_pan_does_not_replace_the_latest(
    browser: Browser, server: str
) -> None:
    page = browser.new_context().new_page()
    held: list[Route] = []

    def hold_two_chips(route: Route) -> None:
        if len(json.loads(route.request.post_data or "{}").get("chips", [])) == 2:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/pigments/check", hold_two_chips)
    page.goto(f"{server}/recipes")
    page.select_option("#shade", "coral")
    page.select_option("#pan", "medium")
    for chip in ("Fe2O3", "FeO(OH)", "binder"):
        page.locator(f'[data-chip="{chip}"]').click()
    verdict = page.locator("#verdict-word")
    expect(verdict).to_have_text(PRESSED, timeout=WAIT_MS)
    assert len(held) == 1
    with page.expect_response("**/api/pigments/check") as late:
        held[0].continue_()
    late.value.finished()
    # A task queued after the late answer's own, so the page has handled it by now.
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")
    expect(verdict).to_have_text(PRESSED, timeout=WAIT_MS)
    expect(page.locator("#pan-chips .chip-mark")).to_have_text(["Fe2O3", "FeO(OH)", "binder"])


def test_a_table_gets_a_new_join_link_and_is_deleted_from_its_page(
    browser: Browser, server: str
) -> None:
    made = call(f"{server}/api/tables", {"game": "colorfield", "players": PLAYERS})
    table, token = made["id"], made["token"]
    kept = call(f"{server}/api/tables", {"game": "colorfield", "players": PLAYERS})["id"]
    page = browser.new_context().new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{server}/t/{table}?token={token}")
    page.locator(".manage summary").click()
    page.locator("#new-link").click()
    page.wait_for_url(lambda url: "token=" in url and token not in url, timeout=WAIT_MS)
    new = page.url.split("token=")[1]
    expect(page.locator("#join-link")).to_have_text(page.url)
    # The old link only watches now; the new one changes the table.
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(f"{server}/api/tables/{table}/rounds", {}, token)
    assert refused.value.code == 403
    assert call(f"{server}/api/tables/{table}/rounds", {}, new)["event"] == 1
    page.locator(".manage summary").click()
    page.locator("#delete-table").click()
    page.wait_for_url(f"{server}/", timeout=WAIT_MS)
    assert [t["id"] for t in call(f"{server}/api/tables")["tables"]] == [kept]
