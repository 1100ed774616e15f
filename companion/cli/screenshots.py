"""``atelier screenshots [-o DIR]``: pictures of the real pages for the documentation, taken in
Chromium from a running server, so that they show what the code shows today."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import AtelierError

if TYPE_CHECKING:
    from playwright.sync_api import Browser

HELP = """\
Take the documentation's screenshots: a server on a free loopback port with a table in a known
state (a scripted Color Field game for Ana, Ben and Cy, each turn rendered as a photo and read
by the scanner), its pages opened in headless Chromium, saved as small PNGs:
  DIR/scoreboard.png   the scoreboard on a tablet (1024x768)
  DIR/seat.png         Ana's seat on a phone (390x844)
Needs Playwright (pip install -e ".[test]") and Chromium (apt: chromium).

example:
  atelier screenshots -o docs/screens
"""
TABLET = (1024, 768)
PHONE = (390, 844)
WAIT_MS = 20_000
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run")
# Every image and font loaded, every animation ended: the page as a person would see it.
SETTLED = """async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].map((image) => image.decode().catch(() => {})));
    await Promise.all(document.getAnimations().map((motion) => motion.finished));
}"""


@dataclass(frozen=True)
class Shot:
    """One screenshot: the file, the page (``{table}`` and ``{token}`` filled in), the window's
    size, and what shows the page is ready."""

    name: str
    path: str
    size: tuple[int, int]
    ready: str


SHOTS = (
    Shot("scoreboard.png", "/t/{table}?token={token}", TABLET, "#live.on"),
    Shot("seat.png", "/t/{table}/seat/1?token={token}", PHONE, "#board img"),
)


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "screenshots",
        help="the documentation's screenshots of the real pages, taken in Chromium",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        type=Path,
        default=Path("docs/screens"),
        help="the folder to write (default docs/screens)",
    )
    parser.set_defaults(run=run)


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    folder: Path = args.output
    if folder.exists() and not folder.is_dir():
        raise AtelierError(f"-o: {folder} is not a folder")
    with _chromium() as browser, tempfile.TemporaryDirectory() as data, _served(data) as served:
        url, client = served
        from companion.cli.screens_table import scripted_table

        shown = scripted_table(client, progress)
        folder.mkdir(parents=True, exist_ok=True)
        for shot in SHOTS:
            target = folder / shot.name
            address = url + shot.path.format(table=shown.table, token=shown.token)
            _save(_take(browser, address, shot), target)
            width, height = shot.size
            progress(f"wrote {target} ({width}x{height}, {target.stat().st_size // 1024} KB)")
    return 0


@contextmanager
def _chromium() -> Iterator[Browser]:
    """Headless Chromium (Debian's, else Playwright's own), or a one-line error saying what to
    install."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        raise AtelierError(
            'screenshots: Playwright is not installed (pip install -e ".[test]")'
        ) from None
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(
                executable_path=shutil.which("chromium") or shutil.which("chromium-browser"),
                args=list(CHROMIUM_ARGS),
            )
        except Error:
            raise AtelierError(
                "screenshots: Chromium is not installed (apt: chromium, or: playwright install "
                "chromium)"
            ) from None
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def _served(data: str) -> Iterator[tuple[str, Any]]:
    """The real app with the real photo reader, served on a free loopback port: its address,
    and a test client of the same app that sets the table up."""
    from vision.photos import PhotoReader
    from web import create_app
    from web.front import create_server

    app = create_app({"DATA_DIR": Path(data)}, PhotoReader())
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    threading.Thread(target=server.run, name="screenshots", daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", app.test_client()
    finally:
        server.close()
        app.extensions["atelier"].tables.close()


def _take(browser: Browser, address: str, shot: Shot) -> bytes:
    """The page at ``address`` once ready, as PNG bytes of the window (not the whole page)."""
    width, height = shot.size
    # Motion as most people have it: the page is taken once every animation has ended.
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(address)
        page.wait_for_selector(shot.ready, timeout=WAIT_MS)
        page.evaluate(SETTLED)
        return page.screenshot()
    finally:
        context.close()


def _save(png: bytes, target: Path) -> None:
    """``png`` kept small in git: each channel rounded to a multiple of 4 (at most 2 levels off,
    which no eye sees, black and white kept exact; a third less to store for the board's photo)
    and re-encoded at the strongest PNG compression."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise AtelierError(f"screenshots: {target}: Chromium gave no picture")
    rounded = np.clip((image.astype(np.int16) + 2) // 4 * 4, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".png", rounded, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise AtelierError(f"screenshots: {target}: the picture could not be encoded as PNG")
    target.write_bytes(encoded.tobytes())
