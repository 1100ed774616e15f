"""The live reader on rendered video: hands, turned tiles and a bumped camera never reach the
scoreboard as a wrong reading, and every real change does, once it has held.

Frames are 0.2 s apart and the hold is 0.6 s (three frames): a reading read by every clean frame
of a steady table from frame ``k`` on is accepted at frame ``k + 3``, the vote having agreed at
``k + 2``. A frame where the picture over a board jumps (a hand arriving or leaving, the camera
moving) counts as covered, so the clean frames start after it.
"""

from __future__ import annotations

from typing import Any

from tests.live.video import SEED, Played, play, render
from vision.live.demo import scripted_game
from vision.live.stability import Accepted

SHOTS = scripted_game(SEED)
BEFORE = SHOTS[0].positions  # both canvases primed
AFTER = SHOTS[2].positions  # seat 1 laid a new tile over a space (SHOTS[1]: with the hand)


def tiles(position: dict[str, Any]) -> list[tuple[str, int]]:
    return [(space["tile"], space["rotation"]) for space in position["spaces"]]


def read(played: Played, frame: int) -> dict[int | None, list[tuple[str, int]]]:
    accepted: list[Accepted] = played.accepted[frame]
    return {a.observation.player: tiles(a.observation.position) for a in accepted}


def test_a_hand_over_a_board_is_never_accepted_and_the_new_tile_is_once_it_leaves() -> None:
    assert SHOTS[1].hand_over == 0 and SHOTS[1].positions == AFTER
    played = play([(render(BEFORE), 10), (render(AFTER, hand_over=0), 6), (render(AFTER), 10)])
    # Frames 0..9 the table as primed (accepted at 3); 10..15 the hand, covering a marker of
    # seat 1's canvas: nothing; from 16 the hand is gone (16 is the jump, clean frames from 17,
    # accepted at 20) and only seat 1's changed canvas is news.
    assert played.frames() == [3, 20]
    assert read(played, 3) == {1: tiles(BEFORE[0]), 2: tiles(BEFORE[1])}
    assert read(played, 20) == {1: tiles(AFTER[0])}
    assert tiles(AFTER[0]) != tiles(BEFORE[0])
    assert [sorted(views) for views in played.views] == [
        [("colorfield/canvas/1",), ("colorfield/canvas/2",)],
        [("colorfield/canvas/1",)],
    ]


def test_a_rotated_tile_is_accepted_only_after_it_has_held() -> None:
    turned = [dict(space) for space in AFTER[0]["spaces"]]
    assert turned[4] == {"tile": "R1-06", "rotation": 2}  # the turn's tile, laid any way round
    turned[4]["rotation"] = 3
    rotated = ({**AFTER[0], "spaces": turned}, AFTER[1])
    played = play([(render(AFTER), 8), (render(rotated), 8)])
    # One turned tile changes too little of the canvas to count as movement: the new rotation
    # (frames 8, 9, 10) outvotes the old one at frame 10, three of five; every frame has read it
    # since frame 8, so it is accepted at 11.
    assert played.frames() == [3, 11]
    assert read(played, 11) == {1: tiles(rotated[0])}


def test_a_bumped_camera_re_registers_the_boards_without_a_new_reading() -> None:
    bumped = SEED + 1  # another camera pose, light and table position for the same game
    played = play([(render(BEFORE), 8), (render(BEFORE, bumped), 8), (render(AFTER, bumped), 8)])
    # After the bump (frame 8) the boards are found again where they now are and read the same:
    # no event. The next turn (frame 16, one tile: no movement) is voted in at 18 and accepted
    # at 19, read by every frame since 16.
    assert played.frames() == [3, 19]
    assert read(played, 19) == {1: tiles(AFTER[0])}
