"""How hard a rendered photo is: the range every camera, light and sensor effect is drawn from.

``easy`` is a good webcam square above a well-lit table; ``medium`` a realistic home table;
``hard`` the whole envelope the readers are designed for, plus hands and cups in the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

Span = tuple[float, float]


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True)
class Envelope:
    tilt_deg: Span  # camera axis from the vertical
    distance_mm: Span  # camera centre to the point it looks at
    roll_deg: Span  # a camera not quite level
    k1: Span  # radial lens distortion, OpenCV's model
    k2: Span
    board_jitter_mm: float  # how far off the tidy arrangement a board is laid
    board_turn_deg: float
    piece_jitter_mm: float  # a loose piece off the centre of its place
    piece_turn_deg: float
    light_gradient: Span  # brightness change across the frame, as a fraction
    kelvin: Span  # colour temperature of the light
    vignetting: Span  # darkening in the frame corners, as a fraction
    shadow_strength: Span
    noise_sigma: Span  # sensor noise in 8-bit levels
    defocus_px: Span  # Gaussian sigma
    motion_px: Span  # length of the motion blur streak
    jpeg_quality: tuple[int, int]
    occluders: bool
    # Keep every marker cell at 4 px or more (the printed design's envelope).
    marker_cells_px: float | None


ENVELOPES: Mapping[Difficulty, Envelope] = MappingProxyType(
    {
        Difficulty.EASY: Envelope(
            tilt_deg=(0.0, 20.0),
            distance_mm=(550.0, 700.0),
            roll_deg=(-2.0, 2.0),
            k1=(-0.05, 0.02),
            k2=(-0.01, 0.01),
            board_jitter_mm=3.0,
            board_turn_deg=2.0,
            piece_jitter_mm=0.5,
            piece_turn_deg=2.0,
            light_gradient=(0.0, 0.1),
            kelvin=(4500.0, 6000.0),
            vignetting=(0.0, 0.15),
            shadow_strength=(0.15, 0.3),
            noise_sigma=(0.5, 1.5),
            defocus_px=(0.0, 0.5),
            motion_px=(0.0, 0.0),
            jpeg_quality=(90, 95),
            occluders=False,
            marker_cells_px=4.0,
        ),
        Difficulty.MEDIUM: Envelope(
            tilt_deg=(0.0, 35.0),
            distance_mm=(500.0, 750.0),
            roll_deg=(-5.0, 5.0),
            k1=(-0.15, 0.05),
            k2=(-0.04, 0.04),
            board_jitter_mm=5.0,
            board_turn_deg=4.0,
            piece_jitter_mm=1.5,
            piece_turn_deg=5.0,
            light_gradient=(0.05, 0.3),
            kelvin=(3500.0, 6500.0),
            vignetting=(0.1, 0.35),
            shadow_strength=(0.25, 0.45),
            noise_sigma=(1.5, 4.0),
            defocus_px=(0.3, 1.0),
            motion_px=(0.0, 3.0),
            jpeg_quality=(75, 92),
            occluders=False,
            marker_cells_px=4.0,
        ),
        Difficulty.HARD: Envelope(
            tilt_deg=(0.0, 45.0),
            distance_mm=(500.0, 800.0),
            roll_deg=(-10.0, 10.0),
            k1=(-0.3, 0.1),
            k2=(-0.1, 0.1),
            board_jitter_mm=10.0,
            board_turn_deg=8.0,
            piece_jitter_mm=3.0,
            piece_turn_deg=10.0,
            light_gradient=(0.15, 0.5),
            kelvin=(2700.0, 6500.0),
            vignetting=(0.2, 0.5),
            shadow_strength=(0.35, 0.6),
            noise_sigma=(3.0, 8.0),
            defocus_px=(0.5, 2.0),
            motion_px=(0.0, 8.0),
            jpeg_quality=(50, 85),
            occluders=True,
            marker_cells_px=None,
        ),
    }
)


def envelope(difficulty: Difficulty) -> Envelope:
    return ENVELOPES[difficulty]
