"""Which board readings are steady enough to reach the scoreboard.

Pure: it sees each frame's board observations and the time, nothing else. A board counts as
covered in a frame when some of its own markers are missing while it is still seen, when the
scanner reports a problem with it (a tile it cannot read, an edge out of view), or when the
picture over it changed a lot since the previous frame (a hand moving, the camera bumped).
A covered board forgets its recent frames. A reading is accepted when, over the recent clean
frames, every component's value has a majority, and that voted reading has held for the hold
time: read exactly by every clean frame since one first read it, or voted that long; it is
accepted once, until a different one holds. A board read after waiting to be read (covered, not
read yet) while its picture held unchanged and still (its frame says since when, and over how
many frames) reads what each of those frames showed: they count as clean frames reading it.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from companion.observation import BoardObservation

Signature = tuple[tuple[str, str], ...]
# Frame times such as k / 5 are not exact in floating point: a hold short of its time by less
# than this (3.8 - 3.2 is 0.5999999999999996) has held it.
TIME_SLACK_S = 1e-6


@dataclass(frozen=True)
class Settings:
    # A voted reading must have held this long. At 30 fps the three clean frames the vote needs
    # hold it long enough when all three read it, so that a board is accepted a tenth of a second
    # after it settles (the frame where the picture jumps, then three clean frames).
    hold_s: float = 0.06
    window: int = 5  # recent clean frames voted over
    min_frames: int = 3  # fewer clean frames than this decide nothing
    max_change: float = 6.0  # mean grey-level change over a board that counts as movement


@dataclass(frozen=True)
class BoardFrame:
    """One board in one frame, as the filter needs it."""

    observation: BoardObservation
    markers_seen: int  # of its own printed markers
    markers_expected: int
    change: float  # mean absolute grey-level change over it since the previous frame
    # When it was read in this frame after waiting to be read (not read yet, so covered) while
    # its picture held, unchanged and still: since when, and over how many frames before this
    # one. What it reads is what every one of those frames showed.
    held_since: float | None = None
    held_frames: int = 0

    @property
    def key(self) -> tuple[str, ...]:
        return self.observation.boards

    def covered(self, settings: Settings) -> str | None:
        """Why this board cannot be trusted in this frame, or None."""
        if self.markers_seen < self.markers_expected:
            return f"{self.markers_seen} of its {self.markers_expected} markers seen"
        if self.observation.problems:
            return self.observation.problems[0]
        if self.change > settings.max_change:
            return f"moving (change {self.change:.1f})"
        return None


@dataclass(frozen=True)
class Accepted:
    observation: BoardObservation
    time: float  # of the frame that completed the hold
    since: float  # of the first frame of the held reading


@dataclass
class _Board:
    recent: deque[tuple[BoardObservation, Signature]]
    candidate: Signature | None = None
    since: float = 0.0  # when the vote turned to the candidate
    run: Signature | None = None  # what the latest clean frames all read
    run_since: float = 0.0  # from the first of them
    accepted: Signature | None = None


def signature(observation: BoardObservation) -> Signature:
    """What a reading says, component by component, in a comparable form."""
    parts = [(c.component, json.dumps(c.value, sort_keys=True)) for c in observation.components]
    parts.append(("position", json.dumps(observation.position, sort_keys=True)))
    return tuple(parts)


def vote(signatures: Sequence[Signature]) -> Signature | None:
    """Each component's value held by more than half of ``signatures``; None when any component
    has no majority (or they do not name the same components)."""
    names = [name for name, _ in signatures[0]]
    if any([name for name, _ in s] != names for s in signatures):
        return None
    voted: list[tuple[str, str]] = []
    for at, name in enumerate(names):
        counts: dict[str, int] = {}
        for s in signatures:
            counts[s[at][1]] = counts.get(s[at][1], 0) + 1
        value, count = max(counts.items(), key=lambda item: item[1])
        if 2 * count <= len(signatures):
            return None
        voted.append((name, value))
    return tuple(voted)


class StabilityFilter:
    """The boards' recent frames and what each last had accepted. Deterministic: the same
    frames at the same times give the same acceptances."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self._boards: dict[tuple[str, ...], _Board] = {}

    def update(self, time: float, frames: Sequence[BoardFrame]) -> list[Accepted]:
        """Take one frame's boards; answer the readings accepted with it."""
        seen = {frame.key for frame in frames}
        for key, board in self._boards.items():
            if key not in seen:
                # Out of sight altogether: covered as surely as with one marker missing.
                board.recent.clear()
                board.candidate = None
                board.run = None
        accepted: list[Accepted] = []
        for frame in frames:
            board = self._boards.setdefault(frame.key, _Board(deque(maxlen=self.settings.window)))
            found = self._take(board, time, frame)
            if found is not None:
                accepted.append(found)
        return accepted

    def _take(self, board: _Board, time: float, frame: BoardFrame) -> Accepted | None:
        if frame.covered(self.settings) is not None:
            board.recent.clear()
            board.candidate = None
            board.run = None
            return None
        read = signature(frame.observation)
        if frame.held_since is not None and not board.recent:
            # Read after waiting while its picture held as it is now: the frames it waited
            # show what this one does, and count as reading it.
            for _ in range(min(frame.held_frames, self.settings.window - 1)):
                board.recent.append((frame.observation, read))
            board.run, board.run_since = read, frame.held_since
        board.recent.append((frame.observation, read))
        if read != board.run:
            board.run, board.run_since = read, time
        if len(board.recent) < self.settings.min_frames:
            return None
        voted = vote([s for _, s in board.recent])
        if voted != board.candidate:
            board.candidate = voted
            board.since = time
        if voted is None or voted == board.accepted:
            return None
        # Held since the vote turned to it, or since the first of the clean frames that all
        # read it exactly: frames of a still board agreeing from the first need not wait for
        # the vote to have formed before their time counts.
        held = min(board.since, board.run_since) if voted == board.run else board.since
        if time - held < self.settings.hold_s - TIME_SLACK_S:
            return None
        # The newest frame that reads exactly the voted reading speaks for it; votes pieced
        # together from different frames, with no one frame agreeing, wait for one that does.
        observation = next((o for o, s in reversed(board.recent) if s == voted), None)
        if observation is None:
            return None
        board.accepted = voted
        return Accepted(observation, time, held)
