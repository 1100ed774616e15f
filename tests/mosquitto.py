"""A real MQTT broker for the tests: Debian's Mosquitto on a free loopback port, its own config,
data and log in the test's temporary folder (``web.broker.local_broker``, which the benchmark
runs too). It can be stopped (killed, as a crash or a pulled cable would) and started again on
the same port, keeping what it persisted.

Tests that use it are skipped only where Mosquitto is missing and this is not CI; in CI a missing
broker fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from web.broker import local_broker
from web.broker.local_broker import Mosquitto, free_port

__all__ = ["Mosquitto", "free_port", "mosquitto_path", "running_mosquitto"]


def mosquitto_path() -> str:
    """The broker's program (skips, or fails in CI, without it)."""
    found = local_broker.find_mosquitto()
    if found is None:
        if os.environ.get("CI"):
            raise RuntimeError("the broker tests need Mosquitto (apt: mosquitto)")
        pytest.skip("Mosquitto is not installed (apt: mosquitto)")
    return found


@contextmanager
def running_mosquitto(folder: Path) -> Iterator[Mosquitto]:
    with local_broker.running_mosquitto(folder, mosquitto_path()) as broker:
        yield broker
