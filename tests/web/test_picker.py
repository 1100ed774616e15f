"""Correcting a misread piece by its picture, in a real browser at phone and tablet sizes: the
server reads every photo as the board the test shows it (FakeReader), with one piece unsure."""

from __future__ import annotations

import copy
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, Route, ViewportSize, expect

from companion.observation import BoardObservation, ComponentRead
from companion.positions import evaluate_document
from companion.reading import PhotoReading
from companion.samples import random_position
from tests.chromium import WAIT_MS, choose_photo
from tests.web.fake_reader import FakeReader
from tests.web.test_browser import call
from tests.web.test_game_end import CONDITIONS
from vision.benchmark import TRUTH
from web import create_app
from web.front import create_server

PHONE: ViewportSize = {"width": 390, "height": 844}
TABLET: ViewportSize = {"width": 1024, "height": 768}
TWO = [{"name": "Ana"}, {"name": "Ben"}]


@pytest.fixture
def fake_server(tmp_path: Path) -> Iterator[tuple[str, FakeReader]]:
    """A real server whose reader reads every photo as the test sets ``reader.reading``."""
    reader = FakeReader()
    app = create_app({"DATA_DIR": tmp_path / "data", "SSE_KEEPALIVE": 1.0}, reader)
    running = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{running.effective_port}", reader
    running.close()
    app.extensions["atelier"].tables.close()


def misread(
    game: str, position: dict[str, Any], name: str, value: object, problem: str, *likely: object
) -> BoardObservation:
    """Seat 1's board read right but for component ``name``: read as ``value`` (the reading
    left out of the position), with ``problem`` and the scanner's ``likely`` values."""
    truth = TRUTH[game](position)
    components = tuple(
        ComponentRead(n, value, 0.0, f"{name}: {problem}", tuple(likely))
        if n == name
        else ComponentRead(n, v, 0.99)
        for n, v in truth.items()
    )
    observed = copy.deepcopy({k: v for k, v in position.items() if k != "conditions"})
    if game == "colorfield":
        observed["spaces"][int(name.split()[1]) - 1] = None
    elif game == "isle":
        row, column = (int(x) for x in name[6:-1].split(","))
        observed["cells"] = [c for c in observed["cells"] if (c[0], c[1]) != (row, column)]
    problems = (f"{name}: {problem}",)
    return BoardObservation(game, 1, (f"{game}/board/1",), observed, 0.99, problems, components)


def scan_on_phone(
    browser: Browser,
    server: tuple[str, FakeReader],
    tmp_path: Path,
    viewport: ViewportSize,
    game: str,
    board: BoardObservation,
    **options: Any,
) -> Page:
    url, reader = server
    made = call(f"{url}/api/tables", {"game": game, "players": TWO, "options": options})
    reader.reading = PhotoReading((board,), {}, 0.0)
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{url}/t/{made['id']}/scan?token={made['token']}")
    picture = tmp_path / "board.jpg"
    picture.write_bytes(b"a photo")
    choose_photo(page, str(picture))
    expect(page.locator('.reading[data-seat="1"] h2')).to_have_text(
        "Ana's board: needs a look", timeout=WAIT_MS
    )
    return page


def body(request: Request) -> Any:
    """The JSON a request sent."""
    sent = request.post_data_json
    assert sent is not None
    return sent


def assert_readable(page: Page) -> None:
    """No value shown or sent as 'undefined', in the text or in any attribute."""
    assert "undefined" not in page.content()


def assert_grid_fits(page: Page, viewport: ViewportSize) -> None:
    """The picker's pieces do not overlap, and the dialog, Save included, fits the screen."""
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#fix-grid .pick:not([hidden])')].slice(0, 40)
            .map((b) => { const r = b.getBoundingClientRect();
                          const inside = [...b.children].every((c) => {
                            const k = c.getBoundingClientRect();
                            return k.top >= r.top && k.bottom <= r.bottom + 0.5
                              && k.left >= r.left && k.right <= r.right + 0.5; });
                          return [r.left, r.top, r.right, r.bottom, inside]; })"""
    )
    assert len(boxes) >= 5
    assert all(box[4] for box in boxes), "a piece's picture or name spills out of its button"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)
    dialog = page.locator("#fix").bounding_box()
    save = page.locator("#fix-save").bounding_box()
    assert dialog is not None and save is not None
    assert dialog["y"] >= 0 and dialog["y"] + dialog["height"] <= viewport["height"]
    assert save["y"] + save["height"] <= viewport["height"]


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_color_field_tile_is_picked_by_its_picture_and_turned(
    browser: Browser, fake_server: tuple[str, FakeReader], tmp_path: Path, viewport: ViewportSize
) -> None:
    position = random_position("colorfield", random.Random(11))
    right = position["spaces"][0]
    # The marker named the tile but its edges disagreed: the reader keeps the bare id.
    board = misread(
        "colorfield", position, "space 1", right["tile"], "edge N should be lemon but looks coral"
    )
    page = scan_on_phone(browser, fake_server, tmp_path, viewport, "colorfield", board)
    page.locator('[data-component="space 1"]').click()
    expect(page.locator("#fix-title")).to_have_text("Ana's board · space 1")
    grid = page.locator("#fix-grid")
    # The tile read comes first, chosen; 120 tiles and "empty" scroll inside the dialog.
    expect(grid.locator(".pick").first).to_have_attribute("data-value", right["tile"])
    expect(grid.locator(".pick.picked")).to_have_count(1)
    expect(grid.locator(".pick")).to_have_count(121)
    assert grid.evaluate("(g) => g.scrollHeight > g.clientHeight")
    assert_grid_fits(page, viewport)
    assert_readable(page)

    page.locator("#fix-search").fill(right["tile"].lower())
    expect(grid.locator(".pick:not([hidden])")).to_have_count(1)
    grid.locator(f'.pick[data-value="{right["tile"]}"]').click()
    for _ in range(right["rotation"]):
        page.locator("#fix-rotate").click()
    turned = page.locator("#fix-chosen g.turn")
    expect(turned).to_have_attribute("transform", f"rotate({right['rotation'] * 90} 50 50)")
    with page.expect_request("**/corrections") as sent:
        page.locator("#fix-save").click()
    assert body(sent.value)["value"] == right
    total = evaluate_document(position, "test").data["total"]
    expect(page.locator('.reading[data-seat="1"] .total')).to_have_text(f"{total} points")
    expect(page.locator('.component.fixed[data-component="space 1"] svg.tile')).to_have_count(1)
    expect(page.locator(".component.bad")).to_have_count(0)
    assert_readable(page)


def test_an_isle_cell_is_picked_on_the_map(
    browser: Browser, fake_server: tuple[str, FakeReader], tmp_path: Path
) -> None:
    position = {**random_position("isle", random.Random(1)), "conditions": CONDITIONS}
    cell = next(c for c in position["cells"] if c[2] == "green")
    name = f"cell ({cell[0]},{cell[1]})"
    board = misread("isle", position, name, None, "ambiguous green/blue", "green", "blue")
    page = scan_on_phone(
        browser, fake_server, tmp_path, PHONE, "isle", board, conditions=CONDITIONS
    )
    # The sheet is its map, not a button per cell; the unsure cell is outlined red.
    expect(page.locator(".isle-map .cell")).to_have_count(79)
    expect(page.locator("button.component")).to_have_count(0)
    expect(page.locator(".isle-map .cell.bad")).to_have_count(1)
    page.locator(f'.isle-map [data-component="{name}"]').click()
    grid = page.locator("#fix-grid")
    expect(grid.locator(".pick-label")).to_have_text(
        ["G · green", "B · blue", "Br · brown", "R · red", "empty"]
    )
    assert_grid_fits(page, PHONE)
    assert_readable(page)
    with page.expect_request("**/corrections") as sent:
        grid.locator('.pick[data-value="green"]').click()
    assert body(sent.value)["component"] == name
    assert body(sent.value)["value"] == "green"
    total = evaluate_document(position, "test").data["total"]
    expect(page.locator('.reading[data-seat="1"] .total')).to_have_text(f"{total} points")
    expect(page.locator(f'.isle-map .cell.fixed[data-component="{name}"]')).to_have_count(1)
    assert_readable(page)


def test_a_pigment_lab_chip_is_picked_on_the_scan_page_and_the_seat_page(
    browser: Browser, fake_server: tuple[str, FakeReader], tmp_path: Path
) -> None:
    position = random_position("pigments", random.Random(1))
    name = "large window 2"  # a binder chip, read unsure between it and TiO2
    board = misread("pigments", position, name, None, "unsure (binder 0.55, or TiO2)")
    page = scan_on_phone(browser, fake_server, tmp_path, PHONE, "pigments", board)
    page.locator(f'[data-component="{name}"]').click()
    grid = page.locator("#fix-grid")
    # No candidates kept: the pieces the problem names come first all the same.
    expect(grid.locator(".pick").nth(0)).to_have_attribute("data-value", "binder")
    expect(grid.locator(".pick").nth(1)).to_have_attribute("data-value", "TiO2")
    expect(grid.locator(".pick-label")).to_have_count(6)
    assert_grid_fits(page, PHONE)
    assert_readable(page)
    with page.expect_request("**/corrections") as sent:
        grid.locator('.pick[data-value="binder"]').click()
    assert body(sent.value)["value"] == "binder"
    total = evaluate_document(position, "test").data["total"]
    expect(page.locator('.reading[data-seat="1"] .total')).to_have_text(f"{total} points")
    assert_readable(page)

    # The same picker on the player's own page: a shade card shows its face, not its recipe.
    seat = page.context.new_page()
    seat.goto(page.url.replace("/scan?", "/seat/1?"))
    seat.locator('#fix-list [data-component="shade large"]').click()
    expect(seat.locator("#fix-title")).to_have_text("Ana's board · shade large")
    expect(seat.locator("#fix-grid .pick.shade, #fix-grid .pick .shade")).to_have_count(16)
    assert "Fe2O3" not in seat.locator("#fix-grid").inner_text()
    seat.locator("#fix-grid .pick").first.click()
    expect(seat.locator('#fix-list .component.fixed[data-component="shade large"]')).to_have_count(
        1, timeout=WAIT_MS
    )
    assert_readable(seat)


def test_a_photo_cannot_be_chosen_before_the_scan_page_listens_for_it(
    browser: Browser, fake_server: tuple[str, FakeReader], tmp_path: Path
) -> None:
    """On a slow phone the page shows before its script runs: a photo chosen then would be lost
    without a word, so the button stays off until the script listens."""
    url, reader = fake_server
    made = call(f"{url}/api/tables", {"game": "colorfield", "players": TWO, "options": {}})
    position = random_position("colorfield", random.Random(5))
    reader.reading = PhotoReading(
        (BoardObservation("colorfield", 1, ("colorfield/board/1",), position, 0.99, ()),), {}, 0.0
    )
    page = browser.new_context(viewport=PHONE).new_page()
    held: list[Route] = []  # the script, held back until the test lets it through
    page.route("**/static/scan.js*", lambda route: held.append(route))
    page.goto(f"{url}/t/{made['id']}/scan?token={made['token']}", wait_until="commit")
    expect(page.locator("#photo")).to_be_disabled()
    expect(page.locator("label.file")).to_have_css("opacity", "0.5")
    assert len(held) == 1
    held[0].continue_()
    picture = tmp_path / "board.jpg"
    picture.write_bytes(b"a photo")
    choose_photo(page, str(picture))
    expect(page.locator("#status")).to_have_text(
        "Scanned. Tap a piece the camera misread to correct it.", timeout=WAIT_MS
    )
    assert len(reader.photos) == 1
