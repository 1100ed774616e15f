"""Fault injection on the link, and the check that displays are never wrong for long."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

from firmware_bridge.scene import Scene
from firmware_bridge.segments import shown_score, shown_text
from firmware_bridge.transport import Port


class FaultyPort:
    """Wraps a port: corrupts and drops bytes both ways, and can inject bursts of garbage."""

    def __init__(self, port: Port, rng: random.Random, corrupt: float, drop: float) -> None:
        self.port = port
        self.rng = rng
        self.corrupt = corrupt
        self.drop = drop
        self.corrupted = 0
        self.dropped = 0
        self.damaged_in = 0  # of those, bytes on their way to the host
        self._lock = threading.Lock()

    def _damage(self, data: bytes, incoming: bool) -> bytes:
        out = bytearray()
        with self._lock:
            for byte in data:
                if self.rng.random() < self.drop:
                    self.dropped += 1
                    self.damaged_in += incoming
                    continue
                if self.rng.random() < self.corrupt:
                    self.corrupted += 1
                    self.damaged_in += incoming
                    byte ^= self.rng.randrange(1, 256)
                out.append(byte)
        return bytes(out)

    def write(self, data: bytes) -> None:
        self.port.write(self._damage(data, incoming=False))

    def read(self, timeout: float) -> bytes:
        return self._damage(self.port.read(timeout), incoming=True)

    def garbage(self, size: int) -> None:
        with self._lock:
            noise = bytes(self.rng.randrange(256) for _ in range(size))
        self.port.write(noise)

    def close(self) -> None:
        self.port.close()


def expected(scene: Scene, displays: int) -> tuple[str, ...]:
    """What a person should read on each display for ``scene``."""
    return tuple(
        shown_score(c) if isinstance(c, int) else shown_text(c) for c in scene.on(displays)
    )


@dataclass
class Timeline:
    """Scenes asked for and displays seen, each with the time (seconds, monotonic)."""

    displays: int
    wanted: list[tuple[float, tuple[str, ...]]] = field(default_factory=list)
    seen: list[tuple[float, tuple[str, ...]]] = field(default_factory=list)

    def want(self, scene: Scene) -> None:
        self.wanted.append((time.monotonic(), expected(scene, self.displays)))

    def saw(self, shown: tuple[str, ...], at: float | None = None) -> None:
        self.seen.append((time.monotonic() if at is None else at, shown))

    def never_invented(self) -> list[str]:
        """Texts seen on a display that no scene ever put there (blank is always allowed)."""
        blank = " " * 8
        problems = []
        for i in range(self.displays):
            allowed = {w[i] for _, w in self.wanted} | {blank}
            problems += [f"display {i}: {s[i]!r}" for _, s in self.seen if s[i] not in allowed]
        return problems

    def longest_wrong(self, until: float) -> float:
        """The longest time any display differed from the newest scene asked for."""
        events = sorted(
            [(t, 0, w) for t, w in self.wanted] + [(t, 1, s) for t, s in self.seen],
            key=lambda e: (e[0], e[1]),
        )
        want: tuple[str, ...] | None = None
        seen: tuple[str, ...] = (" " * 8,) * self.displays
        wrong_since: list[float | None] = [None] * self.displays
        longest = 0.0
        for at, kind, value in [*events, (until, 2, ())]:
            for i in range(self.displays):
                since = wrong_since[i]
                if since is not None:
                    longest = max(longest, at - since)
            if kind == 0:
                want = value
            elif kind == 1:
                seen = value
            if want is None:
                continue
            for i in range(self.displays):
                if seen[i] != want[i]:
                    wrong_since[i] = wrong_since[i] if wrong_since[i] is not None else at
                else:
                    wrong_since[i] = None
        return longest
