"""A scan told to read at most so many boards leaves the others waiting: observed as not read yet,
a problem, with nothing read of them; a Paintings player any of whose mats waits is not read
yet either, whatever its other mats read."""

from __future__ import annotations

from functools import cache

from tests.live.video import render, scanner
from vision.images import Image
from vision.live.bench import bench_games
from vision.scan.scanner import Known


@cache
def two_painters() -> Image:
    """Seat 1 with two paintings (two mats), seat 2 with one."""
    [game] = bench_games(2, ["paintings"], 1)
    return render(game.shots[2].positions, seed=game.seed)


def test_a_board_past_the_most_reads_waits_and_its_player_is_not_read_yet() -> None:
    image = two_painters()
    full = scanner().scan(image)
    first = ("paintings/mat/1", "paintings/mat/4")  # seat 1's first mat, then seat 2's
    observation = scanner().scan(image, known=Known(most_reads=2, first=first))
    assert observation.waiting == ("paintings/mat/2",)
    seat_1, seat_2 = observation.boards
    assert seat_1.boards == ("paintings/mat/1", "paintings/mat/2")
    assert seat_1.problems == ("board paintings/mat/2: not read yet",)
    assert len(seat_1.position["paintings"]) == 1  # nothing read of the mat waiting
    assert seat_2 == full.boards[1]


def test_no_reads_leave_every_board_waiting() -> None:
    observation = scanner().scan(two_painters(), known=Known(most_reads=0))
    assert sorted(observation.waiting) == [
        "paintings/mat/1",
        "paintings/mat/2",
        "paintings/mat/4",
    ]
    assert all(b.problems and b.components == () for b in observation.boards)
