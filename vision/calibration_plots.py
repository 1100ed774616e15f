"""The reliability diagram and the risk-coverage curve as 640x480 images, drawn with OpenCV, and
written whole or not at all."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.calibration_report import Bin, CurvePoint
from vision.images import Image

WIDTH, HEIGHT = 640, 480
FONT = cv2.FONT_HERSHEY_SIMPLEX
INK, GRID, BAR, DOT, CURVE = (
    (40, 40, 40),
    (225, 225, 225),
    (235, 200, 150),
    (160, 60, 20),
    (40, 40, 200),
)
# Risk axes end at the first of these at or above the highest risk, so small risks stay legible.
RISK_TOPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


@dataclass(frozen=True)
class _Axes:
    """A plot area with [0, 1] across and [0, top] up, in pixels."""

    left: int = 80
    right: int = WIDTH - 30
    top_px: int = 50
    bottom: int = HEIGHT - 70
    y_top: float = 1.0

    def at(self, x: float, y: float) -> tuple[int, int]:
        px = self.left + x * (self.right - self.left)
        py = self.bottom - min(y / self.y_top, 1.0) * (self.bottom - self.top_px)
        return round(px), round(py)


def _text(image: Image, text: str, origin: tuple[int, int], scale: float = 0.45) -> None:
    cv2.putText(image, text, origin, FONT, scale, INK, 1, cv2.LINE_AA)


def _centred(image: Image, text: str, centre_x: int, baseline: int, scale: float = 0.45) -> None:
    (width, _), _ = cv2.getTextSize(text, FONT, scale, 1)
    _text(image, text, (centre_x - width // 2, baseline), scale)


def _frame(axes: _Axes, title: str, x_label: str, y_label: str) -> Image:
    image = np.full((HEIGHT, WIDTH, 3), 255, np.uint8)
    for k in range(6):
        x, y = k / 5, axes.y_top * k / 5
        cv2.line(image, axes.at(x, 0), axes.at(x, axes.y_top), GRID, 1)
        cv2.line(image, axes.at(0, y), axes.at(1, y), GRID, 1)
        tx, ty = axes.at(x, 0)
        cv2.line(image, (tx, ty), (tx, ty + 5), INK, 1)
        _centred(image, f"{x:.1f}", tx, ty + 20)
        lx, ly = axes.at(0, y)
        cv2.line(image, (lx - 5, ly), (lx, ly), INK, 1)
        label = f"{y:.1f}" if axes.y_top >= 0.5 else f"{y:.3g}"
        (width, _), _ = cv2.getTextSize(label, FONT, 0.45, 1)
        _text(image, label, (lx - 9 - width, ly + 5))
    cv2.rectangle(image, axes.at(0, axes.y_top), axes.at(1, 0), INK, 1)
    _centred(image, title, WIDTH // 2, 30, 0.6)
    _centred(image, x_label, (axes.left + axes.right) // 2, HEIGHT - 30, 0.5)
    # A vertical label: drawn across, then turned a quarter.
    (width, height), _ = cv2.getTextSize(y_label, FONT, 0.5, 1)
    strip = np.full((height + 8, width + 4, 3), 255, np.uint8)
    cv2.putText(strip, y_label, (2, height + 2), FONT, 0.5, INK, 1, cv2.LINE_AA)
    turned = cv2.rotate(strip, cv2.ROTATE_90_COUNTERCLOCKWISE)
    middle = (axes.top_px + axes.bottom) // 2 - turned.shape[0] // 2
    image[middle : middle + turned.shape[0], 10 : 10 + turned.shape[1]] = turned
    return image


def reliability_diagram(bins: Sequence[Bin], title: str) -> Image:
    """Per bin, a bar as high as the share right and a dot at (mean confidence, share right),
    its count above; the diagonal is where confidence is probability."""
    axes = _Axes()
    image = _frame(axes, title, "stated confidence", "share right")
    for b in bins:
        (x0, top), (x1, bottom) = axes.at(b.low, b.accuracy), axes.at(b.high, 0)
        # One pixel in from each edge, so neighbouring bars stay apart.
        cv2.rectangle(image, (x0 + 1, top), (x1 - 1, bottom), BAR, -1)
        cv2.rectangle(image, (x0 + 1, top), (x1 - 1, bottom), DOT, 1)
        cv2.circle(image, axes.at(b.confidence, b.accuracy), 4, DOT, -1, cv2.LINE_AA)
        _centred(image, str(b.count), (x0 + x1) // 2, top - 6, 0.35)
    # Over the bars, so it stays visible where they reach it.
    cv2.line(image, axes.at(0, 0), axes.at(1, 1), (150, 150, 150), 1, cv2.LINE_AA)
    # Below the axes, where no bar can reach it.
    legend = "bar: share right (count above)   dot: mean confidence   grey: calibrated"
    _centred(image, legend, WIDTH // 2, HEIGHT - 8, 0.4)
    return image


def risk_coverage_plot(curve: Sequence[CurvePoint], title: str) -> Image:
    """Risk against coverage, from the highest threshold (left) to the lowest (right)."""
    highest = max((p.risk for p in curve), default=0.0)
    axes = _Axes(y_top=next(top for top in RISK_TOPS if highest <= top))
    image = _frame(axes, title, "coverage (share accepted)", "risk (share of accepted wrong)")
    points = np.array([axes.at(p.coverage, p.risk) for p in curve], np.int32)
    if len(points) > 1:
        cv2.polylines(image, [points.reshape(-1, 1, 2)], False, CURVE, 2, cv2.LINE_AA)
    for point in points:
        cv2.circle(image, (int(point[0]), int(point[1])), 3, CURVE, -1, cv2.LINE_AA)
    if curve and highest == 0.0:
        note = f"no component wrong: risk 0 at every threshold down to {curve[-1].threshold:.2f}"
        _text(image, note, (axes.left + 10, axes.top_px + 22))
    for p in (curve[0], curve[-1]) if curve else ():
        x, y = axes.at(p.coverage, p.risk)
        label = f"t={p.threshold:.2f}"
        (width, _), _ = cv2.getTextSize(label, FONT, 0.4, 1)
        _text(image, label, (min(x + 6, WIDTH - width - 4), max(y - 8, axes.top_px + 12)), 0.4)
    return image


def write_png(path: Path, image: Image) -> None:
    """Write ``image`` under a temporary name in the same folder, then rename: a reader of
    ``path`` sees the old file or the whole new one, never part of one."""
    encoded, png = cv2.imencode(".png", image)
    if not encoded:
        raise OSError(f"could not encode {path.name} as PNG")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        temporary.write_bytes(png.tobytes())
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
