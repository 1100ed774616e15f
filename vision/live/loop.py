"""The live loop: the newest frame, looked at where it changed, filtered for steadiness, accepted
readings handed on.

``LiveReader`` does the work for one frame (and is what tests and benchmarks drive frame by
frame); ``LiveLoop`` runs it on its own thread over a capture. What to do with an accepted
reading (a table's scan event) is the caller's: this loop knows nothing of tables or scores.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from vision.capture.latest import Capture, Frame
from vision.live.frames import Grey, board_frames, marker_counts, small_grey
from vision.live.stability import Accepted, BoardFrame, Settings, StabilityFilter
from vision.live.tracker import Budget, Tracker, Tracking
from vision.scan.scanner import Observation, Scanner
from vision.scan.views import BoardView, board_views

WAIT_S = 0.5  # how long to wait for a frame before checking whether to stop

Views = Mapping[tuple[str, ...], BoardView]
Accept = Callable[[Sequence[Accepted], Views], None]


@dataclass(frozen=True)
class Seen:
    """The latest processed frame and what was read in it."""

    frame: Frame
    observation: Observation
    boards: tuple[BoardFrame, ...]  # the players' boards, as the stability filter took them
    accepted: tuple[Accepted, ...]


class LiveReader:
    """Scans frames one at a time and hands the readings they complete to ``accept``."""

    def __init__(
        self, accept: Accept, settings: Settings | None = None, scanner: Scanner | None = None
    ) -> None:
        self._accept = accept
        self.scanner = scanner or Scanner()
        self.filter = StabilityFilter(settings)
        self.tracker = Tracker(self.scanner, Tracking(max_change=self.filter.settings.max_change))
        self._counts = marker_counts(self.scanner.index)
        self._previous: Grey | None = None
        self.latest: Seen | None = None

    def restart(self, accept: Accept) -> None:
        """Forget every board and hand what is accepted from now on to ``accept``: a new game,
        where a board read before is news again."""
        self._accept = accept
        self.filter = StabilityFilter(self.filter.settings)
        self.tracker.reset()
        self._previous = None

    def process(self, frame: Frame, budget: Budget | None = None) -> list[Accepted]:
        """Look at one frame, spending no more than ``budget`` (None: reading every board to be
        read), and hand on the readings it completes."""
        grey = small_grey(frame.image)
        observation = self.tracker.look(frame.image, frame.time, grey, self._previous, budget)
        width = frame.image.shape[1]
        index = self.scanner.index
        boards = [
            self._held(b)
            for b in board_frames(observation, index, self._counts, grey, self._previous, width)
        ]
        self._previous = grey
        accepted = self.filter.update(frame.time, boards)
        self.latest = Seen(frame, observation, tuple(boards), tuple(accepted))
        if accepted:
            observations = [a.observation for a in accepted]
            views = board_views(frame.image, observation.markers, index, observations)
            self._accept(accepted, views)
        return accepted

    def _held(self, board: BoardFrame) -> BoardFrame:
        """The board, with since when its picture held if it was read after waiting to be
        (every printed board of it so read)."""
        held = [self.tracker.held.get(key) for key in board.key]
        if not held or any(h is None for h in held):
            return board
        since = max(h[0] for h in held if h is not None)
        frames = min(h[1] for h in held if h is not None)
        return dataclasses.replace(board, held_since=since, held_frames=frames)


class LiveLoop:
    """A reader over the newest frames of a capture, on its own thread. ``before`` is shown each
    frame before it is read: where one game ends and the next begins, its owner restarts the
    reader."""

    def __init__(
        self,
        capture: Capture,
        reader: LiveReader,
        before: Callable[[Frame], None] | None = None,
    ) -> None:
        self.capture = capture
        self.reader = reader
        self._before = before
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the loop's thread over the capture, which its owner has started (a source that
        cannot be opened fails there, before anything is made for it)."""
        self.reader.scanner.prepare()
        self._thread = threading.Thread(target=self._run, name="live loop", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the loop, then the capture."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.capture.stop()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the loop to finish (a recorded source played to its end); whether it has."""
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    def _run(self) -> None:
        seen = 0
        pace = Pace()
        while not self._stop.is_set():
            frame = self.capture.latest(seen, WAIT_S)
            if frame is None:
                if self.capture.ended:
                    return
                continue
            seen = frame.index
            if self._before is not None:
                self._before(frame)
            self.reader.process(frame, pace.budget(frame))


class Pace:
    """A camera's pace, from the times its frames were read (the capture's clock, monotonic):
    each frame's budget, from the time between frames and how long the frame waited for the
    loop. None until two frames in a row have been seen."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last: Frame | None = None
        self.period_s: float | None = None

    def budget(self, frame: Frame) -> Budget | None:
        last, self._last = self._last, frame
        if last is not None and frame.index > last.index and frame.time > last.time:
            period = (frame.time - last.time) / (frame.index - last.index)
            self.period_s = period if self.period_s is None else 0.9 * self.period_s + 0.1 * period
        if self.period_s is None:
            return None
        return Budget.of(self.period_s, self._clock() - frame.time)
