"""Real browsers for the tests: Debian's Chromium, headless, driven by Playwright.

Tests that use the ``browser`` fixture (tests/conftest.py) are skipped only where Chromium is
missing and this is not CI; in CI a missing browser fails.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 15_000


def chromium_path() -> str:
    """Chromium on the PATH (skips, or fails in CI, without it)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            raise RuntimeError("the browser tests need Chromium on the PATH (apt: chromium)")
        pytest.skip("Chromium is not installed (apt: chromium)")
    return chromium


def launched_chromium() -> Iterator[Browser]:
    """Chromium for as long as the caller holds it (skips, or fails in CI, without it)."""
    chromium = chromium_path()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        yield browser
        browser.close()


def choose_photo(page: Page, path: str) -> None:
    """``path`` chosen as the scan page's photo, once the page listens for it (the input is off
    until then: a file set earlier would be no change to anyone)."""
    expect(page.locator("#photo")).to_be_enabled(timeout=WAIT_MS)
    page.set_input_files("#photo", path)
