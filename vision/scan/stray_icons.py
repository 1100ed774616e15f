"""Art card icons lying on no board the scan found, nor on a card lying on one: a Paintings mat
may be hidden.

A mat whose every marker a hand, a cup or motion blur hides (or that lies too far and blurred to
decode) is not found at all, and its player's other paintings would be reported alone, with no
problem: a confident wrong read. Its cards' icons may still show: small patches of strong colour
on white card, which nothing else on a table looks like (a hand or a cup is far larger than an
icon; the table's grain has no white around it). Where such icons lie outside every board found,
the player's paintings cannot be known to be complete.

Measured on 1400 hard renders (seeds 5000-5399 and 6000-6999): icons are found in 6 frames, in
each of them on a mat the scan did not find (6018 among them, read confidently wrong before),
and in none whose mats were all found, once each board's footprint is grown by GROW_MM (a mat
seen by one marker may be placed a few millimetres off, and a card may stick out of its mat).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.images import Image
from vision.scan.registration import Sighting

SCALE = 4  # searched at a quarter of the size: an icon of 5 mm still spans a few pixels
GROW_MM = 10.0
ICON_MM = 5.0  # about the side of a printed icon
ICON_AREA = (0.15, 2.5)  # an icon's area, as a share of ICON_MM squared
# Strong colour (HSV, 0-255): every icon ink; paper: bright and nearly grey.
MIN_SATURATION = 90
MIN_VALUE = 60
PAPER_SATURATION = 50
PAPER_VALUE = 0.75  # of the found boards' brightest paper (their 90th percentile)
PAPER_AROUND = 0.6  # an icon's surroundings are mostly paper


def stray_icons(
    image: Image,
    boards: Sequence[Sighting],
    pieces: Sequence[Sighting],
    mats: Sequence[Sighting],
) -> list[tuple[int, int]]:
    """Where (px) icons lie on none of the ``boards`` found, nor on a piece lying on one of
    them, judged against the paper of ``mats`` (which also give the icons' size). A card found
    by its marker but lying on no board found is no more known to belong to a painting read
    than one whose marker is hidden."""
    if not mats:
        return []
    height, width = image.shape[:2]
    small = np.asarray(
        cv2.resize(image, (width // SCALE, height // SCALE), interpolation=cv2.INTER_AREA),
        np.uint8,
    )
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    saturation, value = hsv[:, :, 1], hsv[:, :, 2]
    known = _footprints(boards, small.shape[:2])
    on_boards = [p for p in pieces if known[_centre(p, known.shape)]]
    known |= _footprints(on_boards, small.shape[:2])
    paper_value = float(np.percentile(value[_footprints(mats, small.shape[:2])], 90))
    paper = (value >= PAPER_VALUE * paper_value) & (saturation <= PAPER_SATURATION)
    coloured = (saturation >= MIN_SATURATION) & (value >= MIN_VALUE) & ~known
    count, labels, stats, centres = cv2.connectedComponentsWithStats(
        coloured.astype(np.uint8), connectivity=8
    )
    side = float(np.mean([m.pixels_per_mm() for m in mats])) / SCALE * ICON_MM
    low, high = ICON_AREA[0] * side**2, ICON_AREA[1] * side**2
    ring = np.ones((5, 5), np.uint8)
    icons = []
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if not low <= area <= high:
            continue
        # Its surroundings, in a window just large enough to hold them.
        x0, y0 = max(x - 3, 0), max(y - 3, 0)
        blob = (labels[y0 : y + h + 3, x0 : x + w + 3] == k).astype(np.uint8)
        around = cv2.dilate(blob, ring).astype(bool) & ~blob.astype(bool)
        if float(paper[y0 : y + h + 3, x0 : x + w + 3][around].mean()) >= PAPER_AROUND:
            cx, cy = centres[k]
            icons.append((round(cx * SCALE), round(cy * SCALE)))
    return icons


def _footprints(components: Sequence[Sighting], shape: tuple[int, int]) -> NDArray[np.bool_]:
    """Where the components lie (grown by GROW_MM), at the search's size."""
    mask = np.zeros(shape, np.uint8)
    for component in components:
        w, h = component.layout.size
        g = GROW_MM
        outline = np.array([[-g, -g], [w + g, -g], [w + g, h + g], [-g, h + g]], np.float64)
        corners = component.to_image(outline) / SCALE
        cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1)
    return mask.astype(bool)


def _centre(component: Sighting, shape: tuple[int, int]) -> tuple[int, int]:
    """The component's centre as a (row, column) of the search's size, kept inside it."""
    w, h = component.layout.size
    x, y = component.to_image(np.array([[w / 2, h / 2]], np.float64))[0] / SCALE
    return min(max(round(y), 0), shape[0] - 1), min(max(round(x), 0), shape[1] - 1)
