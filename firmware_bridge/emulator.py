"""A display device without hardware: the protocol core behind a pseudo-terminal.

Any program that can open a serial port can talk to it (``atelier led emulate`` prints its path);
the host driver cannot tell it from a board, except that it answers faster.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import tty
from collections.abc import Callable
from types import TracebackType

from firmware_bridge.device import DeviceCore, DisplayState
from firmware_bridge.messages import MAX_DISPLAYS
from firmware_bridge.segments import read_cells

EMULATOR_ID = 0x454D5501  # "EMU" and a number, so the emulator is easy to spot in a list


def state_json(state: DisplayState) -> dict[str, object]:
    """What the displays show, as ``atelier led emulate`` prints it."""
    count = len(state.cells)
    return {
        "displays": [read_cells(cells) for cells in state.cells],
        "brightness": state.brightness,
        "highlight": [bool(state.highlight >> i & 1) for i in range(count)],
        "blink": [bool(state.blink >> i & 1) for i in range(count)],
    }


class Emulator:
    def __init__(
        self,
        device_id: int = EMULATOR_ID,
        displays: int = MAX_DISPLAYS,
        on_change: Callable[[DisplayState], None] | None = None,
    ) -> None:
        self._device_id = device_id
        self._displays = displays
        self._on_change = on_change
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self._lock = threading.Lock()
        self._core = DeviceCore(device_id, displays)
        self._shown = self._core.state
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="led-emulator", daemon=True)

    def __enter__(self) -> Emulator:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def state(self) -> DisplayState:
        with self._lock:
            return self._core.state

    def start(self) -> None:
        self._send(self._core.announce())
        self._thread.start()

    def restart(self) -> None:
        """Loses everything and starts again, as a board does when it resets."""
        with self._lock:
            self._core = DeviceCore(self._device_id, self._displays)
            announce = self._core.announce()
        self._send(announce)
        self._report()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        os.close(self._master)
        os.close(self._slave)

    def _send(self, data: bytes) -> None:
        # Nobody reads the port and its buffer is full: the bytes are lost, as on a real cable.
        with contextlib.suppress(BlockingIOError):
            os.write(self._master, data)

    def _report(self) -> None:
        state = self.state
        if state != self._shown:
            self._shown = state
            if self._on_change is not None:
                self._on_change(state)

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self._master, 4096)
            except (BlockingIOError, OSError):
                continue
            with self._lock:
                reply = self._core.feed(data)
            if reply:
                self._send(reply)
            self._report()
