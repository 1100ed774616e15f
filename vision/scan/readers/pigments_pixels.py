"""Pigment Lab reader: the pixel and colour helpers its parts share (cropping, scaling,
smoothing, correlation, edges, grey levels, linear light, medians and shares), the
layout's rectangles and circles, and the types and constants that go with them."""

from __future__ import annotations

from typing import Any, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.colour import Y_OF_RGB, srgb_to_linear
from vision.layout.geometry import Circle, Rect
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.scan.context import BoardContext

LUMA_BGR = np.array(Y_OF_RGB[::-1])

Lab = NDArray[np.float32]
Floats = NDArray[np.float64]
Shift = tuple[float, float]
Scalar = TypeVar("Scalar", bound=np.generic)


# Pixels.


def crops(
    ctx: BoardContext, box: Rect, shift: Shift
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """The photo over ``box`` moved by ``shift``, and the print over ``box``, the same size."""
    ppm = ctx.face.ppm
    seen = crop(ctx.face.image, Rect(box.x + shift[0], box.y + shift[1], box.w, box.h), ppm)
    printed = crop(ctx.printed, box, ppm)
    rows, cols = min(seen.shape[0], printed.shape[0]), min(seen.shape[1], printed.shape[1])
    return seen[:rows, :cols], printed[:rows, :cols]


def crop(image: NDArray[np.uint8], rect: Rect, ppm: float) -> NDArray[np.uint8]:
    x0, y0 = max(0, int(rect.x * ppm)), max(0, int(rect.y * ppm))
    x1 = min(image.shape[1], int((rect.x + rect.w) * ppm))
    y1 = min(image.shape[0], int((rect.y + rect.h) * ppm))
    return image[y0:y1, x0:x1]


def best_match(
    view: NDArray[np.float32],
    template: NDArray[np.float32],
    mask: NDArray[np.uint8] | None = None,
) -> tuple[float, tuple[int, int]]:
    """The best correlation of ``template`` in ``view`` and its top-left pixel."""
    if template.shape[0] > view.shape[0] or template.shape[1] > view.shape[1]:
        return -1.0, (0, 0)
    _, score, _, at = cv2.minMaxLoc(match_scores(view, template, mask))
    return float(score), (int(at[0]), int(at[1]))


def match_scores(
    view: NDArray[np.float32],
    template: NDArray[np.float32],
    mask: NDArray[np.uint8] | None = None,
) -> NDArray[np.float32]:
    """The correlation of ``template`` (where ``mask`` is set) at every place in ``view``."""
    if mask is None:
        scores = cv2.matchTemplate(view, template, cv2.TM_CCOEFF_NORMED)
    else:
        scores = cv2.matchTemplate(view, template, cv2.TM_CCOEFF_NORMED, mask=mask)
    return np.asarray(np.where(np.isfinite(scores), scores, -1.0), np.float32)


def scaled(image: NDArray[np.float32], factor: int) -> NDArray[np.float32]:
    """``image`` at 1/``factor`` of its resolution (each side rounded down)."""
    if factor == 1:
        return image
    size = (image.shape[1] // factor, image.shape[0] // factor)
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.float32)


def scaled_mask(mask: NDArray[np.uint8], factor: int) -> NDArray[np.uint8]:
    if factor == 1:
        return mask
    size = (mask.shape[1] // factor, mask.shape[0] // factor)
    return np.asarray(cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST), np.uint8)


def correlation(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    a, b = a - a.mean(), b - b.mean()
    denominator = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / denominator if denominator > 0 else 0.0


def edge_magnitude(gray: NDArray[np.float32]) -> NDArray[np.float32]:
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(cv2.magnitude(gx, gy), np.float32)


def grey_levels(image: NDArray[Any]) -> NDArray[np.float32]:
    """A BGR image's grey levels, as floats to smooth and correlate."""
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.float32)


def smooth(gray: NDArray[np.float32], sigma: float) -> NDArray[np.float32]:
    return np.asarray(cv2.GaussianBlur(gray, (0, 0), sigma), np.float32)


def smooth_colour(image: NDArray[np.uint8], sigma: float) -> NDArray[np.float32]:
    return np.asarray(cv2.GaussianBlur(image.astype(np.float32), (0, 0), sigma), np.float32)


def take_rows(samples: NDArray[Scalar], index: NDArray[np.intp]) -> NDArray[Scalar]:
    """``samples[index]``, several times faster (``np.take``)."""
    return np.take(samples, index, axis=0)


def median(samples: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each column's median (the upper one of an even count), by a partial sort."""
    middle = len(samples) // 2
    return np.asarray(np.partition(samples, middle, axis=0)[middle], np.float32)


def share(which: NDArray[np.bool_]) -> float:
    """The share of ``which`` that is set (as ``np.mean`` gives it, without its overhead)."""
    return np.count_nonzero(which) / len(which)


# Colour.


def linear_light(bgr: NDArray[np.float32]) -> NDArray[np.float32]:
    """BGR levels (0..255, or beyond) to linear light (0..1, or beyond), in float32; a level
    below 0 is black."""
    return np.asarray(srgb_to_linear(np.maximum(bgr, 0.0), np.float32), np.float32)


def bgr_linear(name: str) -> Floats:
    r, g, b = INKS[name]
    return np.asarray(linear_light(np.array([b, g, r], np.float32)), np.float64)


# Layout.


def region_rect(layout: Layout, name: str) -> Rect:
    shape = layout.region(name).shape
    assert isinstance(shape, Rect)
    return shape


def circle_of(shape: object) -> Circle:
    assert isinstance(shape, Circle)
    return shape


def pan_slots(layout: Layout, pan: str) -> list[Circle]:
    return [circle_of(r.shape) for r in layout.regions if r.name.startswith(f"{pan} ")]
