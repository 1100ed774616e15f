"""``atelier bench live``: the live loop over a rendered video of the demo's games, with truth.

The video is the demo's: each chosen game played by its script (hands over the boards while they
change), one game after another, round and round for as long as asked, each game played on a table
of its own made as it starts. Every shot is rendered once and kept as its JPEG, decoded afresh each
time it comes on screen, as a camera's frames would be, in two draws of the sensor's noise shown in
turn. Every frame is scanned on one core, one after another, and its time counted as a live loop
over a camera would spend it (a frame waits until the loop is done with the one before; one still
waiting when the next arrives is dropped); each frame's look is bounded by the budget such a loop
gives it (how far behind the frames before left it), so which frame reads a board, and when its
event comes, depends on the machine's speed (every event is checked against the truth).
Measured, game by game and over the whole video: frames per second sustained and the frames such
a loop drops; the latency from the first frame of a settled table to its event (when the
loop would be done with the accepting frame, the event's commit included); every accepted reading
checked against the truth, component by component (a reading accepted while a hand was over its
board, or different from what lies on the board, is wrong: the failure that must never happen);
changes never accepted; the process's memory along the way, and whether it stayed flat.
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import time
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.games.scripts import SCRIPTS, Script
from companion.observation import BoardObservation
from companion.process import resident_mb
from vision.benchmark import TRUTH, Values
from vision.capture.latest import Frame
from vision.images import Image
from vision.live.demo import DEMO_GAMES, FINAL_S, DemoGame, Shot, shots_of
from vision.live.loop import Accept, LiveReader, Views
from vision.live.stability import Accepted, Settings
from vision.live.tracker import Budget
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.scanner import Scanner

BENCH_SIZE = (1920, 1080)
BENCH_FPS = 30.0
# A camera's frames of a still table differ by the sensor's noise: each shot is rendered with
# this many draws of it, shown in turn, so that no frame is the same picture as the one before.
NOISE_DRAWS = 2
MEMORY_SAMPLES = 60  # along the video, evenly spaced: one a minute over an hour
# Memory counts as flat when the last half of the video adds less than this to the process's
# resident size: above the sampling's own noise, below what half an hour adds when a board
# picture is kept per event (some 500 of them) or a hundred bytes per frame.
FLAT_MB = 5.0
MOST_PLAYERS = {"isle": 2}  # Isle of Colors is for one or two; the others take four
_ABSENT = object()  # a component one side names and the other does not


def bench_games(
    players: int, names: Iterable[str] | None = None, turns: int | None = None
) -> tuple[DemoGame, ...]:
    """The demo's games named (all when None), in the demo's order, for ``players`` players (or
    as many as the game takes), each cut to its first ``turns`` turns when given: for the demo's
    players, the same shots the demo shows, rendered with the same seeds."""
    chosen = None if names is None else set(names)
    games = []
    for game, seed, played in DEMO_GAMES:
        if chosen is not None and game not in chosen:
            continue
        seats = min(players, MOST_PLAYERS.get(game, players))
        script = SCRIPTS[game](seed, seats, played)
        if turns is not None and turns < len(script.turns):
            script = dataclasses.replace(script, turns=script.turns[:turns])
        games.append(DemoGame(script, seed, shots_of(script, FINAL_S)))
    return tuple(games)


@dataclass(frozen=True)
class ShotTruth:
    """What lies on the table in one shot, player by player (the table's position entries, in
    seat order): the printed boards that show each one, its value component by component, and
    which one a hand is over."""

    game: str
    boards: tuple[frozenset[str], ...]
    values: tuple[Values, ...]
    hand_over: int | None

    @classmethod
    def of(cls, game: str, shot: Shot) -> ShotTruth:
        plan = plan_table({"table": list(shot.positions)}, "bench")
        boards = tuple(frozenset(b.layout.key for b in group) for group in plan.groups)
        hand = None
        if shot.hand_over is not None:
            key = plan.boards[shot.hand_over].layout.key
            hand = next(i for i, keys in enumerate(boards) if key in keys)
        values = tuple(TRUTH[game](position) for position in shot.positions)
        return cls(game, boards, values, hand)

    def player_of(self, observation: BoardObservation) -> int | None:
        """The entry whose printed boards the reading was made from, or None."""
        read = set(observation.boards)
        return next((i for i, keys in enumerate(self.boards) if read and read <= keys), None)

    def wrong(self, observation: BoardObservation) -> str | None:
        """Why an accepted reading is wrong, or None when it is what lies on its board."""
        player = self.player_of(observation)
        if player is None:
            return f"boards {', '.join(observation.boards)} are no player's on the table"
        if player == self.hand_over:
            return "accepted under a hand"
        try:
            read = TRUTH[self.game](observation.position)
        except (KeyError, TypeError, ValueError):
            return "read in a form the truth cannot be compared with"
        truth = self.values[player]
        names = truth.keys() | read.keys()
        differ = sorted(n for n in names if read.get(n, _ABSENT) != truth.get(n, _ABSENT))
        if differ:
            return "read differently from the truth: " + ", ".join(differ)
        return None


def changed(before: ShotTruth, after: ShotTruth) -> int:
    """How many players' boards differ between two shots."""
    return sum(1 for a, b in zip(before.values, after.values, strict=True) if a != b)


def _timings() -> array[float]:
    # Eight bytes a timing, not 32 (a float object and its place in a list): the hour-long soak
    # keeps two a frame, and what the benchmark keeps should not weigh in the memory it measures.
    return array("d")


@dataclass
class _Tally:
    """One game's frames and readings as they are counted (or the whole video's)."""

    frames: int = 0
    dropped: int = 0
    frame_ms: array[float] = field(default_factory=_timings)
    frame_cpu_ms: array[float] = field(default_factory=_timings)
    latency_ms: array[float] = field(default_factory=_timings)
    latency_cpu_ms: array[float] = field(default_factory=_timings)
    accepting_ms: array[float] = field(default_factory=_timings)
    commit_ms: array[float] = field(default_factory=_timings)
    events: int = 0
    changes: int = 0
    missed: int = 0
    wrong: int = 0

    def row(self, video_fps: float) -> dict[str, Any]:
        sustained = 1000 * self.frames / sum(self.frame_ms)
        return {
            "frames": self.frames,
            "fps_sustained": round(sustained, 1),
            # A live loop drops no frame: its latency below is what a camera's table sees.
            "keeps_up": self.dropped == 0,
            "dropped": self.dropped,
            "frame_ms": _spread(self.frame_ms),
            "frame_cpu_ms": _spread(self.frame_cpu_ms),
            "latency_ms": _worst(self.latency_ms),
            "latency_cpu_ms": _worst(self.latency_cpu_ms),
            "accepting_frame_ms": _worst(self.accepting_ms),
            "commit_ms_median": _median(self.commit_ms),
            "events": self.events,
            "changes": self.changes,
            "missed": self.missed,
            "wrong": self.wrong,
        }


class LoopClock:
    """A live loop's time over a camera's frames, from each frame's processing time: a frame
    waits until the loop is done with the one before; one still waiting when the next arrives
    is dropped, as the capture keeps only the newest, and costs the loop nothing."""

    def __init__(self, fps: float) -> None:
        self.fps = fps
        self.free_at = 0.0  # video seconds: when the loop is done with the frames it took
        self.done_at = 0.0  # when it would be done with the latest frame, had it taken it

    def frame(self, number: int, spent_ms: float) -> bool:
        """Count frame ``number`` (0 the first), processed in ``spent_ms``; whether the loop
        would have dropped it."""
        start = max(number / self.fps, self.free_at)
        self.done_at = start + spent_ms / 1000
        dropped = start >= (number + 1) / self.fps
        if not dropped:
            self.free_at = self.done_at
        return dropped


def _median(values: Sequence[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def _spread(values: Sequence[float]) -> dict[str, float | None]:
    return {"median": _median(values), "p95": _percentile(values, 0.95)}


def _worst(values: Sequence[float]) -> dict[str, float | None]:
    return {
        "median": _median(values),
        "p95": _percentile(values, 0.95),
        "max": round(max(values), 1) if values else None,
    }


def _percentile(values: Sequence[float], share: float) -> float | None:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1) if ordered else None


def memory_verdict(samples: Sequence[Mapping[str, float]]) -> dict[str, Any]:
    """The samples, and whether the last half of the video added less than ``FLAT_MB``."""
    last = samples[-1]
    half = min(samples, key=lambda s: abs(s["frame"] - last["frame"] / 2))
    growth = round(last["rss_mb"] - half["rss_mb"], 1)
    return {
        "samples": list(samples),
        "start_mb": samples[0]["rss_mb"],
        "end_mb": last["rss_mb"],
        "last_half_growth_mb": growth,
        "flat_below_mb": FLAT_MB,
        "flat": growth < FLAT_MB,
    }


@dataclass(frozen=True)
class _Rendered:
    """One game of the video: each shot's JPEG and truth, and the changes each shot brings."""

    game: DemoGame
    jpegs: tuple[tuple[bytes, ...], ...]  # each shot's, one per draw of the sensor's noise
    truths: tuple[ShotTruth, ...]
    owed: tuple[int, ...]  # every board for the opening, a game being new to its table


def _render(
    games: Sequence[DemoGame], size: tuple[int, int], progress: Callable[[str], None]
) -> list[_Rendered]:
    renderer = Renderer()
    rendered = []
    for game in games:
        name = game.script.game
        jpegs = []
        for number, shot in enumerate(game.shots, 1):
            progress(f"rendering {name} {number}/{len(game.shots)}")
            plan = plan_table({"table": list(shot.positions)}, "bench")
            options = RenderOptions(game.seed, Difficulty.MEDIUM, size, hand_over=shot.hand_over)
            draws = [dataclasses.replace(options, noise_draw=n) for n in range(NOISE_DRAWS)]
            jpegs.append(tuple(renderer.render(plan, o).jpeg for o in draws))
        truths = tuple(ShotTruth.of(name, shot) for shot in game.shots)
        rendered.append(_Rendered(game, tuple(jpegs), truths, _owed(game.shots, truths)))
    return rendered


def _owed(shots: Sequence[Shot], truths: Sequence[ShotTruth]) -> tuple[int, ...]:
    """For each shot, how many boards it shows changed since the last settled table."""
    owed = [len(truths[0].values)]
    settled = truths[0]
    for shot, truth in zip(shots[1:], truths[1:], strict=True):
        if shot.hand_over is not None:
            owed.append(0)
        else:
            owed.append(changed(settled, truth))
            settled = truth
    return tuple(owed)


def _decode(data: bytes) -> Image:
    return np.asarray(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), np.uint8)


class _Run:
    """The video played frame by frame through one reader, counted game by game."""

    def __init__(
        self,
        rendered: Sequence[_Rendered],
        table_for: Callable[[Script], Accept],
        reader: LiveReader,
        fps: float,
        paced: bool = True,
    ) -> None:
        self.rendered = rendered
        self.table_for = table_for
        self.reader = reader
        self.fps = fps
        self.paced = paced
        # One time round, frame by frame: (game, shot).
        self.timeline = [
            (g, s)
            for g, played in enumerate(rendered)
            for s, shot in enumerate(played.game.shots)
            for _ in range(round(shot.seconds * fps))
        ]
        self.tallies = [_Tally() for _ in rendered]
        self.wrong: list[dict[str, Any]] = []
        self._commit_ms: list[float] = []
        self._images: tuple[Image, ...] = ()
        self._shown: tuple[int, int] | None = None
        self._shot_start = 0
        self.clock = LoopClock(fps)
        self._owed = 0  # changes the shot on screen brings
        self._right = 0  # and how many of them were accepted rightly

    def frame(self, number: int) -> None:
        game, shot = self.timeline[number % len(self.timeline)]
        if (game, shot) != self._shown:
            self._next_shot(number, game, shot)
        image = self._images[number % len(self._images)]
        tally = self.tallies[game]
        self._commit_ms.clear()
        wall, cpu = time.perf_counter(), time.process_time()
        # The loop's budget for the frame: as far behind its arrival as the frames before left it.
        behind = self.clock.free_at - number / self.fps
        budget = Budget.of(1 / self.fps, behind, wall) if self.paced else None
        accepted = self.reader.process(Frame(image, number + 1, number / self.fps), budget)
        spent, spent_cpu = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
        # Every frame is scanned all the same, so what is accepted does not depend on the
        # machine's speed; with none dropped, the loop's times are a camera's.
        tally.dropped += self.clock.frame(number, spent)
        tally.frames += 1
        tally.frame_ms.append(spent)
        tally.frame_cpu_ms.append(spent_cpu)
        tally.commit_ms.extend(self._commit_ms)
        if accepted:
            tally.accepting_ms.append(spent)
        waited = (number - self._shot_start) / self.fps * 1000
        done = (self.clock.done_at - self._shot_start / self.fps) * 1000
        for found in accepted:
            tally.events += 1
            if self._right_reading(found.observation, game, shot, number):
                tally.latency_ms.append(done)
                tally.latency_cpu_ms.append(waited + spent_cpu)

    def _right_reading(
        self, observation: BoardObservation, game: int, shot: int, number: int
    ) -> bool:
        """Whether an accepted reading is what lies on its board; a wrong one is recorded."""
        truth = self.rendered[game].truths[shot]
        why = truth.wrong(observation)
        if why is None:
            self._right += 1
            return True
        self.tallies[game].wrong += 1
        seat = observation.player
        self.wrong.append({"game": truth.game, "frame": number, "seat": seat, "why": why})
        return False

    def finish(self) -> None:
        """Count the changes the last shot shown brought and never had accepted."""
        if self._shown is not None:
            self.tallies[self._shown[0]].missed += max(0, self._owed - self._right)

    def _next_shot(self, number: int, game: int, shot: int) -> None:
        self.finish()
        played = self.rendered[game]
        if shot == 0:
            self.reader.restart(self._timed(self.table_for(played.game.script)))
        self._owed, self._right = played.owed[shot], 0
        self.tallies[game].changes += self._owed
        self._shown, self._shot_start = (game, shot), number
        self._images = tuple(_decode(jpeg) for jpeg in played.jpegs[shot])

    def _timed(self, commit: Accept) -> Accept:
        def timed_commit(accepted: Sequence[Accepted], views: Views) -> None:
            start = time.perf_counter()
            commit(accepted, views)
            self._commit_ms.append((time.perf_counter() - start) * 1000)

        return timed_commit


_SAMPLED = ("frame_ms", "frame_cpu_ms", "latency_ms", "latency_cpu_ms", "accepting_ms", "commit_ms")


def _whole(tallies: Iterable[_Tally]) -> _Tally:
    whole = _Tally()
    for tally in tallies:
        for name in _SAMPLED:
            getattr(whole, name).extend(getattr(tally, name))
        for name in ("frames", "dropped", "events", "changes", "missed", "wrong"):
            setattr(whole, name, getattr(whole, name) + getattr(tally, name))
    return whole


def run_live_bench(
    table_for: Callable[[Script], Accept],
    games: Sequence[DemoGame],
    minutes: float,
    size: tuple[int, int] = BENCH_SIZE,
    fps: float = BENCH_FPS,
    settings: Settings | None = None,
    progress: Callable[[str], None] = lambda _: None,
    scanner: Scanner | None = None,
    paced: bool = True,
) -> dict[str, Any]:
    """Play ``games`` in turn as a video of ``minutes`` (once through at least), each game
    played into the table ``table_for`` makes for its script as the game starts; ``paced``: each
    frame's look bounded by the live loop's budget, as a live loop's is (else every board to be
    read is read in the frame that calls for it)."""
    settings = settings or Settings()
    rendered = _render(games, size, progress)
    scanner = scanner or Scanner()
    scanner.prepare()
    reader = LiveReader(lambda _a, _v: None, settings, scanner)
    run = _Run(rendered, table_for, reader, fps, paced)
    total = max(len(run.timeline), round(minutes * 60 * fps))
    load = os.getloadavg()[0]
    memory: list[dict[str, float]] = []
    for number in range(total):
        run.frame(number)
        if number % max(1, total // MEMORY_SAMPLES) == 0 or number == total - 1:
            sample = {"frame": number, "video_s": number / fps, "rss_mb": resident_mb()}
            memory.append({k: round(v, 1) for k, v in sample.items()})
        if number % max(1, round(fps)) == 0:
            progress(f"frame {number + 1}/{total}, {resident_mb():.1f} MB")
    run.finish()
    return {
        "suite": "live",
        "size": list(size),
        "video_fps": fps,
        "frames": total,
        "video_seconds": round(total / fps, 1),
        "settings": dataclasses.asdict(settings),
        "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
        "games": [
            {"game": r.game.script.game, "turns": len(r.game.script.turns), **t.row(fps)}
            for r, t in zip(rendered, run.tallies, strict=True)
        ],
        "overall": _whole(run.tallies).row(fps),
        "wrong": run.wrong,
        "memory": memory_verdict(memory),
    }
