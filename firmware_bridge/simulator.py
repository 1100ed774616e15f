"""The real firmware image running in simavr, reached through a pseudo-terminal.

:func:`build` compiles the image and the simulator harness (``firmware/sim/``) with ``make`` into
a folder of the caller's choosing; :class:`SimulatedBoard` runs them and turns the harness's
record of the MAX7219 wires into what each display shows, with the time it started showing it.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from firmware_bridge.max7219 import Max7219Chain

FIRMWARE_DIR = Path(__file__).parent / "firmware"
TOOLS = ("make", "avr-gcc", "avr-objcopy", "gcc")


class SimulatorUnavailableError(Exception):
    """The tools to build or run the simulator are missing."""


@dataclass(frozen=True)
class Build:
    firmware: Path
    harness: Path


@dataclass(frozen=True)
class Shown:
    """The displays after a complete refresh, and when it ended (``time.monotonic_ns``)."""

    at_ns: int
    displays: tuple[str, ...]
    intensities: tuple[int, ...]


def build(folder: Path, displays: int = 4, device_id: int = 1) -> Build:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        raise SimulatorUnavailableError(f"missing tools: {', '.join(missing)}")
    if not Path("/usr/include/simavr/sim_avr.h").exists():
        raise SimulatorUnavailableError("missing simavr headers (Debian package libsimavr-dev)")
    command = [
        "make", "--no-print-directory", "-C", str(FIRMWARE_DIR), f"BUILD={folder}",
        f"DISPLAYS={displays}", f"DEVICE_ID={device_id}", "firmware", "sim",
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SimulatorUnavailableError(f"make failed:\n{result.stdout}{result.stderr}")
    return Build(folder / "atelier_led.elf", folder / "atelier_sim")


class SimulatedBoard:
    """A board in the simulator: ``link`` always points at its current pseudo-terminal."""

    def __init__(self, build_: Build, link: Path, displays: int = 4) -> None:
        self.link = link
        self._chain = Max7219Chain(displays)
        self._lock = threading.Condition()
        self.history: list[Shown] = []
        self.resets = 0
        self._pty: str | None = None
        self._process = subprocess.Popen(
            [str(build_.harness), str(build_.firmware), str(link)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._reader = threading.Thread(target=self._read, name="simavr-reader", daemon=True)
        self._reader.start()
        if not self.wait(lambda: self._pty is not None, 10.0):
            self.close()
            raise SimulatorUnavailableError("the simulator did not start")

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def displays(self) -> tuple[str, ...]:
        with self._lock:
            return self.history[-1].displays if self.history else ()

    def wait(self, condition: Callable[[], bool], timeout: float) -> bool:
        with self._lock:
            return self._lock.wait_for(condition, timeout)

    def wait_showing(self, displays: tuple[str, ...], timeout: float) -> bool:
        return self.wait(
            lambda: bool(self.history) and self.history[-1].displays == displays, timeout
        )

    def command(self, line: str) -> None:
        """reset, reset-after N, unplug or replug (see firmware/sim/atelier_sim.c)."""
        assert self._process.stdin is not None
        if line == "unplug":
            with self._lock:
                self._pty = None
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def unplug(self) -> None:
        self.command("unplug")

    def replug(self, timeout: float = 5.0) -> None:
        self.command("replug")
        self.wait(lambda: self._pty is not None, timeout)

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self.command("quit")
                self._process.wait(timeout=5)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self._reader.join(timeout=5)

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            words = line.split()
            with self._lock:
                if words[:1] == ["@pty"]:
                    self._pty = words[1]
                elif words[:1] == ["@reset"]:
                    self.resets += 1
                elif words[:1] == ["@latch"]:
                    shifted = bytes.fromhex(words[2]) if len(words) > 2 else b""
                    if self._chain.latch(shifted):
                        shown = Shown(
                            int(words[1]), self._chain.visible(), self._chain.intensities()
                        )
                        self.history.append(shown)
                self._lock.notify_all()
        with self._lock:
            self._lock.notify_all()
