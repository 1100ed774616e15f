"""The evaluation's fixed parts: the Wilson interval and the frozen seed splits."""

from __future__ import annotations

import pytest

from vision.benchmark import Trial, not_exact_json
from vision.splits import SEEN, SPLITS, TUNED, USED, SeedRange
from vision.wilson import wilson


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (0, 100, 0.0, 0.037),
        (50, 100, 0.404, 0.596),
        (99, 100, 0.946, 0.998),
        (100, 100, 0.963, 1.0),
        (1, 1, 0.207, 1.0),
        (990, 1000, 0.982, 0.995),
    ],
)
def test_wilson_matches_known_intervals(successes: int, n: int, low: float, high: float) -> None:
    got = wilson(successes, n)
    assert got == pytest.approx((low, high), abs=0.0006)
    assert 0.0 <= got[0] <= successes / n <= got[1] <= 1.0


def test_wilson_with_no_trials_knows_nothing_and_refuses_nonsense() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_a_wider_z_gives_a_wider_interval() -> None:
    narrow, wide = wilson(40, 50, z=1.0), wilson(40, 50, z=2.58)
    assert wide[0] < narrow[0] and narrow[1] < wide[1]


def test_the_splits_are_disjoint_and_far_from_every_seed_looked_at() -> None:
    splits = list(SPLITS.values())
    for i, split in enumerate(splits):
        for other in splits[i + 1 :]:
            assert not split.overlaps(other), (split.name, other.name)
        for used in (*TUNED, SEEN, USED):
            assert not split.overlaps(used), (split.name, used.name)
    for named in (*TUNED, SEEN):
        assert USED.first <= named.first and named.last <= USED.last
    assert list(SPLITS) == ["train", "validation", "test"]


def test_the_test_split_is_the_one_written_in_the_docs() -> None:
    test = SPLITS["test"]
    assert (test.first, test.last) == (100000, 101999)
    assert TUNED[0].overlaps(SeedRange("x", 5000, 5000, ""))
    assert TUNED[1].overlaps(SeedRange("x", 13999, 13999, ""))


def test_a_split_gives_its_first_seeds_and_no_more_than_it_holds() -> None:
    test = SPLITS["test"]
    assert test.seeds(3) == range(100000, 100003)
    assert test.size == 2000
    with pytest.raises(ValueError):
        test.seeds(2001)
    with pytest.raises(ValueError):
        SeedRange("backwards", 10, 9, "")


def test_a_board_not_read_exactly_is_listed_by_what_lay_in_plain_view_first() -> None:
    hidden = tuple(f"slot {k}: covered" for k in range(3))
    trial = Trial(
        "pigments", "hard", 7, "abstained", False, 17, 0, 1.0, 1.0,
        (*hidden, "shade small: blown out"), needless=("shade small: blown out",),
    )  # fmt: skip
    listed = not_exact_json(trial, "ev:+1")
    assert listed == {
        "family": "ev:+1",
        "game": "pigments",
        "difficulty": "hard",
        "seed": 7,
        "outcome": "abstained",
        "problems": ["shade small: blown out", "slot 0: covered", "slot 1: covered"],
    }
