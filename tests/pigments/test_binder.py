"""The binder rule for every pan size and every chip count, and what "full" means."""

from __future__ import annotations

import pytest

from companion.games.pigments.faults import Cause, binder_fault, binder_needed, is_sound
from companion.games.pigments.model import Pan, PanSize

from .builders import LARGE, MEDIUM, SMALL, B, R, T

# (pan, pigment chips, binder chips) -> the fault of that full pan, worked out from
# "one binder for every two pigments, rounded up".
FULL_PANS = [
    (SMALL, 2, 0, Cause.NOT_ENOUGH_BINDER),  # 2 pigments need 1
    (SMALL, 1, 1, None),  # 1 needs 1
    (SMALL, 0, 2, Cause.TOO_MUCH_BINDER),  # 0 needs 0
    (MEDIUM, 3, 0, Cause.NOT_ENOUGH_BINDER),  # 3 need 2
    (MEDIUM, 2, 1, None),  # 2 need 1
    (MEDIUM, 1, 2, Cause.TOO_MUCH_BINDER),  # 1 needs 1
    (MEDIUM, 0, 3, Cause.TOO_MUCH_BINDER),
    (LARGE, 5, 0, Cause.NOT_ENOUGH_BINDER),  # 5 need 3
    (LARGE, 4, 1, Cause.NOT_ENOUGH_BINDER),  # 4 need 2
    (LARGE, 3, 2, None),  # 3 need 2
    (LARGE, 2, 3, Cause.TOO_MUCH_BINDER),  # 2 need 1
    (LARGE, 1, 4, Cause.TOO_MUCH_BINDER),
    (LARGE, 0, 5, Cause.TOO_MUCH_BINDER),
]


def test_binder_needed_is_half_the_pigments_rounded_up() -> None:
    assert [binder_needed(p) for p in range(7)] == [0, 1, 1, 2, 2, 3, 3]


def test_pan_sizes_match_the_board() -> None:
    assert [(s.windows, s.binder_slots, s.slots, s.points) for s in PanSize] == [
        (1, 1, 2, 2),
        (2, 1, 3, 5),
        (3, 2, 5, 9),
    ]


@pytest.mark.parametrize(("size", "pigments", "binders", "fault"), FULL_PANS)
def test_full_pan_fault(size: PanSize, pigments: int, binders: int, fault: Cause | None) -> None:
    pan = Pan(size, (R,) * pigments + (B,) * binders)
    assert pan.full
    assert binder_fault(pan) is fault
    assert is_sound(pan) is (fault is None)


def test_every_full_composition_is_listed() -> None:
    listed = {(s, p) for s, p, _, _ in FULL_PANS}
    assert listed == {(s, p) for s in PanSize for p in range(s.slots + 1)}


@pytest.mark.parametrize("size", list(PanSize))
def test_a_pan_short_of_chips_is_never_full_nor_faulty(size: PanSize) -> None:
    for count in range(size.slots):
        for pigments in range(count + 1):
            pan = Pan(size, (T,) * pigments + (B,) * (count - pigments))
            assert not pan.full
            assert pan.room == size.slots - count
            assert binder_fault(pan) is None
            assert not is_sound(pan)


@pytest.mark.parametrize("size", list(PanSize))
def test_more_chips_than_slots_is_refused(size: PanSize) -> None:
    with pytest.raises(ValueError, match="slots"):
        Pan(size, (B,) * (size.slots + 1))
