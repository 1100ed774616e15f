"""The tracker against a scan of every whole frame: a Color Field game played on rendered video
(two draws of the sensor's noise in turn, hands over the boards as they change, a bumped camera),
where every frame must make every board exactly as covered, and every clean board read exactly
as, a whole scan of that frame makes and reads it; and how little each frame is searched."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np

from tests.live.video import FPS, SEED, SETTINGS, renderer, scanner
from vision.images import Image
from vision.live.demo import scripted_game
from vision.live.frames import board_frames, marker_counts, small_grey
from vision.live.stability import BoardFrame, signature
from vision.live.tracker import Tracker, Tracking
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import RenderOptions
from vision.scan.scanner import Known, Observation, Scanner

SIZE = (1280, 720)
Seen = tuple[tuple[str, ...], bool, object]  # a board's key, covered, its reading when clean


@cache
def draws(shot: int) -> tuple[Image, Image]:
    """Shot ``shot`` of the scripted game, with two draws of the sensor's noise."""
    played = scripted_game(SEED, turns=1)[shot]
    plan = plan_table({"table": list(played.positions)}, "test")
    options = RenderOptions(SEED, Difficulty.MEDIUM, SIZE, hand_over=played.hand_over)
    first, second = (
        renderer().render(plan, dataclasses.replace(options, noise_draw=n)).image for n in (0, 1)
    )
    return first, second


def render_positions(positions: Sequence[object]) -> Image:
    plan = plan_table({"table": list(positions)}, "test")
    return renderer().render(plan, RenderOptions(SEED, Difficulty.MEDIUM, SIZE)).image


def bumped(image: Image) -> Image:
    """The camera knocked: the picture moved 9 px right and 5 px down."""
    shift = np.array([[1.0, 0.0, 9.0], [0.0, 1.0, 5.0]])
    height, width = image.shape[:2]
    return np.asarray(cv2.warpAffine(image, shift, (width, height)), np.uint8)


def frames(shots: Sequence[tuple[int, int]]) -> list[Image]:
    """Each shot held for its count of frames, the noise's two draws in turn."""
    return [draws(shot)[number % 2] for shot, count in shots for number in range(count)]


def as_seen(boards: Sequence[BoardFrame]) -> list[Seen]:
    """What the stability filter makes of a frame: each board, covered or not, and what it reads
    when clean."""
    return [
        (
            b.key,
            b.covered(SETTINGS) is not None,
            None if b.covered(SETTINGS) else signature(b.observation),
        )
        for b in boards
    ]


def play(
    images: Sequence[Image], tracking: Tracking, looking: Scanner | None = None
) -> tuple[list[list[Seen]], list[list[Seen]], list[str]]:
    """The frames as the tracker sees them (its looks made with ``looking``, or the scanner) and
    as whole scans see them, and each frame's look."""
    tracker = Tracker(looking or scanner(), tracking)
    counts = marker_counts(scanner().index)
    tracked: list[list[Seen]] = []
    whole: list[list[Seen]] = []
    looks: list[str] = []
    previous = None
    for number, image in enumerate(images):
        grey = small_grey(image)
        observation = tracker.look(image, number / FPS, grey, previous)
        looks.append(f"{tracker.last.searched} {tracker.last.read}")
        width = image.shape[1]
        index = scanner().index
        tracked.append(as_seen(board_frames(observation, index, counts, grey, previous, width)))
        full = scanner().scan(image)
        whole.append(as_seen(board_frames(full, index, counts, grey, previous, width)))
        previous = grey
    return tracked, whole, looks


def test_a_still_table_is_looked_at_once_and_a_change_only_where_it_is() -> None:
    # The opening table (shot 0) for 4 frames, the hand over seat 1's canvas (shot 1) for 3,
    # the turn's tile laid (shot 2) for 4.
    tracked, whole, looks = play(frames([(0, 4), (1, 3), (2, 4)]), Tracking(full_search_s=60))
    assert tracked == whole
    assert looks == [
        "whole 2",  # every board found and read
        *["nothing 0"] * 3,  # the sensor's noise alone: nothing searched, nothing read
        "nothing 0",  # the hand comes: seat 1's canvas moving, covered whatever it reads
        "whole 0",  # the hand holds still: a glance finds the marker of the tile it laid, the
        # whole frame is searched; the canvas under the hand, a marker hidden, is not read
        "nothing 0",  # then nothing changes under the hand
        "nothing 0",  # the hand gone: the canvas moving
        "whole 1",  # still: a glance finds the canvas's marker the hand hid, a search of the
        *["nothing 0"] * 2,  # whole frame reads the canvas; the other's reading still holds
    ]
    assert [[covered for _, covered, _ in frame] for frame in tracked] == [
        *[[False, False]] * 4,
        *[[True, False]] * 4,  # the hand's three frames, and the one it leaves in
        *[[False, False]] * 3,
    ]


def test_a_glance_every_period_searches_the_whole_frame_only_for_a_marker_not_known() -> None:
    # Blocks that never count as changed: only the glance can see the second canvas come.
    tracking = Tracking(noise_level=255.0, full_search_s=0.6)  # 3 frames at 5 fps
    one = render_positions(scripted_game(SEED, players=1, turns=1)[0].positions)
    two = draws(0)[0]
    tracked, whole, looks = play([one, one, one, one, two, two, two], tracking)
    assert looks == [
        "whole 1",
        *["nothing 0"] * 2,
        "nothing 0",  # a glance: no marker it does not know
        "nothing 0",  # the second canvas in view, unseen by the blocks
        "nothing 0",
        "whole 1",  # the glance finds its markers: the whole frame searched, the canvas read
    ]
    assert [len(frame) for frame in tracked] == [1, 1, 1, 1, 1, 1, 2]
    assert tracked[-1][1] == whole[-1][1]  # the new canvas read as a whole scan reads it


def test_a_bumped_camera_covers_every_board_then_finds_them_where_they_now_are() -> None:
    still, knocked = draws(0)
    images = [still, knocked, bumped(still), bumped(knocked), bumped(still), bumped(knocked)]
    tracked, whole, looks = play(images, Tracking(full_search_s=60))
    assert tracked == whole
    covered = [[seen[1] for seen in frame] for frame in tracked]
    assert covered == [[False, False], [False, False], [True, True]] + [[False, False]] * 3
    # Moving at the bump; once it stops, the canvases are searched around where they were, found
    # a little further on, and read.
    assert looks == ["whole 2", "nothing 0", "nothing 0", "around 2", "nothing 0", "nothing 0"]


def test_a_tile_laid_with_no_hand_in_view_is_read_around_its_board_alone() -> None:
    tracked, whole, looks = play(frames([(0, 3), (2, 3)]), Tracking(full_search_s=60))
    assert tracked == whole
    assert looks == ["whole 2", "nothing 0", "nothing 0", "around 1", "nothing 0", "nothing 0"]
    # Seat 1's canvas reads the tile laid; seat 2's reading is the one read at the start.
    before, after = tracked[2], tracked[3]
    assert [b[2] != a[2] for b, a in zip(before, after, strict=True)] == [True, False]


class Suspicious(Scanner):
    """A scanner whose glance always finds a marker not known."""

    def glance(self, image: Image, scale: float = 1.0) -> set[int]:
        return {-1}


class Recording(Scanner):
    """A scanner that keeps what it was told the frames before said."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[Known | None] = []

    def scan(
        self, image: Image, game: str | None = None, known: Known | None = None
    ) -> Observation:
        self.told.append(known)
        return super().scan(image, game, known)


def test_a_4k_frame_is_searched_at_half_size_and_its_boards_read_as_at_full_size() -> None:
    played = scripted_game(SEED, turns=1)[0]
    plan = plan_table({"table": list(played.positions)}, "test")
    image = renderer().render(plan, RenderOptions(SEED, Difficulty.MEDIUM, (3840, 2160))).image
    recording = Recording()
    observation = Tracker(recording).look(image, 0.0, small_grey(image), None)
    [known] = recording.told
    assert known is not None and known.scale == 0.5
    full = scanner().scan(image)
    assert [m.id for m in observation.markers] == [m.id for m in full.markers]
    assert [signature(b) for b in observation.boards] == [signature(b) for b in full.boards]
    assert len(observation.boards) == 2


def test_boards_read_side_by_side_read_as_one_after_another() -> None:
    image = draws(0)[0]
    side_by_side = Scanner(cores=2)
    observation = side_by_side.scan(image)
    assert observation.boards == Scanner(cores=1).scan(image).boards
    assert len(observation.boards) == 2 and side_by_side._pool is not None


def test_a_slow_drift_adds_up_until_the_boards_are_read_again() -> None:
    # The light over the canvases brightens by 2 grey levels a frame, too little in any one
    # frame to count; the whole frame is searched every other frame (a glance that always
    # finds a marker not known), and still the canvases are compared with the table as it was
    # when they were read: 6 levels brighter at frame 3, they are read again.
    base = draws(0)
    images = [
        np.asarray(np.clip(base[n % 2].astype(np.int16) + 2 * n, 0, 255), np.uint8)
        for n in range(5)
    ]
    tracked, whole, looks = play(images, Tracking(full_search_s=0.4), Suspicious())
    assert tracked == whole
    assert looks == ["whole 2", "nothing 0", "whole 0", "around 2", "whole 0"]
