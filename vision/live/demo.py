"""The demo: a scripted game of each kind played through the renderer as one video, one game
after another: a live table with no camera.

Each turn a player reaches over their board (a hand over one corner) while the change is made,
then takes the hand away. Every shot is rendered once, with one seed for the whole game so the
camera, light and table stay put, and kept as the photo's JPEG: shown again for as long as it
lasts, and again each time the video comes round to that game.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.games.scripts import SCRIPTS, Script
from vision.images import Image
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions

DEMO_SIZE = (1280, 720)
DEMO_FPS = 5.0
HAND_S = 1.2  # a hand over the board while the change is made
SETTLED_S = 2.5  # the table left alone after each turn
FINAL_S = 6.0  # the finished game left on the table, its scores on show, before the next one
# The demo's games in the order played: each with the seed of its script and of its renders
# (chosen so that every hand covers a marker of the board it reaches over, as a real hand
# would, and every settled shot reads cleanly), and its number of turns.
DEMO_GAMES: tuple[tuple[str, int, int], ...] = (
    ("colorfield", 2, 4),
    ("paintings", 3, 4),
    ("isle", 3, 4),
    ("pigments", 7, 8),
)


@dataclass(frozen=True)
class Shot:
    """What the camera sees for ``seconds``: the players' boards, and a hand over one of them
    (an index into the table's boards: one per Paintings mat)."""

    positions: tuple[dict[str, Any], ...]
    hand_over: int | None
    seconds: float


@dataclass(frozen=True)
class DemoGame:
    """One game of the demo: its script and the shots that play it, rendered with ``seed``."""

    script: Script
    seed: int
    shots: tuple[Shot, ...]


def shots_of(script: Script, last_s: float = SETTLED_S) -> tuple[Shot, ...]:
    """The opening table, then for each turn the hand over the changed board and the table left
    alone; the last shot lasts ``last_s``."""
    shots = [Shot(script.opening, None, SETTLED_S)]
    for turn in script.turns:
        shots.append(Shot(turn.boards, turn.board, HAND_S))
        shots.append(Shot(turn.boards, None, SETTLED_S))
    last = shots.pop()
    return (*shots, Shot(last.positions, last.hand_over, last_s))


def scripted_game(seed: int, players: int = 2, turns: int = 4) -> tuple[Shot, ...]:
    """The shots of a scripted Color Field game (the one a camera's table plays)."""
    return shots_of(SCRIPTS["colorfield"](seed, players, turns))


def demo_games(players: int) -> tuple[DemoGame, ...]:
    """The demo's games for ``players`` players, each ending on a finished table left in view."""
    games = []
    for game, seed, turns in DEMO_GAMES:
        script = SCRIPTS[game](seed, players, turns)
        games.append(DemoGame(script, seed, shots_of(script, FINAL_S)))
    return tuple(games)


class DemoSource:
    """Games' shots as frames at ``fps``, one game after another; once through, or round and
    round with ``repeat``. A game's shots are all rendered before it starts, since rendering one
    takes far longer than a frame: the first game's on opening, each other's on a thread of its
    own while the finished game before it stays in view."""

    def __init__(
        self,
        games: Sequence[DemoGame],
        repeat: bool = False,
        size: tuple[int, int] = DEMO_SIZE,
        fps: float = DEMO_FPS,
        difficulty: Difficulty = Difficulty.MEDIUM,
    ) -> None:
        self.name = "demo"
        self.fps: float | None = fps
        self.finite = not repeat
        self._games = tuple(games)
        self._size = size
        self._difficulty = difficulty
        self._renderer = Renderer()
        self._rendering = threading.Lock()
        self._rendered: dict[tuple[int, int], bytes] = {}
        self._guard = threading.Lock()
        self._ready: set[int] = set()  # games whose every shot is rendered
        self._preparing: set[int] = set()
        # One time round, frame by frame: (game, shot); and where each game begins in it.
        self._frames = [
            (number, index)
            for number, game in enumerate(self._games)
            for index, shot in enumerate(game.shots)
            for _ in range(round(shot.seconds * fps))
        ]
        self._firsts = {self._frames.index((number, 0)) for number in range(len(self._games))}
        self._next = 0  # into the round
        self._shown = (0, 0)
        self._reads = 0  # since opened
        self._game = 0  # games begun since opened, less one
        self._began = 1  # the read that began it

    def game_at(self, index: int) -> int:
        """Which game the ``index``-th frame read since the source was opened shows (1 the
        first frame), counting every game begun: 0 the first, 1 the next, and on round and
        round, so that the same game played again is a new one. Asked of a recent frame: one
        of the game now showing or of the one before it."""
        with self._guard:
            return self._game if index >= self._began else self._game - 1

    def open(self) -> None:
        self._prepare(0)
        self._next, self._shown, self._reads = 0, (0, 0), 0
        with self._guard:
            self._game, self._began = 0, 1

    def read(self) -> Image | None:
        if self._next == len(self._frames):
            if self.finite:
                return None
            self._next = 0
        game, index = self._frames[self._next]
        starting = self._next in self._firsts and self._reads > 0
        with self._guard:
            ready = game in self._ready
        if starting and not ready:
            self._prepare_later(game)  # meanwhile the finished game stays in view
        else:
            if starting:
                with self._guard:
                    self._game += 1
                    self._began = self._reads + 1
            self._next += 1
            self._shown = (game, index)
        self._reads += 1
        data = np.frombuffer(self._jpeg(*self._shown), np.uint8)
        return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)

    def close(self) -> None:
        """Nothing to release: the rendered shots are kept for the next time round."""

    def _prepare_later(self, game: int) -> None:
        with self._guard:
            if game in self._preparing:
                return
            self._preparing.add(game)
        threading.Thread(target=self._prepare, args=(game,), name="rendering", daemon=True).start()

    def _prepare(self, game: int) -> None:
        for index in range(len(self._games[game].shots)):
            self._jpeg(game, index)
        with self._guard:
            self._ready.add(game)

    def _jpeg(self, game: int, index: int) -> bytes:
        # Looked up without the lock: a shot already rendered is never kept waiting while
        # another is being rendered.
        found = self._rendered.get((game, index))
        if found is not None:
            return found
        with self._rendering:
            if (game, index) not in self._rendered:
                played = self._games[game]
                shot = played.shots[index]
                plan = plan_table({"table": list(shot.positions)}, "demo")
                options = RenderOptions(
                    played.seed, self._difficulty, self._size, hand_over=shot.hand_over
                )
                self._rendered[game, index] = self._renderer.render(plan, options).jpeg
            return self._rendered[game, index]
