"""How noisy a rectified face is, and the face quietened to the noise a reader was made for.

A reader that judges single pixels (is this pixel of the well's hue, of the chip's colour?)
holds its tolerances at the noise its renders had. A dim room's webcam scatters every pixel by
several times that: each pixel test fails, and the reader refuses a board it could have read.
Averaging neighbouring pixels takes the scatter back down before any test sees it, while the
pieces, many pixels wide, keep their colours; only their outlines soften by a blur's width.
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
# Gaussian blurs tried, gentlest first (sigma in px). At the strongest the face is read as it
# is then: a reader still refuses what it cannot tell apart.
SIGMAS = (0.5, 0.7, 1.0, 1.4, 2.0)


def noise_level(image: Image) -> float:
    """The sensor's noise in ``image`` (BGR, 8-bit levels, measured on the grey mean): the
    scatter of each pixel about its 3x3 neighbourhood's mean, over the flattest blocks."""
    rows, cols = image.shape[0] // BLOCK, image.shape[1] // BLOCK
    if rows == 0 or cols == 0:
        return 0.0
    grey = cv2.transform(np.asarray(image, np.float32), np.full((1, 3), 1.0 / 3.0, np.float32))
    # A pixel is a ninth of its neighbourhood's mean, so their difference keeps 8/9 of its
    # noise's variance.
    residual = (grey - cv2.blur(grey, (3, 3))) * np.float32(np.sqrt(9.0 / 8.0))
    squared = residual[: rows * BLOCK, : cols * BLOCK] ** 2
    scatter = np.sqrt(cv2.resize(squared, (cols, rows), interpolation=cv2.INTER_AREA))
    return float(np.percentile(scatter, FLATTEST))


def quietened(face: Rectified, most: float) -> Rectified:
    """``face`` blurred just enough that its noise level is at most ``most`` (as it was, when
    it is no noisier)."""
    if noise_level(face.image) <= most:
        return face
    for sigma in SIGMAS:
        image = np.asarray(cv2.GaussianBlur(face.image, (0, 0), sigma), np.uint8)
        if noise_level(image) <= most:
            break
    return Rectified(image, face.seen_mask, face.ppm)
