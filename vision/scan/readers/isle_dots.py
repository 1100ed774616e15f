"""The ink dot printed in the middle of every Isle cell, and whether it shows.

Clipped pixels are no evidence of paper. Where the sensor clips (an overexposed photo, a glare),
bare paper and a white cup or hand over it clip alike, and the printed outline, a light grey,
clips with them. The dot is ink: it stays well below the sensor's limit where paper clips, pencil
strokes are translucent over it, and a hand or a cup hides it.

A cell mostly clipped in every channel is read bare only where its dot shows: otherwise it is
hidden by glare. On a sheet that shows its dots, every cell read bare must show its dot: a hand
or a cup the reader did not find over a cell hides it. A sheet printed before the dots, or seen
too small or too blurred to resolve them, shows none on its cells read bare: there the cells
that are not clipped are read as they were.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.observation import ComponentRead as Read
from vision.scan.colours import channel_sum
from vision.scan.readers.isle_over import LEAST_BARE
from vision.scan.readers.isle_sheet import SHEET_PPM, Floats, Mask, SheetMaps

# Log units: how much darker than the paper just around it a cell's middle must show for its dot
# to show. On the train boards 20000-20199 (hard, every other one exposed -1.5 to +1.5 EV with
# sensor noise, as the fitted models see them; 197 sheets read) printed without dots, 99.9 % of
# the cells read bare showed less than 0.135 (a shadow's edge, a stray stroke) and none 0.17.
DOT_SHOWS = 0.15
# A sheet shows its dots when the median over its cells read bare (LEAST_BARE at least, as the
# sheet's bare cells are judged elsewhere) reaches this. On the same boards printed without dots
# no sheet's median reached 0.08; printed with them, all but five (far, blurred or overexposed:
# 0.02-0.13) reached 0.21.
DOTS_PRINTED = 0.2
# A cell this much clipped in every channel shows too little to be called bare by its colour.
MOSTLY_CLIPPED = 0.5
# Wider than the dot (3 mm across) as the photo blurs it: a closing with it fills the dot in.
DOT_FILLED = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
# Where a dot is looked for about where it should be: a grid lined up to within 1 px.
NEAR = np.array([(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], np.intp)


def dot_depths(image: Floats, maps: SheetMaps) -> Floats:
    """Per cell, how much darker its printed dot shows than the paper just around it (log
    units, 0 where it shows none), where it shows darkest within 1 mm of where it should be
    (``image``: the sheet, lined up on its grid). Against the paper just around it, not the
    cell's: a shadow's edge across a cell darkens its middle as much as a faint dot."""
    h, w = image.shape[:2]
    grey = channel_sum(image.reshape(-1, 3)).reshape(h, w)
    # The paper as if nothing small and dark were printed on it: a closing wider than the dot.
    around = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, DOT_FILLED)
    # Means over 3 x 3 px, about the dot's size (sensor noise averages out), at the 3 x 3 px
    # about where each dot should be.
    xs = np.round(maps.centres[:, 0] * SHEET_PPM).astype(np.intp)[:, None] + NEAR[None, :, 1]
    ys = np.round(maps.centres[:, 1] * SHEET_PPM).astype(np.intp)[:, None] + NEAR[None, :, 0]
    xs, ys = np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1)
    paper = cv2.blur(around, (3, 3))[ys, xs]
    dot = cv2.blur(grey, (3, 3))[ys, xs]
    depth = np.log(np.maximum(paper, 1.0)) - np.log(np.maximum(dot, 1.0))
    return np.asarray(np.maximum(depth.max(axis=1), 0.0), np.float32)


def without_dots(image: Floats, clipped: Floats, dots: Mask) -> tuple[Floats, Floats]:
    """The sheet (``image``, and ``clipped``: where the sensor clipped it, per channel) as if
    printed without its dots (``dots``: their px): each filled in with what lies just around
    it, paper or strokes or a hand, and clipped as that is. The rest of the reader never sees
    them."""
    image, clipped = image.copy(), clipped.copy()
    image[dots] = cv2.morphologyEx(image, cv2.MORPH_CLOSE, DOT_FILLED)[dots]
    limit = cv2.morphologyEx((clipped > 0).astype(np.uint8), cv2.MORPH_CLOSE, DOT_FILLED)
    clipped[dots] = limit[dots]
    return image, clipped


def saturated_share(over: Mask, owner: NDArray[np.intp], count: int) -> Floats:
    """Per cell, the share of its pixels read (``over``: N x 3, clipped per channel) that are
    clipped in every channel."""
    sizes = np.maximum(np.bincount(owner, minlength=count), 1)
    return np.asarray(np.bincount(owner, over.all(axis=1), count) / sizes, np.float32)


def dots_show(reads: list[Read], depth: Floats) -> bool:
    """Whether the sheet shows its printed dots: on the cells read bare, as a rule."""
    bare = [k for k, read in enumerate(reads) if read.value is None and not read.problem]
    return len(bare) >= LEAST_BARE and float(np.median(depth[bare])) >= DOTS_PRINTED


def bare_where_seen(reads: list[Read], depth: Floats, saturated: Floats) -> list[Read]:
    """``reads``, but a cell read bare whose dot does not show (``depth`` below DOT_SHOWS) is a
    problem where it is mostly clipped (``saturated``), and on a sheet that shows its dots
    anywhere: there something over its middle hides the dot."""
    shows = dots_show(reads, depth)

    def checked(k: int, read: Read) -> Read:
        if read.value is not None or read.problem or depth[k] >= DOT_SHOWS:
            return read
        if saturated[k] >= MOSTLY_CLIPPED:
            why = "hidden by glare"
        elif shows:
            why = "covered, its printed dot hidden"
        else:
            return read
        return Read(read.component, None, 0.0, f"{read.component}: {why}")

    return [checked(k, read) for k, read in enumerate(reads)]
