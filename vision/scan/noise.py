"""How much colour noise a rectified face holds, and the face with it taken down to what the
readers were made for.

The readers judge colours, many of them pixel by pixel (is this pixel of the well's hue, of
one colour across the chip, of which pencil?). A sensor scatters each channel on its own: the
pixels' brightness and their colour too. The brightness scatter the readers meet in every render
(grain); the colour scatter hardly, and a webcam in a dim room scatters colour several times
beyond any of their tolerances, so that they refuse boards they could read. A camera's own
processing takes most colour noise out by smoothing colour alone; so does the scanner, before a
reader sees the face. What the readers find by brightness (markers, printed lines, strokes, the
edges of tiles and chips) stays as sharp as the photo shows it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.images import Image
from vision.scan.rectify import Rectified

BLOCK = 8  # px: the noise is measured block by block
# The flattest tenth of the blocks: bare paper or print, whose scatter is the sensor's alone
# (edges, strokes and texture raise every other block's).
FLATTEST = 10.0
# The colour noise the readers hold at (levels). On 50 boards of the train split, easy and
# hard, the renders' own faces measured at most 0.53; with sensor noise of sigma 6 in each
# channel, at least 2.75.
COLOUR_NOISE = 1.0
# Gaussian blurs of the colour tried, gentlest first (sigma in px). At the strongest the face is
# read as it is then: a reader still refuses what it cannot tell apart.
SIGMAS = (0.7, 1.0, 1.4, 2.0, 2.8, 4.0)


def colour_noise(image: Image) -> float:
    """The sensor's colour noise in ``image`` (BGR, 8-bit levels): the scatter of blue less
    green and of red less green about their 3x3 neighbourhood's mean, over the flattest blocks,
    the two averaged. Noise that moves all three channels alike (brightness) leaves it."""
    rows, cols = image.shape[0] // BLOCK, image.shape[1] // BLOCK
    if rows == 0 or cols == 0:
        return 0.0
    levels = np.asarray(image, np.float32)
    found = []
    for channel in (0, 2):
        colour = levels[:, :, channel] - levels[:, :, 1]
        # A pixel is a ninth of its neighbourhood's mean, so their difference keeps 8/9 of its
        # noise's variance.
        residual = (colour - cv2.blur(colour, (3, 3))) * np.float32(np.sqrt(9.0 / 8.0))
        squared = residual[: rows * BLOCK, : cols * BLOCK] ** 2
        scatter = np.sqrt(cv2.resize(squared, (cols, rows), interpolation=cv2.INTER_AREA))
        found.append(float(np.percentile(scatter, FLATTEST)))
    return float(np.mean(found))


def quietened(face: Rectified, most: float = COLOUR_NOISE) -> Rectified:
    """``face`` with its colour (YCrCb's chroma) blurred just enough that its colour noise is at
    most ``most``, its brightness untouched (as it was, when it is no noisier)."""
    if colour_noise(face.image) <= most:
        return face
    ycrcb = cv2.cvtColor(face.image, cv2.COLOR_BGR2YCrCb)
    for sigma in SIGMAS:
        smoothed = ycrcb.copy()
        for channel in (1, 2):
            smoothed[:, :, channel] = cv2.GaussianBlur(ycrcb[:, :, channel], (0, 0), sigma)
        image = np.asarray(cv2.cvtColor(smoothed, cv2.COLOR_YCrCb2BGR), np.uint8)
        if colour_noise(image) <= most:
            break
    return Rectified(image, face.seen_mask, face.ppm)
