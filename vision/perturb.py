"""Perturbation families: conditions applied to a rendered photo that the readers were never tuned
on, to see how far they generalise.

Written apart from the renderer on purpose (numpy and OpenCV on the finished 8-bit BGR photo), so
a reader tuned to the renderer's own effects meets effects made another way. Each operation is a
pure function of (image, seed, strength): the same seed gives the same photo. None hides any
part of a board, so the truth of a perturbed photo is the render's truth.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import cv2
import numpy as np

from companion.colour import linear_to_srgb, srgb_to_linear
from vision.images import Image

# Gains per channel in OpenCV's B, G, R order: a warm (tungsten) light and a cool (daylight) one.
_WARM = np.array([-1.0, 0.0, 1.0])
_COOL = -_WARM


def _rng(seed: int, family: str) -> np.random.Generator:
    # The family in the stream: one board's noise and its blur angle are drawn independently.
    return np.random.default_rng([seed, *family.encode()])


def _to_levels(values: np.ndarray) -> Image:
    return np.asarray(np.clip(np.rint(values), 0, 255), np.uint8)


def _in_linear_light(image: Image, gains: np.ndarray) -> Image:
    """``image`` with its linear light multiplied by ``gains`` (broadcast over H x W x 3),
    clipped as a sensor clips."""
    linear = srgb_to_linear(image, np.float32) * gains.astype(np.float32)
    return _to_levels(linear_to_srgb(linear))


def sensor_noise(image: Image, seed: int, sigma: float = 12.0, shot: float = 0.05) -> Image:
    """Gaussian read noise of ``sigma`` 8-bit levels, plus shot noise whose variance grows with
    the level (``shot`` levels of variance per level)."""
    rng = _rng(seed, "noise")
    levels = image.astype(np.float32)
    std = np.sqrt(sigma * sigma + shot * levels)
    return _to_levels(levels + std * rng.standard_normal(image.shape, dtype=np.float32))


def exposure(image: Image, seed: int, ev: float = 1.0) -> Image:
    """Over- or under-exposed by ``ev`` stops: linear light times 2**ev, clipped."""
    del seed  # deterministic: the same photo for every seed
    return _in_linear_light(image, np.full(3, 2.0**ev))


def two_colour_light(image: Image, seed: int, strength: float = 0.2) -> Image:
    """A warm lamp on one side and cool window light on the other: per-channel gains that turn
    smoothly from warm to cool across the frame, in a direction drawn from ``seed``."""
    rng = _rng(seed, "two-light")
    angle = rng.uniform(0.0, 2 * math.pi)
    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    along = (x - w / 2) * math.cos(angle) + (y - h / 2) * math.sin(angle)
    reach = (abs(w * math.cos(angle)) + abs(h * math.sin(angle))) / 2
    t = (along / reach + 1) / 2  # 0 on the warm side, 1 on the cool side
    t = t * t * (3 - 2 * t)  # smooth at the edges, as light falls off
    mix = (1 - t)[..., None] * _WARM + t[..., None] * _COOL
    return _in_linear_light(image, 1 + strength * mix)


def colour_cast(image: Image, seed: int, strength: float = 0.15) -> Image:
    """A uniform warm or cool cast (drawn from ``seed``): a phone that did not balance a lamp."""
    warm = bool(_rng(seed, "cast").integers(2))
    return _in_linear_light(image, 1 + strength * (_WARM if warm else _COOL))


def motion_blur(image: Image, seed: int, length: tuple[int, int] = (6, 8)) -> Image:
    """A straight streak ``length`` px long (drawn from the span) at an angle drawn from
    ``seed``."""
    rng = _rng(seed, "motion")
    streak = int(rng.integers(length[0], length[1] + 1))
    angle = rng.uniform(0.0, math.pi)
    size = streak + 1 + (streak % 2)  # odd, so the kernel has a centre
    kernel = np.zeros((size, size), np.float32)
    c, r = size // 2, streak / 2
    dx, dy = r * math.cos(angle), r * math.sin(angle)
    # Sub-pixel ends (4 fractional bits), so every angle gives a streak of the same length.
    ends = [(round((c + s * dx) * 16), round((c + s * dy) * 16)) for s in (-1, 1)]
    cv2.line(kernel, ends[0], ends[1], 1.0, 1, cv2.LINE_AA, 4)
    kernel /= kernel.sum()
    return np.asarray(cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT), np.uint8)


def focus_blur(image: Image, seed: int, sigma: float = 1.5) -> Image:
    """Out of focus: a Gaussian of ``sigma`` px."""
    del seed
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.uint8)


def jpeg(image: Image, seed: int, quality: int = 50) -> Image:
    """Saved again as JPEG at ``quality``, as a chat app or a web upload does."""
    del seed
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("OpenCV could not encode the image as JPEG")
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def small_frame(image: Image, seed: int, size: tuple[int, int] = (1280, 720)) -> Image:
    """The photo from a camera of fewer pixels: resized to ``size`` (width, height)."""
    del seed
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)


@dataclass(frozen=True)
class Family:
    name: str
    summary: str
    apply: Callable[[Image, int], Image]  # (photo, seed) -> photo, at the family's strength


def _family(name: str, summary: str, operation: Callable[..., Image], **strength: object) -> Family:
    return Family(name, summary, lambda image, seed: operation(image, seed, **strength))


FAMILIES: Mapping[str, Family] = MappingProxyType(
    {
        f.name: f
        for f in (
            _family("noise", "sensor noise, sigma 12 levels plus shot noise", sensor_noise),
            _family("ev+1", "+1 EV, clipped", exposure, ev=1.0),
            _family("ev-1", "-1 EV", exposure, ev=-1.0),
            _family("two-light", "warm lamp one side, cool window the other", two_colour_light),
            _family("cast", "uniform warm or cool cast", colour_cast),
            _family("motion", "motion blur, 6-8 px streak at any angle", motion_blur),
            _family("focus", "focus blur, Gaussian sigma 1.5 px", focus_blur),
            _family("jpeg", "JPEG quality 50", jpeg),
            _family("1280x720", "frame resized to 1280x720", small_frame, size=(1280, 720)),
            _family("960x540", "frame resized to 960x540", small_frame, size=(960, 540)),
        )
    }
)
