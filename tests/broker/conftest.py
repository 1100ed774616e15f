"""A real Mosquitto for each broker test (tests/mosquitto.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mosquitto import Mosquitto, running_mosquitto


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    with running_mosquitto(tmp_path / "broker") as broker:
        yield broker
