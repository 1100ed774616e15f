"""Rendered video for the live tests: the scripted demo game's shots, played frame by frame."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from vision.capture.latest import Frame
from vision.images import Image
from vision.live.loop import LiveReader, Views
from vision.live.stability import Accepted, Settings
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.scanner import Scanner

SEED = 2  # the demo's seed: its hand over board 0 hides one of that board's markers
SIZE = (1280, 720)
FPS = 5.0
SETTINGS = Settings(hold_s=0.6, window=5, min_frames=3, max_change=6.0)  # 3 frames of hold


@cache
def renderer() -> Renderer:
    return Renderer()


@cache
def scanner() -> Scanner:
    return Scanner()


def render(positions: tuple[Any, ...], seed: int = SEED, hand_over: int | None = None) -> Image:
    plan = plan_table({"table": list(positions)}, "test")
    options = RenderOptions(seed, Difficulty.MEDIUM, SIZE, hand_over=hand_over)
    return renderer().render(plan, options).image


@dataclass
class Played:
    """What a reader accepted, by frame number (0-based)."""

    accepted: dict[int, list[Accepted]] = field(default_factory=dict)
    views: list[Views] = field(default_factory=list)

    def frames(self) -> list[int]:
        return sorted(self.accepted)


def play(clips: Sequence[tuple[Image, int]]) -> Played:
    """Each image shown for its count of frames at ``FPS``, through a fresh reader."""
    played = Played()
    reader = LiveReader(lambda _, views: played.views.append(views), SETTINGS, scanner())
    number = 0
    for image, count in clips:
        for _ in range(count):
            found = reader.process(Frame(image, number + 1, number / FPS))
            if found:
                played.accepted[number] = found
            number += 1
    return played
