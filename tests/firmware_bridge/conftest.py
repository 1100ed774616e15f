from __future__ import annotations

import os
import shutil

import pytest

from firmware_bridge.simulator import Build, SimulatorUnavailableError, build


@pytest.fixture(scope="session")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The firmware image and the simavr harness, built once into a temporary folder."""
    if shutil.which("avr-gcc") is None and not os.environ.get("CI"):
        pytest.skip("needs gcc-avr, avr-libc and libsimavr-dev (CI installs them)")
    try:
        return build(tmp_path_factory.mktemp("firmware"))
    except SimulatorUnavailableError as exc:
        pytest.fail(str(exc))
