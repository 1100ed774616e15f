"""Perturbation families: conditions the readers were never tuned on, each at a few graded
strengths, to see how far they generalise.

Most are operations on the rendered photo, written apart from the renderer on purpose (numpy and
OpenCV on the finished 8-bit BGR photo), so a reader tuned to the renderer's own effects meets
effects made another way. Each is a pure function of (image, seed, strength): the same seed
gives the same photo, and none hides any part of a board, so the render's truth holds.

Some conditions cannot be made after the photo (a player's own pencils, a lamp's colour, a hand
over the board): those families change the render's options instead and the board is rendered
again, so its truth is the new render's. A family that may hide part of a board says so
(``hides``) and is reported apart from those that hide nothing.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np

from companion.colour import linear_to_srgb, srgb_to_linear
from vision.images import Image
from vision.render.renderer import RenderOptions

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


ImageChange = Callable[[Image, int], Image]  # (photo, seed) -> photo
RenderChange = Callable[[RenderOptions], RenderOptions]


@dataclass(frozen=True)
class Family:
    """One family at one strength: either an operation on the photo (``apply``) or a change to
    the render's options (``render``), never both."""

    family: str  # "noise"
    strength: str | None  # "12", "+1"; None where the family has a single setting
    summary: str
    apply: ImageChange | None = None
    render: RenderChange | None = None
    hides: bool = False  # may hide part of a board: its refusals are not all needless
    alias: str | None = None  # the name of the default strength when each family had one

    def __post_init__(self) -> None:
        if (self.apply is None) == (self.render is None):
            raise ValueError(f"{self.name}: an image operation or a render change, only one")

    @property
    def name(self) -> str:
        return self.family if self.strength is None else f"{self.family}:{self.strength}"

    @property
    def default(self) -> bool:
        """Run by ``all``: the family's single setting, or its strength of old."""
        return self.strength is None or self.alias is not None


def _graded(
    family: str,
    operation: Callable[..., Image],
    strengths: Mapping[str, tuple[str, dict[str, Any]]],
    aliases: Mapping[str, str],
) -> Iterator[Family]:
    """``family`` at each of ``strengths`` (label: summary, the operation's keyword arguments),
    mildest first; ``aliases`` names the defaults by their old names."""
    for label, (summary, keywords) in strengths.items():

        def apply(image: Image, seed: int, keywords: dict[str, Any] = keywords) -> Image:
            return operation(image, seed, **keywords)

        yield Family(family, label, summary, apply=apply, alias=aliases.get(label))


def _render(
    family: str, strength: str | None, summary: str, change: RenderChange, hides: bool = False
) -> Family:
    alias = family if strength is not None else None
    return Family(family, strength, summary, render=change, hides=hides, alias=alias)


_IMAGE_FAMILIES = (
    *_graded(
        "noise",
        sensor_noise,
        {
            f"{sigma:g}": (
                f"sensor noise, sigma {sigma:g} levels plus shot noise",
                {"sigma": sigma},
            )
            for sigma in (6.0, 12.0, 20.0)
        },
        {"12": "noise"},
    ),
    *_graded(
        "ev",
        exposure,
        {
            f"{ev:+g}": (f"{ev:+g} EV" + (", clipped" if ev > 0 else ""), {"ev": ev})
            for ev in (0.5, 1.0, 1.5, -1.0, -2.0)
        },
        {"+1": "ev+1", "-1": "ev-1"},
    ),
    *_graded(
        "two-light",
        two_colour_light,
        {
            f"{s:g}": (
                f"warm lamp one side, cool window the other, gains 1 +- {s:g}",
                {"strength": s},
            )
            for s in (0.1, 0.2, 0.35)
        },
        {"0.2": "two-light"},
    ),
    *_graded(
        "cast",
        colour_cast,
        {
            f"{s:g}": (f"uniform warm or cool cast, gains 1 +- {s:g}", {"strength": s})
            for s in (0.1, 0.15, 0.25)
        },
        {"0.15": "cast"},
    ),
    *_graded(
        "motion",
        motion_blur,
        {
            f"{a}-{a + 2}": (
                f"motion blur, {a}-{a + 2} px streak at any angle",
                {"length": (a, a + 2)},
            )
            for a in (6, 12, 18)
        },
        {"6-8": "motion"},
    ),
    *_graded(
        "focus",
        focus_blur,
        {f"{s:g}": (f"focus blur, Gaussian sigma {s:g} px", {"sigma": s}) for s in (1.0, 1.5, 2.5)},
        {"1.5": "focus"},
    ),
    *_graded(
        "jpeg",
        jpeg,
        {f"{q}": (f"JPEG quality {q}", {"quality": q}) for q in (60, 50, 40, 25)},
        {"50": "jpeg"},
    ),
    *_graded(
        "size",
        small_frame,
        {
            f"{w}x{h}": (f"frame resized to {w}x{h}", {"size": (w, h)})
            for w, h in ((1280, 720), (960, 540))
        },
        {"1280x720": "1280x720", "960x540": "960x540"},
    ),
)

_RENDER_FAMILIES = (
    _render(
        "pencils",
        None,
        "players' own pencils, not the printed set",
        lambda options: dataclasses.replace(options, pencils="varied"),
    ),
    _render(
        "warm-light",
        "2700K",
        "lit by a 2700 K lamp",
        lambda options: dataclasses.replace(options, kelvin=2700.0),
    ),
    _render(
        "cool-light",
        "6500K",
        "lit by 6500 K daylight",
        lambda options: dataclasses.replace(options, kelvin=6500.0),
    ),
    _render(
        "hand",
        None,
        "a hand over a corner of the board",
        lambda options: dataclasses.replace(options, hand_over=0),
        hides=True,
    ),
)

FAMILIES: Mapping[str, Family] = MappingProxyType(
    {f.name: f for f in (*_IMAGE_FAMILIES, *_RENDER_FAMILIES)}
)
"""Every family at every strength, by name (``noise:12``), mildest strength first."""

ALIASES: Mapping[str, str] = MappingProxyType(
    {f.alias: f.name for f in FAMILIES.values() if f.alias is not None}
)
"""The names each family's default strength is also known by (``noise``, ``ev+1``)."""
