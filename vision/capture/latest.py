"""Reading a source on its own thread, keeping only the newest frame.

Whoever processes frames takes the newest one when ready; frames that arrived meanwhile are
dropped, so a slow reader sees the table as it is now, never a backlog. A source that vanishes
is reported once and reopened until it answers again; a recorded source that ends is done.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.errors import AtelierError
from vision.capture.sources import Source
from vision.images import Image

RETRY_S = 1.0  # between attempts to reopen a source that vanished
STOP_WAIT_S = 2.0  # longest wait for the reading thread when stopping


@dataclass(frozen=True)
class Frame:
    image: Image
    index: int  # counts every frame read from the source, dropped ones included
    time: float  # the clock when it was read


class Capture:
    """The newest frame of one source, read on a background thread."""

    def __init__(
        self,
        source: Source,
        report: Callable[[str], None],
        retry_s: float = RETRY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self._report = report
        self._retry_s = retry_s
        self._clock = clock
        self._ready = threading.Condition()
        self._latest: Frame | None = None
        self._read = 0
        self._taken = 0
        self._ended = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def dropped(self) -> int:
        """Frames replaced by a newer one before anyone took them."""
        with self._ready:
            return self._read - self._taken - (0 if self._latest is None else 1)

    @property
    def ended(self) -> bool:
        with self._ready:
            return self._ended

    def start(self) -> None:
        """Open the source (a bad one raises its one-line error here) and start reading it."""
        self.source.open()
        self._thread = threading.Thread(
            target=self._run, name=f"capture {self.source.name}", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop reading; the thread closes the source once its current read returns (a stream
        that hangs is left to its daemon thread rather than holding up the caller)."""
        self._stop.set()
        with self._ready:
            self._ready.notify_all()
        if self._thread is not None:
            self._thread.join(STOP_WAIT_S)

    def latest(self, after: int, timeout: float) -> Frame | None:
        """The newest frame with an index above ``after``, waiting up to ``timeout`` seconds;
        None when none came (or the source has ended)."""
        deadline = self._clock() + timeout
        with self._ready:
            while self._latest is None or self._latest.index <= after:
                left = deadline - self._clock()
                if left <= 0 or self._ended or self._stop.is_set():
                    return None
                self._ready.wait(left)
            frame = self._latest
            self._latest = None
            self._taken += 1
            return frame

    def _run(self) -> None:
        pace = self.source.fps
        next_due = self._clock()
        while not self._stop.is_set():
            image = self.source.read()
            if image is None:
                if self.source.finite:
                    self._report(f"{self.source.name}: ended")
                    break
                self._reopen()
                continue
            if pace is not None:
                # A recorded source plays in real time, as a camera would deliver it.
                next_due += 1.0 / pace
                self._stop.wait(max(0.0, next_due - self._clock()))
            with self._ready:
                self._read += 1
                self._latest = Frame(image, self._read, self._clock())
                self._ready.notify_all()
        self.source.close()
        with self._ready:
            self._ended = True
            self._ready.notify_all()

    def _reopen(self) -> None:
        self._report(f"{self.source.name}: lost; retrying every {self._retry_s:g} s")
        while not self._stop.wait(self._retry_s):
            try:
                self.source.open()
            except AtelierError:
                continue
            self._report(f"{self.source.name}: back")
            return
