"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

import companion  # noqa: F401  (first: it settles the BLAS threads before numpy loads)
from tests.chromium import launched_chromium


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked slow first, the rest in their usual order: run in parallel (pytest-xdist,
    ``--dist worksteal``), a long test started last would keep one worker busy on its own while
    the others sit idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """A headless Chromium, one per test module."""
    yield from launched_chromium()
