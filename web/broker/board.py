"""The leaderboard shared between the thread that receives from the broker and the threads that
answer browsers: one lock around it, and a wake-up for the live streams after each change."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from web.broker.leaderboard import Leaderboard

T = TypeVar("T")


class SharedBoard:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._board = Leaderboard()
        self._changed = threading.Condition()
        self._clock = clock
        self._connected = False
        self._closing = False

    def apply(self, topic: str, payload: bytes) -> bool:
        """Take one broker message; wake the live streams when it changed the board."""
        with self._changed:
            changed = self._board.apply(topic, payload, self._clock())
            if changed:
                self._changed.notify_all()
            return changed

    def read(self, view: Callable[[Leaderboard], T]) -> T:
        """What ``view`` makes of the board, with nothing changing it meanwhile."""
        with self._changed:
            return view(self._board)

    @property
    def connected(self) -> bool:
        return self._connected

    def set_connected(self, connected: bool) -> None:
        """Whether the hub is connected to the broker (the page says when it is not: what it
        shows may then be out of date)."""
        with self._changed:
            self._connected = connected
            self._changed.notify_all()

    @property
    def closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        """End every live stream now: a stopping server need not wait for them."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()

    def wait(self, version: int, connected: bool, timeout: float) -> None:
        """Return once the board is past ``version``, the connection is no longer
        ``connected``, the hub closes, or after ``timeout`` seconds."""
        with self._changed:
            self._changed.wait_for(
                lambda: (
                    self._board.version != version or self._connected != connected or self._closing
                ),
                timeout,
            )
