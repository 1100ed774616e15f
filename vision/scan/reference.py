"""The printed colour reference card in a photo: each patch as the camera saw it, beside the ink
that was printed there."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.images import Image
from vision.scan.rectify import rectify
from vision.scan.registration import Sighting

PATCH_INNER = 0.6  # read the middle of a patch, away from its edges and any blur


@dataclass(frozen=True)
class PatchReadings:
    names: tuple[str, ...]
    measured_rgb: NDArray[np.float64]  # N x 3, 0..255, the median of each patch
    printed_rgb: NDArray[np.float64]


def find_reference(boards: Sequence[Sighting]) -> Sighting | None:
    for board in boards:
        if (board.layout.game, board.layout.kind) == ("calibration", "reference"):
            return board
    return None


def read_patches(image: Image, card: Sighting) -> PatchReadings:
    """Every patch fully in the photo, measured as its median colour."""
    face = rectify(image, card)
    names, measured, printed = [], [], []
    for region in card.layout.regions:
        if region.role != "patch" or face.coverage(region.shape) < 1.0:
            continue
        pixels = face.pixels(region.shape, PATCH_INNER)
        if len(pixels) == 0:
            continue
        b, g, r = np.median(pixels.astype(np.float64), axis=0)
        names.append(region.name.removeprefix("patch "))
        measured.append((r, g, b))
        printed.append(tuple(region.info["srgb"]))
    return PatchReadings(
        tuple(names),
        np.array(measured, np.float64).reshape(-1, 3),
        np.array(printed, np.float64).reshape(-1, 3),
    )
