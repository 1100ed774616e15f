"""Table tops: a wood or cloth texture that tiles seamlessly, so any table area can be drawn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.images import Image

TILE_MM = 256.0  # one period of the texture (512 px: fast transforms)
TEXTURE_PPM = 2.0  # the grain is soft: 2 px per mm is plenty
# Base colours (BGR) of the tables people play on.
WOODS = ((70, 110, 160), (45, 75, 115), (110, 160, 200), (60, 95, 140))
CLOTHS = ((60, 110, 40), (120, 80, 40), (120, 120, 120), (50, 50, 120), (150, 160, 170))


@dataclass(frozen=True)
class TableTop:
    kind: str  # "wood" or "cloth"
    colour: tuple[int, int, int]  # BGR
    grain_deg: float  # direction of the wood grain or the weave

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "colour_bgr": list(self.colour),
            "grain_deg": round(self.grain_deg, 3),
        }


def _periodic_noise(
    rng: np.random.Generator, size: int, sigma: tuple[float, float], angle_deg: float
) -> NDArray[np.float32]:
    """White noise low-passed in the frequency domain, so it wraps around at every edge;
    ``sigma`` (along, across ``angle_deg``) in px sets how stretched it is."""
    noise = rng.standard_normal((size, size))
    f = np.fft.fftfreq(size)
    fy, fx = np.meshgrid(f, f, indexing="ij")
    a = np.radians(angle_deg)
    along = fx * np.cos(a) + fy * np.sin(a)
    across = -fx * np.sin(a) + fy * np.cos(a)
    gain = np.exp(-2 * np.pi**2 * ((along * sigma[0]) ** 2 + (across * sigma[1]) ** 2))
    out = np.real(np.fft.ifft2(np.fft.fft2(noise) * gain))
    out /= out.std() + 1e-9
    return out.astype(np.float32)


def choose_table(rng: np.random.Generator) -> TableTop:
    if rng.random() < 0.6:
        return TableTop("wood", WOODS[rng.integers(len(WOODS))], float(rng.uniform(0, 180)))
    # A weave's threads run along the tile's edges so that it wraps; the camera turns it anyway.
    return TableTop("cloth", CLOTHS[rng.integers(len(CLOTHS))], 0.0)


def texture(top: TableTop, rng: np.random.Generator) -> Image:
    """One seamless tile of the table top, ``TILE_MM`` square at ``TEXTURE_PPM``."""
    size = round(TILE_MM * TEXTURE_PPM)
    if top.kind == "wood":
        # Rings: a stretched noise field bent into bands, plus fine streaks along the grain.
        warp = _periodic_noise(rng, size, (120.0, 12.0), top.grain_deg)
        streaks = _periodic_noise(rng, size, (60.0, 1.2), top.grain_deg)
        bands = np.sin(2.5 * warp + 0.8 * streaks)
        shade = 1.0 + 0.10 * bands + 0.05 * streaks
    else:
        # A fine weave: two crossing thread directions, and slow unevenness in the dye.
        y, x = np.mgrid[0:size, 0:size].astype(np.float32)
        period = size / round(size / 2.4)  # whole threads per tile, so it still wraps
        weave = np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)
        blotch = _periodic_noise(rng, size, (40.0, 40.0), 0.0)
        fuzz = _periodic_noise(rng, size, (0.7, 0.7), 0.0)
        shade = 1.0 + 0.06 * weave + 0.05 * blotch + 0.04 * fuzz
    colour = np.asarray(top.colour, np.float32)
    return np.clip(shade[:, :, None] * colour, 0, 255).astype(np.uint8)
