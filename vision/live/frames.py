"""A scanned frame as the stability filter sees it: each board with how much of it is in view
and how much the picture over it changed since the previous frame."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.observation import BoardObservation
from vision.images import Image
from vision.layout.catalogue import MarkerOwner
from vision.live.stability import BoardFrame
from vision.scan.scanner import Observation

CHANGE_WIDTH = 320  # frames are compared this small: plenty to see a hand, cheap on every frame
Grey = NDArray[np.uint8]


def small_grey(image: Image) -> Grey:
    scale = CHANGE_WIDTH / image.shape[1]
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), np.uint8)


def marker_counts(index: Mapping[int, MarkerOwner]) -> dict[str, int]:
    """How many markers each printed component carries, by its key."""
    return dict(Counter(owner.layout.key for owner in index.values()))


def board_frames(
    observation: Observation,
    index: Mapping[int, MarkerOwner],
    counts: Mapping[str, int],
    grey: Grey,
    previous: Grey | None,
    width: int,
) -> list[BoardFrame]:
    """The players' boards of one scanned frame (``width`` pixels wide; ``grey`` and
    ``previous`` its small grey copy and the previous frame's)."""
    scale = grey.shape[1] / width
    frames: list[BoardFrame] = []
    for board in observation.boards:
        if board.kind != "player":
            continue
        keys = set(board.boards)
        seen = len({m.id for m in observation.markers if _owned(m.id, index, keys)})
        expected = sum(counts.get(key, 0) for key in board.boards)
        moved = change(board_points(board, observation, index) * scale, grey, previous)
        frames.append(BoardFrame(board, seen, expected, moved))
    return frames


def board_points(
    board: BoardObservation, observation: Observation, index: Mapping[int, MarkerOwner]
) -> NDArray[np.float64]:
    """The corners (photo px) of the board's own markers seen in ``observation``."""
    keys = set(board.boards)
    own = [m for m in observation.markers if _owned(m.id, index, keys)]
    return np.asarray([p for marker in own for p in marker.corners], np.float64).reshape(-1, 2)


def _owned(marker: int, index: Mapping[int, MarkerOwner], keys: set[str]) -> bool:
    return marker in index and index[marker].layout.key in keys


def change(points: NDArray[np.float64], grey: Grey, previous: Grey | None) -> float:
    """Mean absolute grey-level change within the box around ``points``."""
    if previous is None or len(points) == 0:
        return 0.0
    if previous.shape != grey.shape:
        return math.inf
    h, w = grey.shape
    x0, y0 = (max(0, math.floor(v)) for v in points.min(axis=0))
    x1, y1 = min(w, math.ceil(points[:, 0].max()) + 1), min(h, math.ceil(points[:, 1].max()) + 1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    now = grey[y0:y1, x0:x1].astype(np.int16)
    before = previous[y0:y1, x0:x1].astype(np.int16)
    return float(np.abs(now - before).mean())
