"""A board as last seen: its face cut out of the photo head-on, and where each read component lies
on that picture, so a viewer can draw what was read and how it scored right on the board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.observation import BoardObservation
from vision.fiducials import Marker
from vision.images import Image
from vision.layout.catalogue import MarkerOwner
from vision.layout.geometry import Hexagon, bounds
from vision.layout.model import Layout
from vision.scan.rectify import rectify
from vision.scan.registration import register

VIEW_PPM = 2.0  # pixels per mm of a view: a canvas 2 x 3 tiles wide fits a phone's width
JPEG_QUALITY = 80
GAP_PX = 12  # between the mats of one Paintings player, stacked top to bottom


@dataclass(frozen=True)
class BoardView:
    """The face as JPEG and, by component name, its outline on the picture (x, y points)."""

    jpeg: bytes
    width: int
    height: int
    regions: dict[str, list[tuple[float, float]]]


def _region_name(component: str, layout: Layout) -> str | None:
    """The layout's region a component was read from (``cell (2,4)`` lies in ``cell 2,4``;
    ``painting 2 card top`` in the ``card top`` of painting 2's mat)."""
    if component.startswith("cell (") and component.endswith(")"):
        return "cell " + component[len("cell (") : -1]
    if component.startswith("painting "):
        _, number, place = component.split(" ", 2)
        return place if str(layout.content.get("painting")) == number else None
    return component


def region_corners(layout: Layout, name: str) -> list[tuple[float, float]]:
    """The corners of a region of the board, in board mm (a hexagon's own, else its box's)."""
    shape = layout.region(name).shape
    if isinstance(shape, Hexagon):
        return [(x, y) for x, y in shape.corners()]
    return [(x, y) for x, y in bounds(shape).corners()]


def component_region(component: str, layout: Layout) -> list[tuple[float, float]] | None:
    """Where on the board a read component lies (board mm), or None when it is no region."""
    name = _region_name(component, layout)
    if name is None:
        return None
    try:
        return region_corners(layout, name)
    except KeyError:
        return None


def _outline(layout: Layout, name: str, ppm: float, top: float) -> list[tuple[float, float]]:
    points = region_corners(layout, name)
    return [(round(x * ppm, 1), round(y * ppm + top, 1)) for x, y in points]


def board_views(
    image: Image,
    markers: Sequence[Marker],
    index: Mapping[int, MarkerOwner],
    observations: Sequence[BoardObservation],
) -> dict[tuple[str, ...], BoardView]:
    """Each observed board's view, by the printed boards it was read from."""
    sightings = {s.layout.key: s for s in register(markers, index).boards}
    views: dict[tuple[str, ...], BoardView] = {}
    for observation in observations:
        faces: list[Image] = []
        regions: dict[str, list[tuple[float, float]]] = {}
        top = 0.0
        for key in observation.boards:
            sighting = sightings.get(key)
            if sighting is None:
                continue
            face = rectify(image, sighting, VIEW_PPM).image
            for read in observation.components:
                name = _region_name(read.component, sighting.layout)
                if name is None:
                    continue
                try:
                    regions[read.component] = _outline(sighting.layout, name, VIEW_PPM, top)
                except KeyError:
                    continue  # a component that is not a region (a whole pan, say)
            faces.append(face)
            top += face.shape[0] + GAP_PX
        if not faces:
            continue
        width = max(face.shape[1] for face in faces)
        height = sum(face.shape[0] for face in faces) + GAP_PX * (len(faces) - 1)
        sheet = np.full((height, width, 3), 32, np.uint8)
        y = 0
        for face in faces:
            sheet[y : y + face.shape[0], : face.shape[1]] = face
            y += face.shape[0] + GAP_PX
        ok, encoded = cv2.imencode(".jpg", sheet, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if ok:
            views[observation.boards] = BoardView(encoded.tobytes(), width, height, regions)
    return views
