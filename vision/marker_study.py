"""Choosing the marker family by measurement: detection under blur, tilt and small size, false
positives on marker-free clutter, and detection speed, for every candidate dictionary.

Scenes are synthetic but physical: markers of a given printed size in mm on a sheet, seen by a
pinhole camera (1080p, 70 degree lens) at a given distance and tilt, then blurred, noised and
JPEG-compressed. Everything is seeded, so a run is repeatable.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fiducials import MarkerDetector, MarkerDictionary, predefined_dictionary
from vision.images import Image
from vision.layout.catalogue import marker_index

CANDIDATES = (
    "DICT_4X4_250",
    "DICT_4X4_1000",
    "DICT_5X5_250",
    "DICT_5X5_1000",
    "DICT_6X6_1000",
    "DICT_APRILTAG_16H5",
    "DICT_APRILTAG_25H9",
    "DICT_APRILTAG_36H11",
    "DICT_ARUCO_MIP_36H12",
)
CLOSE_ENOUGH = 0.03  # mean detection rates this close count as equally good
FRAME = (1920, 1080)
FOCAL_PX = FRAME[0] / 2 / math.tan(math.radians(35))  # a 70 degree horizontal field of view
SHEET_PX_PER_MM = 6  # resolution of the flat printed sheet before the camera sees it
GRID = (8, 5)  # markers across and down the sheet
PITCH_MM = 34.0  # centre-to-centre spacing on the sheet


@dataclass(frozen=True)
class Condition:
    marker_mm: float
    distance_mm: float
    tilt_deg: float
    blur_sigma: float
    noise_sigma: float = 3.0
    jpeg_quality: int = 80

    @property
    def label(self) -> str:
        return (
            f"{self.marker_mm:.0f}mm@{self.distance_mm / 10:.0f}cm tilt{self.tilt_deg:.0f} "
            f"blur{self.blur_sigma:g}"
        )

    def cell_px(self, bits: int) -> float:
        """Pixels per marker cell along the foreshortened direction at the sheet centre."""
        px_per_mm = FOCAL_PX / self.distance_mm
        return self.marker_mm / (bits + 2) * px_per_mm * math.cos(math.radians(self.tilt_deg))


def _sheet(
    dictionary: MarkerDictionary, ids: Sequence[int], marker_mm: float, rng: np.random.Generator
) -> Image:
    cols, rows = GRID
    width_mm, height_mm = cols * PITCH_MM, rows * PITCH_MM
    sheet = np.full(
        (int(height_mm * SHEET_PX_PER_MM), int(width_mm * SHEET_PX_PER_MM)), 235, np.uint8
    )
    side = round(marker_mm * SHEET_PX_PER_MM)
    for index, marker_id in enumerate(ids):
        r, c = divmod(index, cols)
        cx = (c + 0.5) * PITCH_MM * SHEET_PX_PER_MM + rng.uniform(-4, 4)
        cy = (r + 0.5) * PITCH_MM * SHEET_PX_PER_MM + rng.uniform(-4, 4)
        x0, y0 = int(cx - side / 2), int(cy - side / 2)
        sheet[y0 : y0 + side, x0 : x0 + side] = dictionary.draw(marker_id, side)
    return sheet


def _camera_homography(sheet_shape: tuple[int, int], cond: Condition) -> NDArray[np.float64]:
    """Sheet pixels to frame pixels for a sheet centred under a camera tilted by ``tilt_deg``."""
    h, w = sheet_shape
    tilt = math.radians(cond.tilt_deg)
    corners_mm = (
        np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float64)
        / SHEET_PX_PER_MM
    )
    projected = []
    for x, y in corners_mm:
        # Rotate the sheet about its horizontal axis, then project with a pinhole camera.
        yr, zr = y * math.cos(tilt), y * math.sin(tilt) + cond.distance_mm
        projected.append((FOCAL_PX * x / zr + FRAME[0] / 2, FOCAL_PX * yr / zr + FRAME[1] / 2))
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, np.array(projected, np.float32)))


def _background(rng: np.random.Generator) -> Image:
    """A table: low-frequency wood-like shading with grain and noise."""
    w, h = FRAME
    base = rng.uniform(90, 150)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grain = 12 * np.sin(xx / rng.uniform(15, 40) + 3 * np.sin(yy / rng.uniform(80, 200)))
    table = base + grain + rng.normal(0, 4, (h, w))
    return np.asarray(np.clip(table, 0, 255), np.uint8)


def _camera(frame: NDArray[np.float32], cond: Condition, rng: np.random.Generator) -> Image:
    if cond.blur_sigma > 0:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), cond.blur_sigma), np.float32)
    frame = frame + rng.normal(0, cond.noise_sigma, frame.shape).astype(np.float32)
    out = np.clip(frame, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, cond.jpeg_quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_GRAYSCALE), np.uint8)


def render_scene(
    dictionary: MarkerDictionary, cond: Condition, seed: int
) -> tuple[Image, list[int]]:
    """A camera frame of a sheet of markers, and the ids on it."""
    rng = np.random.default_rng(seed)
    count = GRID[0] * GRID[1]
    ids = [
        int(i) for i in rng.choice(dictionary.size, size=min(count, dictionary.size), replace=False)
    ]
    sheet = _sheet(dictionary, ids, cond.marker_mm, rng)
    homography = _camera_homography(sheet.shape[:2], cond)
    table = _background(rng).astype(np.float32)
    warped = cv2.warpPerspective(sheet, homography, FRAME, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones_like(sheet), homography, FRAME, flags=cv2.INTER_NEAREST)
    frame = np.where(mask > 0, warped.astype(np.float32), table)
    return _camera(frame, cond, rng), ids


def clutter_frame(seed: int) -> Image:
    """A marker-free frame of edges, squares and text-like strokes: bait for false positives."""
    rng = np.random.default_rng(seed)
    frame = _background(rng)
    for _ in range(60):
        x, y = int(rng.integers(0, FRAME[0])), int(rng.integers(0, FRAME[1]))
        size = int(rng.integers(10, 120))
        shade = int(rng.integers(0, 256))
        kind = rng.integers(0, 3)
        if kind == 0:
            cv2.rectangle(frame, (x, y), (x + size, y + size), shade, -1)
        elif kind == 1:
            end = (x + int(rng.integers(-200, 200)), y + int(rng.integers(-200, 200)))
            cv2.line(frame, (x, y), end, shade, int(rng.integers(1, 8)))
        else:
            cv2.putText(frame, "ATELIER 2x3", (x, y), cv2.FONT_HERSHEY_SIMPLEX, size / 60, shade, 2)
    # A checkerboard patch: many square-ish quads, the classic source of false marker candidates.
    cell = int(rng.integers(8, 20))
    board = (np.indices((12, 12)).sum(axis=0) % 2 * 255).astype(np.uint8)
    board = cv2.resize(board, (12 * cell, 12 * cell), interpolation=cv2.INTER_NEAREST)
    x, y = int(rng.integers(0, FRAME[0] - 12 * cell)), int(rng.integers(0, FRAME[1] - 12 * cell))
    frame[y : y + 12 * cell, x : x + 12 * cell] = board
    return np.asarray(cv2.GaussianBlur(frame, (0, 0), 0.8), np.uint8)


@dataclass(frozen=True)
class FamilyResult:
    name: str
    ids: int
    correction_bits: int
    detected: dict[str, float]  # condition label -> fraction of placed markers found
    wrong_ids: int  # ids reported that were never placed, over every scene
    false_positives: int  # detections on marker-free clutter frames
    ms_per_frame: float

    def to_json(self) -> dict[str, Any]:
        return {
            "dictionary": self.name,
            "ids": self.ids,
            "correction_bits": self.correction_bits,
            "detected": {k: round(v, 3) for k, v in self.detected.items()},
            "wrong_ids": self.wrong_ids,
            "false_positives": self.false_positives,
            "ms_per_frame": round(self.ms_per_frame, 2),
        }


def study_family(
    name: str, conditions: Sequence[Condition], scenes: int, clutter: int
) -> FamilyResult:
    dictionary = predefined_dictionary(name)
    detector = MarkerDetector(dictionary)
    detected: dict[str, float] = {}
    wrong = 0
    seconds = 0.0
    frames = 0
    for cond in conditions:
        found = placed = 0
        for seed in range(scenes):
            frame, ids = render_scene(dictionary, cond, seed)
            start = time.perf_counter()
            markers = detector.detect(frame)
            seconds += time.perf_counter() - start
            frames += 1
            seen = {m.id for m in markers}
            found += len(seen & set(ids))
            placed += len(ids)
            wrong += len(seen - set(ids))
        detected[cond.label] = found / placed
    false_positives = sum(len(detector.detect(clutter_frame(1000 + s))) for s in range(clutter))
    return FamilyResult(
        name=name,
        ids=dictionary.size,
        correction_bits=int(dictionary.aruco.maxCorrectionBits),
        detected=detected,
        wrong_ids=wrong,
        false_positives=false_positives,
        ms_per_frame=1000 * seconds / max(frames, 1),
    )


def choose(results: Sequence[FamilyResult]) -> tuple[str, str]:
    """The family to print, and why: enough ids, never a wrong or phantom id, then the best
    detection under the design envelope's hardest conditions."""
    needed = len(marker_index())  # every board corner and piece of the default content
    eligible = [
        r for r in results if r.ids >= needed and r.wrong_ids == 0 and r.false_positives == 0
    ]
    if not eligible:
        return "", "no family met the requirements"

    def mean(r: FamilyResult) -> float:
        return sum(r.detected.values()) / len(r.detected)

    # A confident wrong id is the worst failure: among families that detect about as well as
    # the best, take the one whose codes lie furthest apart.
    top = max(mean(r) for r in eligible)
    close = [r for r in eligible if mean(r) >= top - CLOSE_ENOUGH]
    best = max(close, key=lambda r: (r.correction_bits, mean(r)))
    dropped = [r.name for r in results if r not in eligible]
    return best.name, (
        f"{best.name}: {best.ids} ids, {best.correction_bits} correction bits, mean detection "
        f"{mean(best):.3f} (best eligible {top:.3f}); not eligible (too few ids, or a wrong "
        f"or phantom id): {', '.join(dropped) or 'none'}"
    )


def default_conditions(marker_mm: float) -> list[Condition]:
    """The design envelope: 50-80 cm, tilt up to 45 degrees, focus and motion blur."""
    return [
        Condition(marker_mm, 700, 0, 0.0),
        Condition(marker_mm, 700, 45, 0.0),
        Condition(marker_mm, 800, 45, 1.0),
        Condition(marker_mm, 700, 30, 1.5),
        Condition(marker_mm, 800, 45, 2.0),
    ]
