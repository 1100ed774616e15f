"""The live frame with what was made of it drawn on: markers, registered boards (green when
steady, red with the reason when covered, thick when a reading was just accepted) and each read
component's value where it lies; markers seen but not decodable boxed in magenta with why."""

from __future__ import annotations

import json
from collections.abc import Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.images import Image
from vision.layout.catalogue import MarkerOwner
from vision.live.loop import Seen
from vision.live.stability import Settings
from vision.scan.registration import register
from vision.scan.views import component_region

MAX_WIDTH = 1280  # the debug picture is scaled down to this for the browser
JPEG_QUALITY = 75
MARKER = (0, 215, 255)  # BGR
STEADY = (60, 200, 60)
COVERED = (40, 40, 230)
COMPONENT = (255, 200, 80)
UNREADABLE = (230, 60, 230)
FONT = cv2.FONT_HERSHEY_SIMPLEX
LABEL_CHARS = 14


def _polygon(
    image: Image, points: NDArray[np.float64], colour: tuple[int, int, int], width: int
) -> None:
    cv2.polylines(image, [np.round(points).astype(np.int32)], True, colour, width, cv2.LINE_AA)


def _label(image: Image, text: str, at: NDArray[np.float64], colour: tuple[int, int, int]) -> None:
    x, y = (round(float(v)) for v in at)
    cv2.putText(image, text, (x, y), FONT, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(image, text, (x, y), FONT, 0.45, colour, 1, cv2.LINE_AA)


def _value(value: object) -> str:
    if isinstance(value, dict) and "tile" in value:
        return f"{value['tile']} r{value.get('rotation', '?')}"
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text[:LABEL_CHARS]


def debug_picture(seen: Seen, index: Mapping[int, MarkerOwner], settings: Settings) -> Image:
    image = seen.frame.image.copy()
    for marker in seen.observation.markers:
        corners = np.asarray(marker.corners, np.float64)
        _polygon(image, corners, MARKER, 1)
        _label(image, str(marker.id), corners[0], MARKER)
    for unread in seen.observation.unreadable:
        x, y, w, h = unread.where
        box = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], np.float64)
        _polygon(image, box, UNREADABLE, 2)
        text = f"unreadable: {unread.cause} ({unread.px_per_cell:.1f} px per cell)"
        _label(image, text, box[0], UNREADABLE)
    sightings = {s.layout.key: s for s in register(seen.observation.markers, index).boards}
    covered = {b.key: b.covered(settings) for b in seen.boards}
    accepted = {a.observation.boards for a in seen.accepted}
    for board in seen.observation.boards:
        reason = covered.get(board.boards)
        colour = COVERED if reason is not None else STEADY
        for key in board.boards:
            sighting = sightings.get(key)
            if sighting is None:
                continue
            outline = sighting.to_image(np.asarray(sighting.layout.outline.corners(), np.float64))
            _polygon(image, outline, colour, 4 if board.boards in accepted else 2)
            _label(image, key if reason is None else f"{key}: {reason}", outline[0], colour)
            for read in board.components:
                region = component_region(read.component, sighting.layout)
                if region is None:
                    continue
                corners = sighting.to_image(np.asarray(region, np.float64))
                _polygon(image, corners, COMPONENT, 1)
                _label(image, _value(read.value), corners.mean(axis=0), COMPONENT)
    return image


def debug_jpeg(seen: Seen, index: Mapping[int, MarkerOwner], settings: Settings) -> bytes:
    picture = debug_picture(seen, index, settings)
    scale = min(1.0, MAX_WIDTH / picture.shape[1])
    if scale < 1.0:
        small = cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        picture = np.asarray(small, np.uint8)
    ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("the debug picture could not be encoded")
    return data.tobytes()
