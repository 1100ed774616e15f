"""Light and sensor: what turns a geometric view into a photo.

Light acts on the table (a brightness gradient across it, the light's colour temperature that the
camera's white balance only partly corrects); the lens darkens the corners; the sensor blurs
(defocus, hand shake), adds noise, and the camera stores a JPEG.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.images import Image
from vision.layout.geometry import Rect
from vision.render.envelope import Envelope
from vision.render.warp import Frame, TableMap

REFERENCE_KELVIN = 6500.0  # the camera's idea of white
EXPOSURE = (0.92, 1.06)  # a gain on the encoded levels
# The frame holds gamma-encoded levels (as printed, as stored), not light: light scaled by k
# scales an encoded level by k ** (1 / ENCODING_GAMMA).
ENCODING_GAMMA = 2.2
WHITE_BALANCE = (0.4, 0.8)  # the share of the light's colour cast the camera corrects


@dataclass(frozen=True)
class Lighting:
    light_deg: float  # where the light comes from, in the table frame
    gradient: float  # brightness change across the scene, as a fraction
    kelvin: float
    white_balance: float
    exposure: float
    vignetting: float
    shadow_strength: float
    shadow_softness_mm: float

    def to_json(self) -> dict[str, Any]:
        return {name: round(value, 4) for name, value in dataclasses.asdict(self).items()}


@dataclass(frozen=True)
class Sensor:
    defocus_px: float  # Gaussian sigma
    motion_px: float  # length of the shake's streak
    motion_deg: float
    noise_sigma: float  # 8-bit levels
    jpeg_quality: int

    def to_json(self) -> dict[str, Any]:
        return {
            name: value if isinstance(value, int) else round(value, 4)
            for name, value in dataclasses.asdict(self).items()
        }


def choose_lighting(env: Envelope, rng: np.random.Generator) -> Lighting:
    return Lighting(
        light_deg=float(rng.uniform(0.0, 360.0)),
        gradient=float(rng.uniform(*env.light_gradient)),
        kelvin=float(rng.uniform(*env.kelvin)),
        white_balance=float(rng.uniform(*WHITE_BALANCE)),
        exposure=float(rng.uniform(*EXPOSURE)),
        vignetting=float(rng.uniform(*env.vignetting)),
        shadow_strength=float(rng.uniform(*env.shadow_strength)),
        shadow_softness_mm=float(rng.uniform(0.8, 2.0)),
    )


def choose_sensor(env: Envelope, rng: np.random.Generator) -> Sensor:
    low, high = env.jpeg_quality
    return Sensor(
        defocus_px=float(rng.uniform(*env.defocus_px)),
        motion_px=float(rng.uniform(*env.motion_px)),
        motion_deg=float(rng.uniform(0.0, 180.0)),
        noise_sigma=float(rng.uniform(*env.noise_sigma)),
        jpeg_quality=int(rng.integers(low, high + 1)),
    )


def exposure_gain(ev: float) -> float:
    """The gain on encoded levels that changes the light by ``ev`` stops."""
    return float(2.0 ** (ev / ENCODING_GAMMA))


def kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """The colour of black-body light, 0..255 per channel (Tanner Helland's fit)."""
    t = kelvin / 100.0
    if t <= 66:
        red = 255.0
        green = 99.4708025861 * math.log(t) - 161.1195681661
        blue = 0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307
    else:
        red = 329.698727446 * (t - 60) ** -0.1332047592
        green = 288.1221695283 * (t - 60) ** -0.0755148492
        blue = 255.0
    red, green, blue = (min(255.0, max(1.0, c)) for c in (red, green, blue))
    return (red, green, blue)


def light(frame: Frame, seen: TableMap, scene: Rect, lighting: Lighting) -> Frame:
    """Brightness gradient across the table, the light's colour, exposure and vignetting."""
    a = math.radians(lighting.light_deg)
    cx, cy = scene.centre
    half = math.hypot(scene.w, scene.h) / 2
    toward = ((seen[..., 0] - cx) * math.cos(a) + (seen[..., 1] - cy) * math.sin(a)) / half
    gain = 1.0 + lighting.gradient * np.clip(toward, -2.0, 2.0) / 2
    h, w = frame.shape[:2]
    ys, xs = np.ogrid[0:h, 0:w]
    r2 = ((xs - (w - 1) / 2) ** 2 + (ys - (h - 1) / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    gain = gain * (1.0 - lighting.vignetting * r2.astype(np.float32)) * lighting.exposure
    cast = np.asarray(kelvin_rgb(lighting.kelvin)) / np.asarray(kelvin_rgb(REFERENCE_KELVIN))
    cast = (cast / cast[1]) ** (1.0 - lighting.white_balance)
    bgr = cast[::-1].astype(np.float32)
    return np.asarray(frame * gain[:, :, None].astype(np.float32) * bgr, np.float32)


def expose(frame: Frame, sensor: Sensor, rng: np.random.Generator) -> Image:
    """Blur, noise and 8-bit quantisation, as the sensor records the frame."""
    out = frame
    if sensor.defocus_px > 0.05:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), sensor.defocus_px), np.float32)
    if sensor.motion_px >= 1.0:
        size = math.ceil(sensor.motion_px) | 1
        kernel = np.zeros((size, size), np.float32)
        a = math.radians(sensor.motion_deg)
        half = np.array([math.cos(a), math.sin(a)]) * (sensor.motion_px - 1) / 2
        centre = np.array([size // 2, size // 2], np.float64)
        p, q = centre - half, centre + half
        cv2.line(
            kernel,
            tuple(np.round(p * 16).astype(int)),
            tuple(np.round(q * 16).astype(int)),
            1.0,
            1,
            cv2.LINE_AA,
            4,
        )
        out = np.asarray(cv2.filter2D(out, -1, kernel / kernel.sum()), np.float32)
    # Mostly brightness noise per pixel; colour noise is coarser, as demosaicing smears it.
    h, w = out.shape[:2]
    grain = rng.standard_normal((h, w), dtype=np.float32) * sensor.noise_sigma
    coarse = rng.standard_normal(((h + 1) // 2, (w + 1) // 2, 3), dtype=np.float32)
    chroma = cv2.resize(coarse * (0.5 * sensor.noise_sigma), (w, h))
    noisy = cv2.add(out, cv2.add(chroma, cv2.merge([grain] * 3)))
    # Rounded and saturated to 8 bits (negative values first clamped to 0).
    _, clamped = cv2.threshold(noisy, 0.0, 0.0, cv2.THRESH_TOZERO)
    return np.asarray(cv2.convertScaleAbs(clamped), np.uint8)


def jpeg(image: Image, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return bytes(data.tobytes())
