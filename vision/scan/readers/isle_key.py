"""The pencil key of an Isle of Colors sheet: how each player's own pencils look in this photo.

Every sheet prints one labelled hexagon per colour, coloured at setup with the player's pencil of
that colour. Players own all sorts of pencils (a red close to brown, a pale blue), and the light
and the camera's white balance shift every colour, but the key lies under the same light as the
cells: what a full stroke of each pencil absorbs, channel by channel, is measured there, and the
cells are read against it wherever they fit it better than the printed pencil (a key in a shadow
the paper's white does not follow shows a greyer pencil than the player's). The cells clearly
inked with one pencil show it too, across the sheet's light.

A key pixel carrying ink of pressure ``a`` keeps ``1 - a * d`` of the paper's white in each
channel, ``d`` being what a full stroke absorbs: the key's pixels' absorptions lie along one
line, whose direction is the pencil's hue and whose reach its strength. A key hexagon that does
not show one pencil's strokes (left bare, hidden under a hand or a cup, clipped by glare) says
nothing: that colour is read against the printed pencil's ink instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.scan.readers.isle_sheet import Floats, Mask

Spots = tuple[NDArray[np.intp], NDArray[np.intp]]

# A key read at all: this share of its pixels seen with no channel clipped and nothing found over
# them, and this share inked (hatching leaves paper between strokes, but not most of a cell).
SEEN_SHARE = 0.3
INKED_SHARE = 0.3
INKED = 0.08  # a pixel absorbing at least this much along the pencil's line is inked
# One pencil's strokes: the pixels' absorptions lie along one line (their uncentred second moment
# has this share of its trace along one direction). Two colours, or a hand's edge across the
# key, spread them.
ONE_LINE = 0.85
# One pencil's strokes all have its hue: the pixels pressed at least half as firmly as the firmest
# lie within this many degrees of the line (the FIRM_PERCENTILE-th of them; noise and JPEG leave
# 1-4 degrees). A hand's edge or a cup's shadow over part of a key mixes in another hue.
MOST_SPREAD_DEG = 6.0
# The firmest strokes: this percentile of the pixels' pressure along the line is a stroke pressed
# FIRM_PRESSURE hard, as the printed pencils' strokes are (hatching presses 0.55-0.9 of full).
FIRM_PERCENTILE = 90.0
FIRM_PRESSURE = 0.8
# A key further than this from its printed pencil's hue (degrees between absorption directions)
# was coloured with another colour's pencil, or is not a pencil at all.
MOST_TURN_DEG = 30.0


# The cells clearly inked with one pencil, nothing found over them, show it when there are at
# least this many; what they show may turn it this far at most (a pencil that fits them so
# differently was not what they were named by).
LEAST_CELLS = 2
MOST_CELL_TURN_DEG = 12.0


@dataclass(frozen=True)
class PencilKey:
    """Per pencil (K x 3, B G R), what a full stroke absorbs; and which were measured on the key
    (the others are the printed pencils')."""

    absorb: Floats
    measured: tuple[bool, ...]


def angle_deg(a: Floats, b: Floats) -> float:
    """Degrees between two pencils' absorptions (per channel): how far apart their hues are."""
    cos = float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-9)
    return float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))


def stroke_absorption(pixels: Floats, whites: Floats) -> Floats | None:
    """What a full stroke absorbs per channel, from one key's pixels (N x 3) and the paper's
    white at each (N x 3), all seen and unclipped; None when they do not show one pencil's
    strokes."""
    if len(pixels) == 0:
        return None
    absorbed = 1.0 - pixels / np.maximum(whites, 1.0)
    moment = absorbed.T @ absorbed / len(absorbed)
    values, vectors = np.linalg.eigh(moment)
    if values[-1] < ONE_LINE * max(float(values.sum()), 1e-12):
        return None
    direction = vectors[:, -1]
    pressure = absorbed @ direction
    if pressure.sum() < 0:
        direction, pressure = -direction, -pressure
    if np.mean(pressure >= INKED) < INKED_SHARE:
        return None
    firm = float(np.percentile(pressure, FIRM_PERCENTILE))
    pressed = pressure >= 0.5 * firm
    off = np.linalg.norm(absorbed[pressed] - np.outer(pressure[pressed], direction), axis=1)
    spread = np.degrees(np.arctan2(off, pressure[pressed]))
    if np.percentile(spread, FIRM_PERCENTILE) > MOST_SPREAD_DEG:
        return None
    return np.asarray(direction * firm / FIRM_PRESSURE, np.float32)


def read_key(
    image: Floats,
    white: Floats,
    usable: Mask,
    spots: Sequence[Spots],
    printed: Floats,
) -> PencilKey:
    """The pencils as the sheet's key shows them (``spots``: each key's inner pixels, in the
    order of ``printed``'s rows; ``white``: the paper's white at every pixel; ``usable``: pixels
    seen, unclipped and clear of everything found over the sheet)."""
    absorb = printed.copy()
    measured = [False] * len(printed)
    for k, (ys, xs) in enumerate(spots):
        keep = usable[ys, xs]
        if len(ys) == 0 or keep.mean() < SEEN_SHARE:
            continue
        learned = stroke_absorption(image[ys[keep], xs[keep]], white[ys[keep], xs[keep]])
        if learned is None or angle_deg(learned, printed[k]) > MOST_TURN_DEG:
            continue
        absorb[k] = learned
        measured[k] = True
    return PencilKey(np.asarray(absorb, np.float32), tuple(measured))


def pencils_from_cells(
    values: Sequence[object],
    pencils: Sequence[str],
    pixels: Floats,
    clipped: Mask,
    whites: Floats,
    owner: NDArray[np.intp],
    plain: Mask,
    absorb: Floats,
) -> Floats:
    """``absorb`` (K x 3), each pencil's row measured instead on the cells named that pencil
    (``values``: per cell) that nothing found lies over (``plain``: per cell), when LEAST_CELLS
    of them show one pencil's strokes within MOST_CELL_TURN_DEG of it; ``absorb`` itself when
    none do.
    ``pixels``, ``clipped``, ``whites`` and ``owner`` are every cell's pixels (N x 3), with
    their cell."""
    usable = ~clipped.any(axis=1)
    measured = absorb.copy()
    changed = False
    for k, pencil in enumerate(pencils):
        cells = np.array([v == pencil for v in values]) & plain
        if cells.sum() < LEAST_CELLS:
            continue
        mine = cells[owner] & usable
        learned = stroke_absorption(pixels[mine], whites[mine])
        if learned is None or angle_deg(learned, absorb[k]) > MOST_CELL_TURN_DEG:
            continue
        measured[k] = learned
        changed = True
    return np.asarray(measured, np.float32) if changed else absorb


def better_rows(misfit: Floats, other: Floats, plain: Mask) -> Mask:
    """Per pencil (``misfit`` and ``other``: K x C, two candidate pencil sets' misfit of every
    cell), whether the cells clear of everything found (``plain``: per cell) that either set
    names as that pencil fit the other candidate better, on the whole (their mean misfit)."""
    best = np.minimum(misfit, other).argmin(axis=0)
    rows = np.zeros(len(misfit), bool)
    for k in range(len(misfit)):
        cells = plain & (best == k)
        if cells.any():
            rows[k] = bool(other[k, cells].mean() < misfit[k, cells].mean())
    return rows
