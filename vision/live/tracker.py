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
- The whole frame is searched when a glance at it (the quick half-size search alone) finds a
  marker the tracker does not know: glanced at when a change off every known board holds still
  (a board laid down, a card put aside), when a board was lost or a marker went missing since
  the look before (it may have moved out of the places searched), and, as a safety net, every
  ``full_search_s``. A change off the boards over more than ``whole_share`` of the frame (a
  bumped camera) is searched whole at once.

The comparison is made against the table as it was when each part was last looked at, not the
previous frame, so a slow drift adds up until it is looked at.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from companion.observation import BoardObservation
from vision.fiducials import Marker
from vision.images import Image
from vision.layout.catalogue import MarkerOwner
from vision.live.frames import Grey, board_points, change
from vision.scan.marker_search import Place
from vision.scan.scanner import Known, Observation, Reading, Scanner

Mask = NDArray[np.bool_]


@dataclass(frozen=True)
class Tracking:
    # A block of the small grey copy (4 x 4 px: 24 x 24 px of a 1080p frame) counts as changed
    # when its pixels moved by more than this mean grey level. Measured on the renders (two draws
    # of a still table's sensor noise): at most 1.25 at the demo's noise, 3.0 at the hardest
    # the renderer draws (sigma 8); the least change a move made on a board was 20 (a chip).
    block: int = 4
    noise_level: float = 5.0
    # This often the whole frame is glanced at for markers not known, and searched if it shows
    # one: a safety net under the block comparison, some 10 ms a second at 1080p, where a search
    # of the whole frame takes 25 to 90 ms.
    full_search_s: float = 1.0
    # Around each known marker this much of its side is searched: room for a board nudged.
    margin: float = 1.0
    # Frames larger than this (px, the longer side) are searched whole at this size: a 1080p
    # camera's frames as they are, a 4K camera's at half size, where its markers are as large
    # as a 1080p camera's. Around known markers, the frame is shrunk further while a cell of the
    # smallest of them stays this large (px; the detector wants at least 4).
    whole_side: int = 1920
    cell_px: float = 5.0
    # A change off the boards that holds still over more than this share of the frame (a bumped
    # camera) has the whole frame searched at once.
    whole_share: float = 0.25
    max_change: float = 6.0  # the stability filter's: a board changing more is moving


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
        self.last = Look("whole", 0)

    def reset(self) -> None:
        """Forget what was seen: the next frame is searched whole and every board read."""
        self._observation = None
        self._reference = None

    def look(self, image: Image, time: float, grey: Grey, previous: Grey | None) -> Observation:
        """The frame's observation (``grey`` its small grey copy, ``previous`` the previous
        frame's), from as little searching and reading as still sees every change."""
        observation, reference = self._observation, self._reference
        if observation is None or reference is None or reference.shape != grey.shape:
            return self._whole(image, time, grey, None)
        changed = self._blocks(grey, reference) > self.tracking.noise_level
        width = image.shape[1]
        regions = {b.boards: self._region(b, observation, grey, width) for b in observation.boards}
        off_boards = changed.copy()
        for region in regions.values():
            region.of(off_boards)[:] = False
        glance = self._glance_next or time - self._searched_at >= self.tracking.full_search_s
        due = False
        if off_boards.any() and self._still(off_boards, grey, previous):
            # Something came or went off the boards and holds still: a board laid down shows
            # markers not known; settled, it is part of the table as it now is.
            due = float(off_boards.mean()) > self.tracking.whole_share
            glance = True
            self._settle(grey, reference, off_boards)
        if due or (glance and self._unknown_in_view(image, observation, time)):
            return self._whole(image, time, grey, changed)
        self._glance_next = False
        looked = [
            b
            for b in observation.boards
            if regions[b.boards].of(changed).any()
            and not self._moving(b, observation, grey, previous, width)
        ]
        if not looked:
            self.last = Look("nothing", 0)
            return observation
        return self._around(image, grey, observation, looked, [regions[b.boards] for b in looked])

    def _unknown_in_view(self, image: Image, observation: Observation, time: float) -> bool:
        """Whether a glance at the whole frame finds a marker the observation does not know."""
        self._searched_at = time
        scale = min(1.0, self.tracking.whole_side / float(max(image.shape[:2])))
        known = {m.id for m in observation.markers} | set(observation.unknown_ids)
        return not self.scanner.glance(image, scale) <= known

    def _whole(self, image: Image, time: float, grey: Grey, changed: Mask | None) -> Observation:
        """A search of the whole frame; boards whose pixels are unchanged are not read again."""
        holding = {}
        reference = grey.copy()
        if changed is not None and self._observation is not None and self._reference is not None:
            before = self._observation
            for board in before.boards:
                region = self._region(board, before, grey, image.shape[1])
                if not region.of(changed).any():
                    holding.update(_readings_of(before, board.boards))
                    # Compared with the table as it was when read, so that a slow drift (the
                    # light fading) still adds up until the board is read again.
                    self._copy(self._reference, reference, region)
        scale = min(1.0, self.tracking.whole_side / float(max(image.shape[:2])))
        hidden = self._before_for_hidden(holding)
        observation = self.scanner.scan(image, known=Known(None, (), holding, scale, hidden))
        self._reference = reference
        self._searched_at = time
        self._glance_next = False
        self._observation = observation
        self.last = Look("whole", _fresh(observation, holding, hidden))
        return observation

    def _around(
        self,
        image: Image,
        grey: Grey,
        before: Observation,
        looked: Sequence[BoardObservation],
        regions: Sequence[Region],
    ) -> Observation:
        """The ``looked`` boards searched for around where their markers were, and read; every
        other board as it was."""
        to_blocks = grey.shape[1] / image.shape[1] / self.tracking.block
        inside = [m for m in before.markers if _within(m, regions, to_blocks)]
        around = tuple(self._place(m) for m in inside)
        kept = tuple(m for m in before.markers if m not in inside)
        keys = {key for board in looked for key in board.boards}
        holding = {r.board.layout.key: r for r in before.readings if r.board.layout.key not in keys}
        scale = self._scale(inside, image)
        hidden = self._before_for_hidden(holding)
        observation = self.scanner.scan(image, known=Known(around, kept, holding, scale, hidden))
        reference = self._reference
        assert reference is not None
        for region in regions:
            self._copy(grey, reference, region)
        # A board lost, or a marker gone, since the look before: it may have moved out of the
        # places searched; the next frame is glanced at, and searched whole if its markers show.
        self._glance_next = any(
            self._seen(observation, board.boards) < self._seen(before, board.boards)
            for board in looked
        )
        self._observation = observation
        self.last = Look("around", _fresh(observation, holding, hidden))
        return observation

    def _before_for_hidden(self, holding: Mapping[str, Reading]) -> dict[str, Reading]:
        """The readings from before of the boards to be read again: where a board's markers are
        now partly hidden, it is covered whatever it reads, and its reading from before stands
        in (one not covered is read again as soon as its pixels change)."""
        if self._observation is None:
            return {}
        readings = self._observation.readings
        return {r.board.layout.key: r for r in readings if r.board.layout.key not in holding}

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
) -> int:
    """How many of the observation's boards were read now, not taken from before."""
    before = {id(r.observation) for r in (*holding.values(), *hidden.values())}
    return sum(1 for r in observation.readings if id(r.observation) not in before)


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
