"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.chromium import launched_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """A headless Chromium, one per test module."""
    yield from launched_chromium()
