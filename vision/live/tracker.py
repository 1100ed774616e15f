"""Boards followed from frame to frame, so that a still table costs a still table's price.

A camera over a table sees the same still boards frame after frame, and searching the whole frame
for markers and reading every board is nearly all of a frame's cost. So each frame's small grey
copy is compared, block by block, with the table as it was last looked at:

- A board whose blocks all match within the sensor's noise is not looked at again: its markers
  and its reading are what they were, since the pixels they were found in are.
- A board whose blocks changed and that moves from one frame to the next (by the stability
  filter's own measure) is covered whatever it would read, so it is left until it holds still.
- A board that changed and holds still is looked at again: its markers searched for only around
  where they were (with room for a nudge), then it alone read.
- Markers the tracker does not know are searched for around where a glance at the whole frame
  (the quick half-size search alone) finds them, and where the boards found there say their
  other markers lie: glanced at when a change off every known board holds still (a board laid
  down, a card put aside), when a board was lost or a marker went missing since the look before
  (it may have moved out of the places searched), and, as a safety net, every
  ``full_search_s``. After a change off the boards over more than ``whole_share`` of the frame
  (a bumped camera, the table laid out afresh), markers the glance finds away from where they
  were known are searched for where it found them too. The whole frame is searched only for
  the first frame (or one of another size).

The comparison is made against the table as it was when each part was last looked at, not the
previous frame, so a slow drift adds up until it is looked at.

A frame's look is bounded, so that the frames behind it are not dropped: given the loop's
``Budget`` (how long the frame may take), the boards to be read beyond it are left waiting,
observed as not read yet (a problem: the stability filter counts them covered, so nothing is
accepted of a board while it waits), and read on the following frames: those a hand was over
first, then those waiting longest. A glance that does not fit is made on the next frame that
has time for it. A loop that took its frame as it arrived always reads at least one board, or
makes the search it owes, whatever it costs. What each look costs is measured as it is made.
"""

from __future__ import annotations

import dataclasses
import time as clock
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from companion.observation import BoardObservation
from vision.fiducials import Marker
from vision.images import Image
from vision.layout.catalogue import MarkerOwner
from vision.live.frames import Grey, board_points, change, marker_counts
from vision.scan.marker_search import Place
from vision.scan.scanner import WAITING, Known, Observation, Reading, Scanner, waiting

Mask = NDArray[np.bool_]


@dataclass(frozen=True)
class Tracking:
    # A block of the small grey copy (4 x 4 px: 24 x 24 px of a 1080p frame) counts as changed
    # when its pixels moved by more than this mean grey level. Measured on the renders (two draws
    # of a still table's sensor noise): at most 1.25 at the demo's noise, 3.0 at the hardest
    # the renderer draws (sigma 8); the least change a move made on a board was 20 (a chip).
    block: int = 4
    noise_level: float = 5.0
    # This often the whole frame is glanced at for markers not known, searched for where it
    # shows one: a safety net under the block comparison, some 10 ms a second at 1080p, where a
    # search of the whole frame takes 25 to 90 ms.
    full_search_s: float = 1.0
    # Around each known marker this much of its side is searched: room for a board nudged.
    margin: float = 1.0
    # Frames larger than this (px, the longer side) are searched whole at this size: a 1080p
    # camera's frames as they are, a 4K camera's at half size, where its markers are as large
    # as a 1080p camera's. Around known markers, the frame is shrunk further while a cell of the
    # smallest of them stays this large (px; the detector wants at least 4).
    whole_side: int = 1920
    cell_px: float = 5.0
    # After a change off the boards that holds still over more than this share of the frame (a
    # bumped camera), known markers are looked for where they now lie.
    whole_share: float = 0.25
    max_change: float = 6.0  # the stability filter's: a board changing more is moving
    # At most this many boards read in one frame (None: as many as the frame's budget allows).
    most_reads: int | None = None
    # What a look costs, guessed until measured (ms, 1080p on one core of the build machine):
    # a board read (its search around included), a glance, a search of the whole frame.
    read_ms: float = 30.0
    glance_ms: float = 12.0
    whole_ms: float = 50.0
    place_ms: float = 10.0  # a place searched around, where a glance found a marker


# Of a frame's time, kept from its look for the rest of its work; and how late a frame may be
# taken and still count as taken as it arrived (a camera's frames are read a little before the
# loop takes them).
RESERVE = 1 / 3
CAUGHT_UP = 0.1


@dataclass(frozen=True)
class Budget:
    """How long one frame's look may take: until ``deadline`` (``time.perf_counter``), so that
    the loop is done with the frame before the frame after next arrives (one done later drops
    the frame behind it), with a third of a frame's time kept for the rest of the frame's work
    (the stability filter, an event's pictures and its commit). ``caught_up``: the loop took the
    frame as it arrived, waiting for nothing before it; then the look makes at least one read,
    or the search it owes, whatever its cost (a look that never fits is made all the same)."""

    deadline: float
    caught_up: bool

    @classmethod
    def of(cls, period_s: float, behind_s: float, start: float | None = None) -> Budget:
        """The budget of a frame of a camera delivering one every ``period_s``, taken by the
        loop ``behind_s`` after it arrived, at ``start`` (now when None)."""
        now = clock.perf_counter() if start is None else start
        behind = max(0.0, behind_s)
        return cls(now + (2 - RESERVE) * period_s - behind, behind <= CAUGHT_UP * period_s)

    def left_ms(self) -> float:
        return (self.deadline - clock.perf_counter()) * 1000


@dataclass(frozen=True)
class Region:
    """A rectangle of blocks (x1, y1 exclusive)."""

    x0: int
    y0: int
    x1: int
    y1: int

    def of(self, mask: Mask) -> Mask:
        return mask[self.y0 : self.y1, self.x0 : self.x1]


@dataclass(frozen=True)
class Look:
    """What one frame's look was: how the frame was searched and how many boards were read."""

    searched: str  # "nothing" (all unchanged), "around" (known places) or "whole"
    read: int
    waiting: int = 0  # boards left to be read on a following frame


class Tracker:
    """A scanner's looks at a live camera's frames, each frame as little as it needs."""

    def __init__(self, scanner: Scanner, tracking: Tracking | None = None) -> None:
        self.scanner = scanner
        self.tracking = tracking or Tracking()
        self._index: Mapping[int, MarkerOwner] = scanner.index
        self._observation: Observation | None = None
        self._reference: Grey | None = None  # the table as it was where it was last looked at
        self._searched_at = 0.0
        self._glance_next = False
        self._moved_next = False
        # Boards left to be read, by layout key: the look at which each began to wait.
        self._waiting: dict[str, int] = {}
        # Boards a hand was seen over (some of their markers hidden) since they were last read
        # whole: what lies on them may have changed, and they are read first.
        self._touched: set[str] = set()
        self._markers_of = marker_counts(self._index)
        self._cost: dict[str, float] = {}  # what reading each board costs (ms, its look's share)
        # Boards waiting to be read whose picture has held, unchanged and still, since a look:
        # its time, the small grey copy then, and the count of looks then.
        self._since: dict[str, tuple[float, Grey, int]] = {}
        # The boards read in the last look that had so waited: since when, over how many looks.
        self.held: dict[str, tuple[float, int]] = {}
        self._now: tuple[float, Grey] = (0.0, np.zeros((1, 1), np.uint8))
        self._compared: tuple[Grey | None, Mask] = (None, np.zeros((1, 1), bool))
        self._place_ms = self.tracking.place_ms
        self._looks = 0
        self._read_ms = self.tracking.read_ms
        self._glance_ms = self.tracking.glance_ms
        self._whole_ms = self.tracking.whole_ms
        self.last = Look("whole", 0)

    def reset(self) -> None:
        """Forget what was seen: the next frame is searched whole and every board read."""
        self._observation = None
        self._reference = None
        self._waiting = {}
        self._touched = set()
        self._since = {}
        self._moved_next = False

    def look(
        self,
        image: Image,
        time: float,
        grey: Grey,
        previous: Grey | None,
        budget: Budget | None = None,
    ) -> Observation:
        """The frame's observation (``grey`` its small grey copy, ``previous`` the previous
        frame's), from as little searching and reading as still sees every change, and no more
        than fits ``budget`` (None: every board to be read is read)."""
        self._looks += 1
        self._now = (time, grey)
        self._compared = (None, self._compared[1])
        self.held = {}
        observation, reference = self._observation, self._reference
        if observation is None or reference is None or reference.shape != grey.shape:
            return self._whole(image, time, grey, budget)
        changed = self._blocks(grey, reference) > self.tracking.noise_level
        width = image.shape[1]
        regions = {b.boards: self._region(b, observation, grey, width) for b in observation.boards}
        off_boards = changed.copy()
        for region in regions.values():
            region.of(off_boards)[:] = False
        glance = self._glance_next or time - self._searched_at >= self.tracking.full_search_s
        moved = self._moved_next
        if off_boards.any() and self._still(off_boards, grey, previous):
            # Something came or went off the boards and holds still: a board laid down shows
            # markers not known; settled, it is part of the table as it now is. Over much of
            # the frame (the camera knocked, the table laid out afresh), markers known may lie
            # elsewhere now too.
            moved = moved or float(off_boards.mean()) > self.tracking.whole_share
            glance = True
            self._settle(grey, reference, off_boards)
        waiting = self._waiting.keys()
        looked = []
        for b in observation.boards:
            if regions[b.boards].of(changed).any() or not waiting.isdisjoint(b.boards):
                moving = self._moving(b, observation, grey, previous, width)
                self._hold(b, regions[b.boards], grey, moving)
                if not moving:
                    looked.append(b)
        unknown: tuple[Place, ...] = ()
        # A glance comes after the boards to be read: it waits for a frame with time for both.
        reads_ms = max((self._cost_of(b) for b in looked), default=0.0)
        if glance and self._affords(budget, self._glance_ms + reads_ms, not looked or moved):
            # Markers the glance finds that are not known (or, after a change over much of the
            # frame, lie away from where they were) are searched for around where it found
            # them, with the boards that changed: where a board's markers lie, its other
            # markers are searched for too.
            unknown = tuple(self._unknown_in_view(image, observation, time, moved))
            glance = moved = False
        # A glance the loop is too far behind for waits for a frame with time for it, while the
        # boards are looked at around where they are.
        self._moved_next, self._glance_next = moved, glance
        if not looked and not unknown:
            self.last = Look("nothing", 0, len(self._waiting))
            return observation
        regions_looked = [regions[b.boards] for b in looked]
        return self._around(image, grey, observation, looked, regions_looked, budget, unknown)

    def _affords(self, budget: Budget | None, cost_ms: float, owed: bool = True) -> bool:
        """Whether a look costing ``cost_ms`` fits the frame's budget (one ``owed`` is made
        whatever it costs when the loop is caught up)."""
        return budget is None or (owed and budget.caught_up) or budget.left_ms() >= cost_ms

    def _chosen(
        self, boards: Sequence[BoardObservation], budget: Budget | None, owed_ms: float
    ) -> int:
        """How many of ``boards`` (in the order they would be read) fit the frame's budget after
        ``owed_ms`` of searching; at least one when the loop is caught up and nothing else is
        owed."""
        most = len(boards) if self.tracking.most_reads is None else self.tracking.most_reads
        if budget is None:
            return min(most, len(boards))
        left = budget.left_ms() - owed_ms
        count = 0
        for board in boards[:most]:
            left -= self._cost_of(board)
            if left < 0 and not (count == 0 and budget.caught_up and owed_ms == 0):
                break
            count += 1
        return count

    def _cost_of(self, board: BoardObservation) -> float:
        return sum(self._cost.get(key, self._read_ms) for key in board.boards)

    def _known(
        self,
        around: tuple[Place, ...] | None,
        kept: tuple[Marker, ...],
        holding: Mapping[str, Reading],
        scale: float,
        most_reads: int | None,
    ) -> Known:
        hidden = self._before_for_hidden(holding)
        return Known(around, kept, holding, scale, hidden, most_reads, self._first())

    def _first(self) -> tuple[str, ...]:
        """The boards waiting to be read, those waiting longest first."""
        return tuple(sorted(self._waiting, key=lambda key: (self._waiting[key], key)))

    def _hold(self, board: BoardObservation, region: Region, grey: Grey, moving: bool) -> None:
        """Whether the picture of a board waiting to be read still holds as it was when it began
        to wait: a board that moves, or whose blocks changed since, waits afresh."""
        for key in board.boards:
            since = self._since.get(key)
            if since is None:
                continue
            if moving:
                del self._since[key]
            elif region.of(self._changed_since(grey, since[1])).any():
                self._since[key] = (self._now[0], grey, self._looks)

    def _changed_since(self, grey: Grey, then: Grey) -> Mask:
        """The blocks changed since ``then`` (worked out once a look for each copy compared)."""
        if self._compared[0] is not then:
            self._compared = (then, self._blocks(grey, then) > self.tracking.noise_level)
        return self._compared[1]

    def _note(self, observation: Observation, searched: str, fresh: set[str], ms: float) -> None:
        """The boards left waiting after a look, those a hand was over, and what its reads
        (``fresh``, by layout key) cost."""
        time, grey = self._now
        for key in fresh & self._since.keys():
            since_time, _, since_looks = self._since[key]
            self.held[key] = (since_time, self._looks - since_looks)
        # A board begins to wait at a look where it was found still: a board that moved was
        # not looked at.
        self._since = {
            key: self._since.get(key, (time, grey, self._looks)) for key in observation.waiting
        }
        self._waiting = {key: self._waiting.get(key, self._looks) for key in observation.waiting}
        for board in observation.boards:
            expected = sum(self._markers_of.get(key, 0) for key in board.boards)
            if self._seen(observation, board.boards) < expected:
                self._touched.update(board.boards)
            else:
                self._touched.difference_update(fresh & set(board.boards))
        if fresh:
            each = ms / len(fresh)
            self._read_ms = _blend(self._read_ms, each)
            for key in fresh:
                self._cost[key] = _blend(self._cost.get(key, each), each)
        self.last = Look(searched, len(fresh), len(self._waiting))

    def _unknown_in_view(
        self, image: Image, observation: Observation, time: float, moved: bool = False
    ) -> list[Place]:
        """Where a glance at the whole frame finds markers the observation does not know; when
        ``moved``, and markers it knows away from where they were (by half their side)."""
        self._searched_at = time
        scale = min(1.0, self.tracking.whole_side / float(max(image.shape[:2])))
        known: dict[int, NDArray[np.float64] | None] = dict.fromkeys(observation.unknown_ids)
        known.update((m.id, np.asarray(m.corners, np.float64)) for m in observation.markers)
        start = clock.perf_counter()
        seen = self.scanner.glance(image, scale)
        self._glance_ms = _blend(self._glance_ms, (clock.perf_counter() - start) * 1000)
        return [
            (quad, self.tracking.margin)
            for marker, quad in seen.items()
            if marker not in known or (moved and _away(quad, known[marker]))
        ]

    def _whole(self, image: Image, time: float, grey: Grey, budget: Budget | None) -> Observation:
        """A search of the whole frame, the first: its boards read as far as the frame's budget
        allows (the others wait for the frames after)."""
        holding: dict[str, Reading] = {}
        self._waiting = {}
        reference = grey.copy()
        scale = min(1.0, self.tracking.whole_side / float(max(image.shape[:2])))
        most = self.tracking.most_reads
        if budget is not None:
            # What the search costs comes out of the reads' budget: it is made first.
            fit = max(0, int((budget.left_ms() - self._whole_ms) // self._read_ms))
            most = fit if most is None else min(most, fit)
        known = self._known(None, (), holding, scale, most)
        observation = self.scanner.scan(image, known=known)
        self._whole_ms = _blend(self._whole_ms, _stage(observation, "markers", "unreadable"))
        self._reference = reference
        self._searched_at = time
        self._glance_next = self._moved_next = False
        self._observation = observation
        fresh = _fresh(observation, holding, known.hidden)
        self._note(observation, "whole", fresh, _stage(observation, "read"))
        return observation

    def _around(
        self,
        image: Image,
        grey: Grey,
        before: Observation,
        looked: Sequence[BoardObservation],
        regions: Sequence[Region],
        budget: Budget | None,
        unknown: tuple[Place, ...] = (),
    ) -> Observation:
        """The ``looked`` boards searched for around where their markers were, and read, as
        many as the budget allows (those waiting longest first), and markers not known searched
        for around the places given (a board found there is read); every other board as it
        was. With no read allowed, the boards to be read wait, not searched for."""
        start = clock.perf_counter()
        if len(looked) > 1:
            # Those a hand was over are read first (what lies on them may have changed; a board
            # that only moved reads as it did), then those waiting longest, then the others in
            # the table's order.
            order = {key: at for at, key in enumerate(self._first())}
            ranked = sorted(
                zip(looked, regions, strict=True),
                key=lambda pair: (
                    self._touched.isdisjoint(pair[0].boards),
                    min(order.get(k, len(order)) for k in pair[0].boards),
                ),
            )
            looked, regions = [b for b, _ in ranked], [r for _, r in ranked]
        # The places a glance found are searched first (it is what a board laid down, or the
        # table laid out afresh, waits for); the boards are read as the time left allows.
        read = looked[: self._chosen(looked, budget, len(unknown) * self._place_ms)]
        if not read and not unknown:
            return self._wait(before, looked)
        to_blocks = grey.shape[1] / image.shape[1] / self.tracking.block
        inside = [m for m in before.markers if _within(m, regions[: len(read)], to_blocks)]
        around = tuple(self._place(m) for m in inside) + unknown
        kept = tuple(m for m in before.markers if m not in inside)
        keys = {key for board in read for key in board.boards}
        # The boards past the budget wait, neither searched for nor read: not read yet.
        left = {key for board in looked[len(read) :] for key in board.boards}
        holding = {
            r.board.layout.key: r
            for r in before.readings
            if r.board.layout.key not in keys and r.board.layout.key not in left
        }
        scale = self._scale(inside, image)
        known = dataclasses.replace(
            self._known(around, kept, holding, scale, None), left=frozenset(left)
        )
        observation = self.scanner.scan(image, known=known)
        reference = self._reference
        assert reference is not None
        for board, region in zip(looked, regions, strict=True):
            if set(observation.waiting).isdisjoint(board.boards):
                self._copy(grey, reference, region)
        # A board lost, or a marker gone, since the look before: it may have moved out of the
        # places searched; the next frame is glanced at, and searched whole if its markers show.
        self._glance_next = self._glance_next or any(
            self._seen(observation, board.boards) < self._seen(before, board.boards)
            for board in read
        )
        self._observation = observation
        fresh = _fresh(observation, holding, known.hidden)
        if unknown:
            # All of the search's cost is put down to the places, the boards' other markers
            # searched for around them included.
            self._place_ms = _blend(self._place_ms, _stage(observation, "markers") / len(unknown))
        # A read's cost here is all the look's: the search around the board, the read, the rest.
        self._note(observation, "around", fresh, (clock.perf_counter() - start) * 1000)
        return observation

    def _wait(self, before: Observation, boards: Sequence[BoardObservation]) -> Observation:
        """The observation before, the ``boards`` in it left to be read: not read yet (a
        problem), each reading of theirs standing in for nothing."""
        keys = {key for board in boards for key in board.boards}

        def marked(board: BoardObservation) -> BoardObservation:
            problems = [f"board {key}: not read yet" for key in board.boards if key in keys]
            new = tuple(p for p in problems if p not in board.problems)
            return dataclasses.replace(board, problems=(*board.problems, *new)) if new else board

        readings = tuple(
            Reading(r.board, waiting(r.board.layout)) if r.board.layout.key in keys else r
            for r in before.readings
        )
        left = (*before.waiting, *sorted(keys - set(before.waiting)))
        boards_now = tuple(map(marked, before.boards))
        observation = dataclasses.replace(
            before, boards=boards_now, readings=readings, waiting=left
        )
        self._observation = observation
        self._note(observation, "around", set(), 0.0)
        return observation

    def _before_for_hidden(self, holding: Mapping[str, Reading]) -> dict[str, Reading]:
        """The readings from before of the boards to be read again: where a board's markers are
        now partly hidden, it is covered whatever it reads, and its reading from before stands
        in (one not covered is read again as soon as its pixels change)."""
        if self._observation is None:
            return {}
        readings = self._observation.readings
        return {
            r.board.layout.key: r
            for r in readings
            if r.board.layout.key not in holding and r.observation.position is not WAITING
        }

    def _settle(self, grey: Grey, reference: Grey, mask: Mask) -> None:
        """The blocks of ``mask`` taken into the reference as they now are."""
        block = self.tracking.block
        pixels = np.kron(mask, np.ones((block, block), bool))[: grey.shape[0], : grey.shape[1]]
        reference[pixels] = grey[pixels]

    def _copy(self, source: Grey, target: Grey, region: Region) -> None:
        """The pixels of ``region``'s blocks, from ``source`` into ``target``."""
        block = self.tracking.block
        rows = slice(region.y0 * block, region.y1 * block)
        columns = slice(region.x0 * block, region.x1 * block)
        target[rows, columns] = source[rows, columns]

    def _scale(self, markers: Sequence[Marker], image: Image) -> float:
        """How far the frame may be shrunk for a search around ``markers``: until a cell of the
        smallest is ``cell_px``, and no further than a whole search shrinks it."""
        whole = min(1.0, self.tracking.whole_side / float(max(image.shape[:2])))
        if not markers:
            return whole
        cells = self.scanner.search.dictionary.bits + 2  # a side's cells, the border included
        smallest = min(float(_sides(m).min()) for m in markers)
        return float(min(1.0, max(whole, self.tracking.cell_px * cells / smallest)))

    def _place(self, marker: Marker) -> Place:
        return np.asarray(marker.corners, np.float64), self.tracking.margin

    def _seen(self, observation: Observation, keys: Iterable[str]) -> int:
        wanted = set(keys)
        return sum(
            1
            for m in observation.markers
            if m.id in self._index and self._index[m.id].layout.key in wanted
        )

    def _blocks(self, grey: Grey, reference: Grey) -> NDArray[np.float64]:
        """Each block's mean absolute grey-level change (the last partial row and column of
        blocks cover what is left)."""
        block = self.tracking.block
        h, w = grey.shape
        rows, columns = -(-h // block), -(-w // block)
        padded = np.zeros((rows * block, columns * block), np.float64)
        padded[:h, :w] = np.abs(grey.astype(np.int16) - reference.astype(np.int16))
        return np.asarray(padded.reshape(rows, block, columns, block).mean(axis=(1, 3)))

    def _still(self, mask: Mask, grey: Grey, previous: Grey | None) -> bool:
        """Whether the blocks of ``mask`` held still since the previous frame."""
        if previous is None or previous.shape != grey.shape:
            return False
        moved = self._blocks(grey, previous) > self.tracking.noise_level
        return not bool((moved & mask).any())

    def _moving(
        self,
        board: BoardObservation,
        observation: Observation,
        grey: Grey,
        previous: Grey | None,
        width: int,
    ) -> bool:
        """Whether the stability filter will find the board moving in this frame, whatever a
        look at it would read: measured as it measures, over the same markers."""
        points = board_points(board, observation, self._index) * (grey.shape[1] / width)
        return change(points, grey, previous) > self.tracking.max_change

    def _region(
        self, board: BoardObservation, observation: Observation, grey: Grey, width: int
    ) -> Region:
        """The blocks over a board (in a frame ``width`` px wide): its markers and its outline
        as read, and a block around (a piece may overhang its edge)."""
        scale = grey.shape[1] / width
        points = [board_points(board, observation, self._index)]
        for reading in _readings_of(observation, board.boards).values():
            corners = np.asarray(reading.board.layout.outline.corners(), np.float64)
            points.append(reading.board.to_image(corners))
        every = np.concatenate(points) * scale / self.tracking.block
        h, w = grey.shape
        block = self.tracking.block
        rows, columns = -(-h // block), -(-w // block)
        if len(every) == 0 or not np.isfinite(every).all():
            return Region(0, 0, columns, rows)  # nowhere known: anywhere
        x0, y0 = np.floor(every.min(axis=0)).astype(int) - 1
        x1, y1 = np.floor(every.max(axis=0)).astype(int) + 2
        return Region(max(0, int(x0)), max(0, int(y0)), min(columns, int(x1)), min(rows, int(y1)))


def _fresh(
    observation: Observation, holding: Mapping[str, Reading], hidden: Mapping[str, Reading]
) -> set[str]:
    """The observation's boards read now, not taken from before (by layout key)."""
    before = {id(r.observation) for r in (*holding.values(), *hidden.values())}
    return {
        r.board.layout.key
        for r in observation.readings
        if id(r.observation) not in before and r.observation.position is not WAITING
    }


def _away(quad: NDArray[np.float64], corners: NDArray[np.float64] | None) -> bool:
    """Whether a marker found at ``quad`` lies away from ``corners`` (where it was known), by
    more than half its side."""
    if corners is None:
        return False
    side = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())
    shift = float(np.linalg.norm(quad.mean(axis=0) - corners.mean(axis=0)))
    return shift > side / 2


def _stage(observation: Observation, *names: str) -> float:
    return sum(observation.stages_ms.get(name, 0.0) for name in names)


def _blend(estimate: float, measured: float) -> float:
    """A cost's estimate, a quarter of the way towards what it measured last."""
    return 0.75 * estimate + 0.25 * measured


def _readings_of(observation: Observation, keys: Iterable[str]) -> dict[str, Reading]:
    wanted = set(keys)
    return {r.board.layout.key: r for r in observation.readings if r.board.layout.key in wanted}


def _within(marker: Marker, regions: Sequence[Region], scale: float) -> bool:
    """Whether the marker's middle lies in one of ``regions`` (blocks; ``scale`` blocks a photo
    px)."""
    x, y = np.mean(np.asarray(marker.corners, np.float64), axis=0) * scale
    return any(r.x0 <= x < r.x1 and r.y0 <= y < r.y1 for r in regions)


def _sides(marker: Marker) -> NDArray[np.float64]:
    corners = np.asarray(marker.corners, np.float64)
    return np.asarray(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1), np.float64)
