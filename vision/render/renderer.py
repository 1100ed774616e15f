"""Rendering a table plan as a photo, with its truth.

One seed decides everything: each stage (layout on the table, camera, table top, light, the
players' hands, occluders, sensor) draws from its own generator seeded by the seed and the stage,
so the same seed gives the same bytes, and a change to one stage leaves the others as they were.
The scene is composed once in table space and warped once through the camera.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.draw import draw_layout
from vision.images import Image
from vision.layout.model import Layout
from vision.render.arrange import arrange
from vision.render.camera import Camera, choose_camera
from vision.render.compose import Shading, compose
from vision.render.envelope import Difficulty, envelope
from vision.render.marks import Hand, choose_hand, colour_cells, key_fills
from vision.render.occluders import Occluder, choose_occluders, draw_occluders, hand_over
from vision.render.pencils import PencilSet, choose_pencils
from vision.render.photo import (
    Lighting,
    choose_lighting,
    choose_sensor,
    expose,
    exposure_gain,
    jpeg,
    light,
)
from vision.render.plan import TablePlan
from vision.render.scene import Placed, Scene
from vision.render.table import TableTop, choose_table, texture
from vision.render.truth import truth
from vision.render.warp import Frame, TableMap, photograph, table_map

DEFAULT_SIZE = (1920, 1080)
STAGES = (
    "arrange",
    "camera",
    "table",
    "light",
    "hands",
    "marks",
    "occluders",
    "sensor",
    "noise",
    "pencils",
)
OVERSAMPLE = 1.25  # canvas pixels per image pixel where the camera sees the table closest
CANVAS_PPM = (2.0, 6.0)

Draw = Callable[[Layout, float], Image]


@dataclass(frozen=True)
class RenderOptions:
    seed: int
    difficulty: Difficulty = Difficulty.MEDIUM
    size: tuple[int, int] = DEFAULT_SIZE
    # Fixed light instead of one drawn from the difficulty's range (for lighting studies).
    kelvin: float | None = None
    exposure_ev: float | None = None
    # Fixed sensor noise (sigma, 8-bit levels) instead of the difficulty's range (for fitting a
    # reader across more cameras than the envelope draws).
    noise_sigma: float | None = None
    # A hand over one corner of this board (index into the plan's boards), whatever the
    # difficulty: a live video's moments of a player reaching over the table.
    hand_over: int | None = None
    # Whose pencils colour the Isle sheets: "printed" (each colour its printed ink) or "varied"
    # (each player's own set, drawn per sheet).
    pencils: str = "printed"
    # Which draw of the sensor's noise: a camera's frames of a still table differ by it alone.
    noise_draw: int = 0


@dataclass(frozen=True)
class Rendering:
    image: Image  # the photo as stored: JPEG artefacts included
    jpeg: bytes
    truth: dict[str, Any]


def _rng(seed: int, stage: str, *more: int) -> np.random.Generator:
    return np.random.default_rng([seed, STAGES.index(stage), *more])


def canvas_ppm(scene: Scene, camera: Camera) -> float:
    """Canvas resolution: a little finer than the image where the table is seen largest, in
    half-pixel steps so faces drawn for one frame serve the next."""
    largest = 0.0
    for placed in scene.components:
        mm = placed.outline()
        px = camera.project(mm)
        edges_mm = np.linalg.norm(np.roll(mm, -1, axis=0) - mm, axis=1)
        edges_px = np.linalg.norm(np.roll(px, -1, axis=0) - px, axis=1)
        largest = max(largest, float((edges_px / edges_mm).max()))
    ppm = math.ceil(2 * OVERSAMPLE * largest) / 2
    return min(CANVAS_PPM[1], max(CANVAS_PPM[0], ppm))


@dataclass(frozen=True)
class _Photographed:
    """A render up to the light: what every light and sensor setting of the same plan, seed and
    scene shares (the light's colour and exposure and the sensor act on the frame afterwards)."""

    key: tuple[TablePlan, RenderOptions]
    scene: Scene
    camera: Camera
    framed: bool
    ppm: float
    lighting: Lighting  # as the seed draws it, before any fixed colour or exposure
    hands: dict[str, Hand]
    pencils: dict[str, PencilSet]
    top: TableTop
    seen: TableMap
    occluders: tuple[Occluder, ...]
    silhouette: Image
    frame: Frame  # never written to once made: each render lights a copy


def _scene_key(plan: TablePlan, options: RenderOptions) -> tuple[TablePlan, RenderOptions]:
    return plan, dataclasses.replace(
        options, kelvin=None, exposure_ev=None, noise_sigma=None, noise_draw=0
    )


class Renderer:
    """Renders plans into photos; keeps the component faces it has drawn, so rendering many
    frames (a benchmark, a test suite) draws each face once per resolution, and the last scene
    it photographed, so the same board under other light or another sensor (a lighting study,
    a perturbation family) is only lit and exposed again."""

    def __init__(self, draw: Draw = draw_layout) -> None:
        self._draw = draw
        self._faces: dict[tuple[str, float], Image] = {}
        self._last: _Photographed | None = None

    def _face(self, layout: Layout, ppm: float) -> Image:
        key = (layout.key, ppm)
        if key not in self._faces:
            self._faces[key] = self._draw(layout, ppm)
        return self._faces[key]

    def _photographed(self, plan: TablePlan, options: RenderOptions) -> _Photographed:
        key = _scene_key(plan, options)
        if self._last is not None and self._last.key == key:
            return self._last
        seed = options.seed
        env = envelope(options.difficulty)
        scene = arrange(plan, env, _rng(seed, "arrange"))
        camera, framed = choose_camera(scene, env, options.size, _rng(seed, "camera"))
        ppm = canvas_ppm(scene, camera)
        lighting = choose_lighting(env, _rng(seed, "light"))
        shading = Shading(lighting.light_deg, lighting.shadow_strength, lighting.shadow_softness_mm)
        hand_rng = _rng(seed, "hands")
        hands = {b.layout.key: choose_hand(hand_rng) for b in scene.boards if b.fills}
        pencil_rng = _rng(seed, "pencils")
        pencils = {key: choose_pencils(options.pencils, pencil_rng) for key in hands}

        def face(placed: Placed) -> Image:
            drawn = self._face(placed.layout, ppm)
            if not placed.fills:
                return drawn
            index = scene.boards.index(placed)
            hand = hands[placed.layout.key]
            own = pencils[placed.layout.key]
            marks = _rng(seed, "marks", index)
            cells = colour_cells(drawn, placed.layout, placed.fills, ppm, hand, marks, own)
            # Its own generator, so the cells' strokes stay as they were before sheets had a key.
            key = _rng(seed, "marks", index, 1)
            return colour_cells(cells, placed.layout, key_fills(placed.layout), ppm, hand, key, own)

        canvas = compose(scene, ppm, face, shading)
        table_rng = _rng(seed, "table")
        top = choose_table(table_rng)
        seen = table_map(camera)
        frame = photograph(canvas, texture(top, table_rng), seen)
        occluders = choose_occluders(scene, _rng(seed, "occluders")) if env.occluders else ()
        if options.hand_over is not None:
            occluders = (*occluders, hand_over(scene, options.hand_over, _rng(seed, "occluders")))
        # Occluders are shaded by the light's direction and shadow only, which no setting fixes.
        silhouette = draw_occluders(frame, camera, occluders, lighting)
        frame.setflags(write=False)  # shared by every render of this scene
        self._last = _Photographed(
            key,
            scene,
            camera,
            framed,
            ppm,
            lighting,
            hands,
            pencils,
            top,
            seen,
            occluders,
            silhouette,
            frame,
        )
        return self._last

    def render(self, plan: TablePlan, options: RenderOptions) -> Rendering:
        seed = options.seed
        env = envelope(options.difficulty)
        shot = self._photographed(plan, options)
        lighting = shot.lighting
        if options.kelvin is not None:
            lighting = dataclasses.replace(lighting, kelvin=options.kelvin)
        if options.exposure_ev is not None:
            lighting = dataclasses.replace(lighting, exposure=exposure_gain(options.exposure_ev))
        frame = light(shot.frame, shot.seen, shot.scene.extent(), lighting)
        sensor = choose_sensor(env, _rng(seed, "sensor"))
        if options.noise_sigma is not None:
            sensor = dataclasses.replace(sensor, noise_sigma=options.noise_sigma)
        draw = (options.noise_draw,) if options.noise_draw else ()
        data = jpeg(expose(frame, sensor, _rng(seed, "noise", *draw)), sensor.jpeg_quality)
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        parameters = {
            "seed": seed,
            "difficulty": options.difficulty.value,
            "envelope": dataclasses.asdict(env),
            # False when no camera in the envelope frames this table (too large for it).
            "within_envelope": shot.framed,
            "canvas_px_per_mm": shot.ppm,
            "table": shot.top.to_json(),
            "lighting": lighting.to_json(),
            "sensor": sensor.to_json(),
            "hands": {key: hand.to_json() for key, hand in shot.hands.items()},
            "occluders": [o.to_json() for o in shot.occluders],
        }
        if options.pencils != "printed":
            parameters["pencils"] = {key: own.to_json() for key, own in shot.pencils.items()}
        facts = truth(plan.positions, shot.scene, shot.camera, shot.silhouette, parameters)
        return Rendering(np.asarray(image, np.uint8), data, facts)
