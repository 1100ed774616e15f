"""Fiducial markers: OpenCV's ArUco and AprilTag dictionaries by name, and a reusable detector.

The detector is configured once and reused on every frame, as OpenCV's own samples do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import AtelierError, SourceError
from vision.images import Image, to_gray

# The family Atelier prints on its own components; chosen by measurement (docs/fiducials.md).
ATELIER_DICTIONARY = "DICT_APRILTAG_36H11"

# Canonical names as OpenCV spells them in upper case; "DICT_APRILTAG_36h11" is accepted too.
PREDEFINED: Mapping[str, int] = MappingProxyType(
    {
        name: getattr(cv2.aruco, name)
        for name in sorted(dir(cv2.aruco))
        if name.startswith("DICT_") and name == name.upper()
    }
)


@dataclass(frozen=True)
class MarkerDictionary:
    """A dictionary of marker codes and the name it is reported under."""

    name: str
    aruco: Any  # cv2.aruco.Dictionary

    @property
    def size(self) -> int:
        return int(self.aruco.bytesList.shape[0])

    @property
    def bits(self) -> int:
        return int(self.aruco.markerSize)

    def draw(self, marker_id: int, side_px: int) -> Image:
        """The marker as a white-on-black image ``side_px`` square, black border included."""
        if not 0 <= marker_id < self.size:
            raise ValueError(f"{self.name} has ids 0..{self.size - 1}, not {marker_id}")
        image = cv2.aruco.generateImageMarker(self.aruco, marker_id, side_px, borderBits=1)
        return np.asarray(image, dtype=np.uint8)


def predefined_dictionary(name: str) -> MarkerDictionary:
    key = name.upper()
    if not key.startswith("DICT_"):
        key = "DICT_" + key
    if key not in PREDEFINED:
        raise AtelierError(
            f"--dict: unknown marker dictionary {name!r} "
            f"(known: {', '.join(n.removeprefix('DICT_') for n in PREDEFINED)}, or a .yml file)"
        )
    return MarkerDictionary(key, cv2.aruco.getPredefinedDictionary(PREDEFINED[key]))


def dictionary_from_file(path: Path) -> MarkerDictionary:
    """A custom dictionary saved by OpenCV (``Dictionary.writeDictionary``), e.g. a .yml file."""
    if not path.is_file():
        raise SourceError(str(path), "no such dictionary file")
    storage = cv2.FileStorage(str(path), cv2.FILE_STORAGE_READ)
    try:
        custom = cv2.aruco.Dictionary()
        if not storage.isOpened() or not custom.readDictionary(storage.root()):
            raise SourceError(str(path), "not an OpenCV marker dictionary file")
    except cv2.error:
        raise SourceError(str(path), "not an OpenCV marker dictionary file") from None
    finally:
        storage.release()
    return MarkerDictionary(path.stem, custom)


def resolve_dictionary(name_or_path: str) -> MarkerDictionary:
    """A predefined dictionary by name, or a custom one from a file path."""
    if name_or_path.lower().endswith((".yml", ".yaml", ".json", ".xml")):
        return dictionary_from_file(Path(name_or_path))
    return predefined_dictionary(name_or_path)


@dataclass(frozen=True)
class Marker:
    id: int
    dictionary: str
    corners: tuple[tuple[float, float], ...]  # image pixels, clockwise from the marker's top-left

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "dict": self.dictionary,
            "corners": [[round(x, 2), round(y, 2)] for x, y in self.corners],
        }


def default_parameters() -> Any:
    """OpenCV's defaults plus sub-pixel corners: poses and homographies need them."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return params


class MarkerDetector:
    """One dictionary's detector, built once and reused frame after frame."""

    def __init__(self, dictionary: MarkerDictionary, parameters: Any | None = None) -> None:
        self.dictionary = dictionary
        params = parameters if parameters is not None else default_parameters()
        self._detector = cv2.aruco.ArucoDetector(dictionary.aruco, params)

    def detect(self, image: Image) -> list[Marker]:
        return self.detect_with_rejected(image)[0]

    def detect_with_rejected(self, image: Image) -> tuple[list[Marker], list[NDArray[np.float64]]]:
        """The markers found, and the square outlines found but not decoded (each 4 x 2 image
        pixels, clockwise): where a blurred or small marker may still be named by its look."""
        corners, ids, rejected = self._detector.detectMarkers(to_gray(image))
        outlines = [np.asarray(quad, np.float64).reshape(4, 2) for quad in rejected]
        if ids is None:
            return [], outlines
        found = [
            Marker(
                int(marker_id),
                self.dictionary.name,
                tuple((float(x), float(y)) for x, y in quad.reshape(4, 2)),
            )
            for marker_id, quad in zip(ids.ravel(), corners, strict=True)
        ]
        return sorted(found, key=lambda m: m.id), outlines
