"""Every page as a new player sees it, at a phone's size and a tablet's: names and words, never
ids, seat numbers or timings; labels apart on a board's picture; every text readable against
its background (WCAG AA contrast)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.observation import BoardObservation
from companion.reading import PhotoReading
from companion.table.store import BoardView
from tests.chromium import WAIT_MS, choose_photo
from tests.web.page_checks import assert_contrast, assert_no_overlaps, assert_no_raw_text
from tests.web.test_game_end import canvas, pigments_board
from tests.web.test_scoreboard import PHONE, TABLET, Server

# Where the camera finds a Pigment Lab palette's four shade cards on its picture (as read from a
# rendered photo): 76 units wide, 18 to 44 apart.
PALETTE = (452, 362)
SHADES = {"small": 18, "medium-1": 112, "medium-2": 212, "large": 332}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("polish"))
    yield running
    running.close()


def check(page: Page) -> None:
    assert_no_raw_text(page)
    assert_contrast(page)


@pytest.mark.slow
def test_every_page_reads_in_words_with_enough_contrast(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    table, token = server.table("colorfield", 3)
    server.scan(table, token, {1: canvas(11), 2: canvas(3)})
    server.post(table, token, "rounds")
    server.scan(table, token, {1: canvas(5)})
    server.post(table, token, "undo")
    key = token["X-Table-Token"]
    photo = tmp_path / "board.jpg"
    photo.write_bytes(b"a photo")
    for scanned, viewport in enumerate((PHONE, TABLET)):
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(f"{server.url}/")
        check(page)

        page.goto(f"{server.url}/t/{table}?token={key}")
        expect(page.locator("#live.on")).to_have_count(1, timeout=WAIT_MS)
        check(page)

        page.goto(f"{server.url}/t/{table}/seat/1?token={key}")
        expect(page.locator("#total")).to_have_text("11", timeout=WAIT_MS)
        check(page)

        page.goto(f"{server.url}/t/{table}/history?token={key}")
        entries = page.locator("#history li")
        # Newest first; the phone's scan below comes first on the tablet.
        expect(entries).to_have_count(4 + scanned, timeout=WAIT_MS)
        expect(entries.nth(scanned)).to_contain_text("Undone: Ana's board scanned: ")
        expect(entries.nth(scanned + 1)).to_contain_text("(taken back)")
        expect(entries.nth(scanned + 2)).to_contain_text("Round 1 ended: Ana 11, Ben ")
        expect(entries.nth(scanned + 3)).to_contain_text(
            "Boards scanned: Ana 11 points, 1 warning; Ben "
        )
        check(page)

        server.reader.reading = PhotoReading(
            (BoardObservation("colorfield", 2, ("colorfield/board/2",), canvas(3), 0.99, ()),),
            {},
            412.0,
        )
        page.goto(f"{server.url}/t/{table}/scan?token={key}")
        choose_photo(page, str(photo))
        expect(page.locator("#status")).to_have_text(
            "Scanned. Tap a piece the camera misread to correct it.", timeout=WAIT_MS
        )
        check(page)
        # How long it took is there for whoever asks.
        page.locator("#details summary").click()
        expect(page.locator("#details")).to_contain_text("Read in 412 ms.")

        page.goto(f"{server.url}/recipes")
        for chip in ("FeO(OH)", "binder"):
            page.locator(f'.chip[data-chip="{chip}"]').click()
        expect(page.locator("#verdict-word")).not_to_be_empty(timeout=WAIT_MS)
        check(page)
        page.context.close()


def test_pigment_lab_verdicts_are_words_that_fit_their_pans(
    browser: Browser, server: Server
) -> None:
    table, token = server.table("pigments")
    regions = {
        f"shade {name}": [[x, 172], [x + 76, 172], [x + 76, 282], [x, 282]]
        for name, x in SHADES.items()
    }
    view = BoardView(b"\xff\xd8 a palette", {"width": 452, "height": 362, "regions": regions})
    board = ("pigments/palette/1",)
    position = pigments_board(("small", "medium"))
    position["pans"][2] = {"pan": "medium", "chips": ["Fe2O3", "Fe2O3", "binder"], "shade": "coral"}
    server.reader.reading = PhotoReading(
        (BoardObservation("pigments", 1, board, position, 0.99, ()),), {board: view}, 0.0
    )
    server.client.post(
        f"/api/tables/{table}/scans",
        data={"image": (io.BytesIO(b"photo"), "p.jpg")},
        headers=token,
    )
    for viewport in (PHONE, TABLET):
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(f"{server.url}/t/{table}/seat/1")
        labels = page.locator("#board .label")
        expect(labels).to_have_count(4, timeout=WAIT_MS)
        # Each label's lines, in the order of the picture's regions: large, medium-1, -2, small.
        lines = labels.evaluate_all(
            "(all) => all.map((l) => [...l.children].map((line) => line.textContent).join(' '))"
        )
        assert lines == ["not full", "pressed +5", "another recipe", "pressed +2"]
        assert_no_overlaps(page, "#board .label")
        page.context.close()
