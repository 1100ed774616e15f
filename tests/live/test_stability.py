"""The stability filter on hand-made frames: holds, covers, votes, each at its threshold."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.observation import BoardObservation, ComponentRead
from vision.live.stability import Accepted, BoardFrame, Settings, StabilityFilter, vote

SETTINGS = Settings(hold_s=0.5, window=5, min_frames=3, max_change=6.0)
STEP = 0.125  # between frames: a binary fraction, so times add up exactly
KEY = ("colorfield/canvas/1",)


def board(*rotations: int, problems: tuple[str, ...] = ()) -> BoardObservation:
    spaces = [{"tile": f"R1-0{i + 1}", "rotation": r} for i, r in enumerate(rotations)]
    components = tuple(
        ComponentRead(f"space {i + 1}", space, 0.99) for i, space in enumerate(spaces)
    )
    position = {"game": "colorfield", "canvas": "canvas-1", "spaces": spaces}
    return BoardObservation("colorfield", 1, KEY, position, 0.99, problems, components)


def seen(observation: BoardObservation, markers: int = 4, change: float = 0.0) -> BoardFrame:
    return BoardFrame(observation, markers, 4, change)


def feed(filter_: StabilityFilter, frames: list[tuple[float, BoardFrame]]) -> list[Accepted]:
    accepted: list[Accepted] = []
    for time, frame in frames:
        accepted += filter_.update(time, [frame])
    return accepted


def at(first: int, last: int, frame: BoardFrame) -> list[tuple[float, BoardFrame]]:
    """``frame`` at each frame number from ``first`` to ``last``, inclusive."""
    return [(k * STEP, frame) for k in range(first, last + 1)]


def test_a_reading_is_accepted_once_it_has_held_for_the_hold_time() -> None:
    filter_ = StabilityFilter(SETTINGS)
    a = board(0, 1)
    # The vote first agrees at the third frame (k=2, 0.25 s); every frame has read it since the
    # first (k=0), so the hold ends 0.5 s after that one (k=4).
    assert feed(filter_, at(0, 3, seen(a))) == []
    [accepted] = filter_.update(4 * STEP, [seen(a)])
    assert accepted.observation == a
    assert (accepted.since, accepted.time) == (0.0, 0.5)
    # Accepted once: the same reading holding on is not news.
    assert feed(filter_, at(7, 40, seen(a))) == []


def test_fewer_clean_frames_than_the_minimum_decide_nothing() -> None:
    filter_ = StabilityFilter(Settings(hold_s=0.0, window=5, min_frames=3))
    a = board(0)
    assert feed(filter_, [(0.0, seen(a)), (1.0, seen(a))]) == []
    assert len(filter_.update(2.0, [seen(a)])) == 1


def test_a_missing_marker_a_problem_or_movement_over_the_board_covers_it() -> None:
    a = board(0)
    covers = [
        seen(a, markers=3),
        seen(board(0, problems=("space 1: covered",))),
        seen(a, change=6.01),
    ]
    for cover in covers:
        filter_ = StabilityFilter(SETTINGS)
        # Covered at k=3, just before the hold would end (k=4): the clean frames begin again at
        # k=4 (0.5 s), the vote agrees at the third of them and the hold ends at k=8.
        frames = [*at(0, 2, seen(a)), (3 * STEP, cover), *at(4, 7, seen(a))]
        assert feed(filter_, frames) == []
        [accepted] = filter_.update(8 * STEP, [seen(a)])
        assert (accepted.since, accepted.time) == (0.5, 1.0)
        assert cover.covered(SETTINGS) is not None
    # At the threshold the change is still stillness (sensor noise, not a hand).
    assert seen(a, change=6.0).covered(SETTINGS) is None


def test_a_board_out_of_sight_forgets_its_recent_frames() -> None:
    filter_ = StabilityFilter(SETTINGS)
    a = board(0)
    feed(filter_, at(0, 2, seen(a)))
    assert filter_.update(3 * STEP, []) == []
    assert feed(filter_, at(4, 7, seen(a))) == []
    assert len(filter_.update(8 * STEP, [seen(a)])) == 1


def test_a_rotated_tile_is_accepted_only_when_most_recent_frames_agree_and_it_held() -> None:
    filter_ = StabilityFilter(SETTINGS)
    before, after = board(0, 1), board(0, 2)
    [first] = feed(filter_, at(0, 4, seen(before)))
    assert first.observation == before
    # One frame of the new rotation among old ones changes nothing (a flicker is outvoted).
    assert feed(filter_, at(5, 5, seen(after)) + at(6, 7, seen(before))) == []
    # Rotated for good from k=8: at k=8 the window (frames 4..8) holds two frames of the new
    # rotation, at k=9 three (the flicker at k=5 among them): the vote turns at k=9 (1.125 s),
    # every frame since k=8 (1.0 s) has read it, and the hold ends 0.5 s after that, at k=12.
    assert feed(filter_, at(8, 11, seen(after))) == []
    [second] = filter_.update(12 * STEP, [seen(after)])
    assert second.observation == after
    assert second.since == 1.0


def test_a_reading_the_clean_frames_disagree_on_holds_from_when_the_vote_turned() -> None:
    filter_ = StabilityFilter(SETTINGS)
    a, b = board(0), board(1)
    # a, a, b: the vote is a from k=2 (0.25 s), but the latest frames do not all read it, so its
    # hold counts from the vote and ends at k=6, though a is read again from k=3.
    assert feed(filter_, [*at(0, 1, seen(a)), *at(2, 2, seen(b)), *at(3, 5, seen(a))]) == []
    [accepted] = filter_.update(6 * STEP, [seen(a)])
    assert (accepted.observation, accepted.since, accepted.time) == (a, 0.25, 0.75)


def test_vote_needs_a_strict_majority_for_every_component() -> None:
    a, b = (("space 1", "0"), ("space 2", "1")), (("space 1", "0"), ("space 2", "2"))
    assert vote([a, a, b]) == a
    assert vote([a, b]) is None
    assert vote([a, b, a, b]) is None
    assert vote([a, (("space 1", "0"),)]) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.booleans()), min_size=1, max_size=40))
def test_nothing_is_ever_accepted_from_a_covered_frame(frames: list[tuple[int, bool]]) -> None:
    filter_ = StabilityFilter(Settings(hold_s=0.2, window=3, min_frames=2))
    accepted_readings = []
    for step, (rotation, covered) in enumerate(frames):
        frame = seen(board(rotation), markers=3 if covered else 4)
        accepted = filter_.update(step / 10, [frame])
        if covered:
            assert accepted == []
        accepted_readings += [a.observation for a in accepted]
    # Consecutive acceptances always differ: a reading is news once.
    assert all(x != y for x, y in itertools.pairwise(accepted_readings))


def test_a_reading_after_waiting_with_its_picture_held_holds_from_when_it_held() -> None:
    filter_ = StabilityFilter(SETTINGS)
    a = board(0, 1)
    waiting = BoardFrame(board(problems=("board colorfield/canvas/1: not read yet",)), 4, 4, 0.0)
    # Not read yet (covered) from k=0 to k=3, the picture unchanged all along; read at k=4: the
    # four frames it waited showed what it reads, so it holds from k=0 and is accepted at once.
    assert feed(filter_, at(0, 3, waiting)) == []
    held = BoardFrame(a, 4, 4, 0.0, held_since=0.0, held_frames=4)
    [accepted] = filter_.update(4 * STEP, [held])
    assert (accepted.observation, accepted.since, accepted.time) == (a, 0.0, 0.5)


def test_a_reading_after_a_short_wait_still_waits_for_the_rest_of_its_hold() -> None:
    filter_ = StabilityFilter(SETTINGS)
    a = board(0, 1)
    # Waited one frame (k=0) before it was read at k=1: it holds from k=0, so its hold of
    # 0.5 s ends at k=4, and the vote needs its three frames (the one waited counts as one).
    held = BoardFrame(a, 4, 4, 0.0, held_since=0.0, held_frames=1)
    assert filter_.update(STEP, [held]) == []
    assert feed(filter_, at(2, 3, seen(a))) == []
    [accepted] = filter_.update(4 * STEP, [seen(a)])
    assert accepted.since == 0.0
