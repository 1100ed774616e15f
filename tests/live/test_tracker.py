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
import pytest
from numpy.typing import NDArray

from tests.live.video import FPS, SEED, SETTINGS, renderer, scanner
from vision.capture.latest import Frame
from vision.images import Image
from vision.live.demo import scripted_game
from vision.live.frames import board_frames, marker_counts, small_grey
from vision.live.loop import LiveReader, Pace
from vision.live.stability import BoardFrame, Settings, signature
from vision.live.tracker import Budget, Look, Tracker, Tracking
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
        "around 0",  # the hand holds still: a glance finds the marker of the tile it laid, searched
        # for where the glance found it; the canvas under the hand, a marker hidden, is not read
        "nothing 0",  # then nothing changes under the hand
        "nothing 0",  # the hand gone: the canvas moving
        "around 1",  # still: a glance finds the canvas's marker the hand hid; searched for there
        *["nothing 0"] * 2,  # and around the canvas, it is read; the other's reading still holds
    ]
    assert [[covered for _, covered, _ in frame] for frame in tracked] == [
        *[[False, False]] * 4,
        *[[True, False]] * 4,  # the hand's three frames, and the one it leaves in
        *[[False, False]] * 3,
    ]


def test_a_glance_every_period_searches_only_for_a_marker_not_known_where_it_lies() -> None:
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
        "around 1",  # the glance finds its markers: searched for around them, the canvas read
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

    def glance(self, image: Image, scale: float = 1.0) -> dict[int, NDArray[np.float64]]:
        return {-1: np.array([[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]])}


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
    # The light over the table brightens by 2 grey levels a frame, too little in any one frame
    # to count; a marker not known is searched for every other frame (a glance that always finds
    # one), and still the canvases are compared with the table as it was when they were read:
    # 6 levels brighter at frame 3, they are read again.
    base = draws(0)
    images = [
        np.asarray(np.clip(base[n % 2].astype(np.int16) + 2 * n, 0, 255), np.uint8)
        for n in range(5)
    ]
    tracked, whole, looks = play(images, Tracking(full_search_s=0.4), Suspicious())
    assert tracked == whole
    assert looks == ["whole 2", "nothing 0", "around 0", "around 2", "around 0"]


@cache
def three_canvases() -> tuple[Image, Image]:
    """Three players' canvases as the game opens, and after each player's first turn: every
    canvas changed, and no hand in view."""
    shots = scripted_game(SEED, players=3, turns=3)
    return render_positions(shots[0].positions), render_positions(shots[6].positions)


def test_boards_past_the_budget_wait_covered_and_are_read_on_the_following_frames() -> None:
    opening, turned = three_canvases()
    images = [opening] * 3 + [turned] * 5
    tracked, whole, looks = play(images, Tracking(full_search_s=60, most_reads=1))
    # One board read a frame: the opening's three in its first three frames, then the three
    # that changed at once in the three frames after they did.
    assert looks == ["whole 1", *["around 1"] * 5, "nothing 0", "nothing 0"]
    covered = [[seen[1] for seen in frame] for frame in tracked]
    assert covered == [
        [False, True, True],
        [False, False, True],
        [False, False, False],
        [False, True, True],  # all three changed: one read, two waiting, covered
        [False, False, True],
        *[[False, False, False]] * 3,
    ]
    # A board not waiting reads as a whole scan of the same frame reads it: never a reading of
    # the table as it was.
    for mine, theirs in zip(tracked, whole, strict=True):
        for seen, truth in zip(mine, theirs, strict=True):
            assert seen[1] or seen == truth
    assert tracked[-3:] == whole[-3:]


def test_a_frame_out_of_time_reads_nothing_and_one_taken_on_time_reads_one() -> None:
    opening, _ = three_canvases()
    tracker = Tracker(scanner(), Tracking(full_search_s=60))
    late = Budget(deadline=0.0, caught_up=False)  # long past, and the loop behind
    on_time = Budget(deadline=0.0, caught_up=True)  # past, but the frame taken as it came
    previous = None
    looks = []
    for number, budget in enumerate([on_time, late, on_time, None]):
        grey = small_grey(opening)
        observation = tracker.look(opening, number / FPS, grey, previous, budget)
        looks.append(tracker.last)
        previous = grey
    # The whole frame searched (owed: the table is new), its boards left waiting; none read
    # while the loop is behind; one when taken on time; the rest with no budget to keep.
    assert looks == [
        Look("whole", 0, 3),
        Look("around", 0, 3),
        Look("around", 1, 2),
        Look("around", 2, 0),
    ]
    assert observation.waiting == ()
    assert all(not b.problems for b in observation.boards)


def accepted_of(
    images: Sequence[Image], settings: Settings, most: int | None
) -> list[tuple[int, int | None, float, object]]:
    """Each event of the frames through a live reader reading at most ``most`` boards a frame:
    its frame, seat, the time its reading held from, and what it read."""
    reader = LiveReader(lambda _a, _v: None, settings, scanner())
    reader.tracker = Tracker(scanner(), Tracking(full_search_s=60, most_reads=most))
    accepted: list[tuple[int, int | None, float, object]] = []
    for number, image in enumerate(images):
        for found in reader.process(Frame(image, number + 1, number / FPS)):
            seat, read = found.observation.player, signature(found.observation)
            accepted.append((number, seat, round(found.since, 3), read))
    return accepted


def test_no_event_comes_from_a_board_before_the_frame_that_reads_it() -> None:
    opening, turned = three_canvases()
    images = [opening] * 3 + [turned] * 3
    # Accepted as soon as one clean frame reads a board: reading every board at once, the three
    # at the first frame of each table; a board a frame, each at the frame that reads it.
    instant = Settings(hold_s=0.0, window=1, min_frames=1, max_change=6.0)
    every = [(n, seat) for n, seat, _, _ in accepted_of(images, instant, None)]
    assert every == [(0, 1), (0, 2), (0, 3), (3, 1), (3, 2), (3, 3)]
    one_a_frame = [(n, seat) for n, seat, _, _ in accepted_of(images, instant, 1)]
    assert one_a_frame == [(0, 1), (1, 2), (2, 3), (3, 1), (4, 2), (5, 3)]


def test_a_board_read_after_waiting_still_holds_from_when_its_picture_held() -> None:
    opening, turned = three_canvases()
    images = [opening] * 6 + [turned] * 8
    every = accepted_of(images, SETTINGS, None)
    one_a_frame = accepted_of(images, SETTINGS, 1)
    truth = {
        (image_number, b.player): signature(b)
        for image_number, image in ((0, opening), (6, turned))
        for b in scanner().scan(image).boards
    }
    # Reading every board at once, the three are accepted together at the fourth frame of each
    # table (the reading held 0.6 s). Read a frame apart, each waited covered (not read yet)
    # with its picture unchanged since the table was first still: what it reads, each of those
    # frames showed, and it holds from then, so the three are accepted at the same frames, each
    # read as what lies on it.
    expected = [(3, 1, 0.0), (3, 2, 0.0), (3, 3, 0.0), (9, 1, 1.2), (9, 2, 1.2), (9, 3, 1.2)]
    assert [(n, seat, since) for n, seat, since, _ in every] == expected
    assert [(n, seat, since) for n, seat, since, _ in one_a_frame] == expected
    for number, seat, _, read in every + one_a_frame:
        assert read == truth[(0 if number < 6 else 6, seat)]


def test_a_board_that_changed_while_it_waited_holds_only_from_when_it_changed() -> None:
    opening, turned = three_canvases()
    # The tiles are laid at frame 2, while seat 3's canvas still waits for its opening reading
    # (a board a frame: seat 1 read at frame 0, seat 2 at frame 1).
    images = [opening] * 2 + [turned] * 6
    events = accepted_of(images, SETTINGS, 1)
    # Its picture changed while it waited: it holds from the frame it changed in (0.4 s), not
    # from the first frame, and is accepted with the others, as what lies on it now.
    assert [(n, seat, since) for n, seat, since, _ in events] == [
        (5, 1, 0.4),
        (5, 2, 0.4),
        (5, 3, 0.4),
    ]
    truth = {b.player: signature(b) for b in scanner().scan(turned).boards}
    assert all(read == truth[seat] for _, seat, _, read in events)


def test_a_live_loops_pace_is_the_time_between_frames_and_how_late_it_takes_them() -> None:
    now = [10.0]
    pace = Pace(lambda: now[0])
    blank = np.zeros((4, 4, 3), np.uint8)
    assert pace.budget(Frame(blank, 1, 9.9)) is None  # one frame says nothing of the pace
    budget = pace.budget(Frame(blank, 3, 9.98))  # two frames on, 80 ms later: 25 fps
    assert pace.period_s == pytest.approx(0.04)
    assert budget is not None and not budget.caught_up  # taken 20 ms after it was read
    now[0] = 10.002
    on_time = pace.budget(Frame(blank, 4, 10.0))
    assert on_time is not None and on_time.caught_up
