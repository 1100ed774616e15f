"""A scripted Color Field game played through the renderer as a video: a table with no camera.

Each turn a player reaches over their canvas (a hand over one corner) and lays a new tile over one
space, then takes the hand away. Every shot is rendered once, with one seed for the whole game so
the camera, light and table stay put, and repeated for as long as it lasts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.content.colorfield import default_content
from companion.games.colorfield.model import SPACES, TileKind
from vision.images import Image
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions

DEMO_SIZE = (1280, 720)
DEMO_FPS = 5.0
HAND_S = 1.2  # a hand over the board while a tile is laid
SETTLED_S = 2.5  # the table left alone after each turn


@dataclass(frozen=True)
class Shot:
    """What the camera sees for ``seconds``: the players' canvases, and a hand over one of them."""

    positions: tuple[dict[str, Any], ...]
    hand_over: int | None
    seconds: float


def scripted_game(seed: int, players: int = 2, turns: int = 4) -> tuple[Shot, ...]:
    """Primed canvases of distinct printed tiles, then ``turns`` turns, players in order, each
    laying one new tile over a space (a legal Color Field turn)."""
    rng = random.Random(seed)
    content = default_content()
    canvases = sorted(content.canvases)[:players]
    pool = rng.sample(sorted(content.tiles), len(SPACES) * players + turns)

    def laid(tile: str) -> dict[str, Any]:
        primed = content.tiles[tile].kind is TileKind.FOUNDATION
        return {"tile": tile, "rotation": 0 if primed else rng.randrange(4)}

    boards: list[dict[str, Any]] = [
        {"game": "colorfield", "canvas": canvas, "spaces": [laid(pool.pop()) for _ in SPACES]}
        for canvas in canvases
    ]
    shots = [Shot(_copy(boards), None, SETTLED_S)]
    for turn in range(turns):
        player = turn % players
        boards[player]["spaces"][rng.randrange(len(SPACES))] = laid(pool.pop())
        shots.append(Shot(_copy(boards), player, HAND_S))
        shots.append(Shot(_copy(boards), None, SETTLED_S))
    return tuple(shots)


def _copy(boards: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple({**b, "spaces": [dict(s) for s in b["spaces"]]} for b in boards)


class DemoSource:
    """The shots as frames at ``fps``; ``hold`` keeps showing the last shot once the game is
    over, as a camera over a finished table would, instead of ending."""

    def __init__(
        self,
        shots: tuple[Shot, ...],
        seed: int,
        size: tuple[int, int] = DEMO_SIZE,
        fps: float = DEMO_FPS,
        hold: bool = True,
        difficulty: Difficulty = Difficulty.MEDIUM,
    ) -> None:
        self.name = "demo"
        self.fps: float | None = fps
        self.finite = not hold
        self._shots = shots
        self._seed = seed
        self._size = size
        self._difficulty = difficulty
        self._renderer = Renderer()
        self._rendered: dict[int, Image] = {}
        self._frames = [i for i, shot in enumerate(shots) for _ in range(round(shot.seconds * fps))]
        self._next = 0

    def open(self) -> None:
        self._next = 0

    def read(self) -> Image | None:
        if self._next >= len(self._frames):
            if self.finite or not self._frames:
                return None
            return self._image(self._frames[-1])
        shot = self._frames[self._next]
        self._next += 1
        return self._image(shot)

    def close(self) -> None:
        self._rendered.clear()

    def _image(self, index: int) -> Image:
        if index not in self._rendered:
            shot = self._shots[index]
            plan = plan_table({"table": list(shot.positions)}, "demo")
            options = RenderOptions(
                self._seed, self._difficulty, self._size, hand_over=shot.hand_over
            )
            self._rendered[index] = self._renderer.render(plan, options).image
        return self._rendered[index]
