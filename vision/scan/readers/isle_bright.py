"""An Isle of Colors sheet in a photo calibrated by the colour reference card, where the sensor
clipped the paper in some channels or in all of them.

1. The sheet is colour-corrected, then scaled per channel so that the sensor's limit reads where
   the reader expects it (the cells' fit is blind to a gain per channel, and tells clipped
   channels by their level).
2. The paper's white, channel against channel, is the printed paper's colour as the card shows
   it wherever the bare margin only bounds it; where no paper shows below the limit at all, the
   white is the paper's colour as bright as at the card.
3. The sheet may lie in other light than the card, and a white taken from the card may be off:
   the cell model is told where it was (see ``isle_features``).
4. Light strokes vanish into clipped paper: a cell read bare is bare only if a firm stroke of any
   pencil would show below the sensor's limit there, lit as brightly as the sheet may be.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from calibration.colour import ColourCorrection
from companion.observation import ComponentRead as Read
from vision.layout.inks import INKS
from vision.scan.readers.isle_sheet import Floats

CLIPPED = 248.0  # as the Isle reader takes the sensor's limit
# The sheet may lie in brighter light than the card (on medium renders its paper measures 0.75
# to 1.18 times as bright): a bare cell is judged as if lit this much brighter.
CARD_SLACK = 1.15
BRIGHTEST_REACH_MM = 40.0  # a bare cell may be lit as brightly as any cell this near
# A cell is hatched with strokes of uneven pressure; its firmest are pressed at least this hard.
FIRM_STROKE = 0.7


def calibrated(image: Floats, correction: ColourCorrection) -> tuple[Floats, Floats]:
    """The sheet colour-corrected and scaled so that the sensor's limit reads CLIPPED in each
    channel (where correction darkened it), and the paper's white there at the card's light."""
    corrected = correction.apply_bgr(image.reshape(-1, 3)).reshape(image.shape)
    limit = correction.apply_bgr(np.full((1, 3), 255.0, np.float32))[0]
    gain = CLIPPED / np.clip(limit, 1.0, CLIPPED)
    r, g, b = INKS["paper"]
    paper = np.array([b, g, r], np.float32) * gain
    return np.asarray(corrected * gain, np.float32), np.asarray(paper, np.float32)


def known_white(white: Floats, weight: Floats, colour: Floats) -> tuple[Floats, Floats]:
    """The paper's white channel against channel (``white``, ``weight`` as the margin measured
    them) where a clipped channel is only bounded there: in a calibrated photo the paper's
    ``colour`` says it, at the brightness of the channels measured (and never below the
    bound)."""
    measured = weight >= 1.0
    level = float(np.mean(white[measured] / colour[measured]))
    full = np.where(measured, white, np.maximum(white, colour * level))
    return np.asarray(full, np.float32), np.ones(3, np.float32)


def cell_means(values: Floats, owner: NDArray[np.intp], count: int) -> Floats:
    """Per cell (C x 3), the mean of its pixels' ``values`` (N x 3)."""
    n = np.maximum(np.bincount(owner, minlength=count), 1)
    sums = np.stack([np.bincount(owner, values[:, c], count) for c in range(3)], axis=1)
    return np.asarray(sums / n[:, None], np.float32)


def brightest_near(white: Floats, centres: NDArray[np.float64]) -> Floats:
    """Per cell (C x 3), the brightest white of any cell within BRIGHTEST_REACH_MM."""
    apart = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    near = apart <= BRIGHTEST_REACH_MM
    return np.asarray(np.where(near[:, :, None], white[None, :, :], 0.0).max(axis=1), np.float32)


def lightest_shown(white: Floats, absorb: Floats) -> Floats:
    """Per cell, the lightest stroke of every pencil (``absorb``: K x 3) that would still show
    below the sensor's limit on paper this white (C x 3): a channel of paper that is not
    clipped shows any stroke."""
    excess = np.maximum(1.0 - CLIPPED / np.maximum(white, 1e-6), 0.0)  # C x 3
    needed = excess[:, None, :] / np.maximum(absorb[None, :, :], 1e-6)  # C x K x 3
    return np.asarray(needed.min(axis=2).max(axis=1), np.float32)


def unseen_strokes(
    reads: list[Read], white: Floats, centres: NDArray[np.float64], absorb: Floats
) -> list[Read]:
    """``reads``, but a cell read bare where a firm stroke might not show (``white``: per cell,
    the paper's white as bright as it may be there) is a problem."""
    hidden = lightest_shown(brightest_near(white, centres), absorb) > FIRM_STROKE
    return [
        Read(r.component, None, 0.0, f"{r.component}: overexposed, light strokes would not show")
        if hidden[k] and r.value is None and not r.problem
        else r
        for k, r in enumerate(reads)
    ]
