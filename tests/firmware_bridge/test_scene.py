"""The planner: the fewest messages, in order, that make a device show a scene."""

from __future__ import annotations

import pytest

from firmware_bridge import messages
from firmware_bridge.messages import SCORE_KEEP
from firmware_bridge.scene import DeviceView, Scene, next_step


def plan(view: DeviceView, scene: Scene) -> list[messages.Request]:
    out = []
    while (step := next_step(view, scene)) is not None:
        out.append(step.request)
        view = step.after
    assert view.shows(scene)
    return out


def test_a_device_in_an_unknown_state_gets_everything():
    scene = Scene((12, 7), brightness=5, highlight=frozenset({1}))
    assert plan(DeviceView.unknown(4), scene) == [
        messages.scores((12, 7, SCORE_KEEP, SCORE_KEEP)),
        messages.text(2, ""),
        messages.text(3, ""),
        messages.brightness(5),
        messages.marks(0b10, 0),
    ]


def test_only_what_changed_is_sent_again():
    view = DeviceView((12, 7, "", ""), brightness=8, marks=(0, 0))
    assert plan(view, Scene((12, 9, "", ""))) == [messages.scores((12, 9, SCORE_KEEP, SCORE_KEEP))]
    assert plan(view, Scene((12, 7), blink=frozenset({0}))) == [messages.marks(0, 1)]
    assert plan(view, Scene((12, 7))) == []


def test_texts_keep_their_place_when_scores_change():
    view = DeviceView(("P1", 3, "", ""), brightness=8, marks=(0, 0))
    assert plan(view, Scene(("P1", 4))) == [
        messages.scores((SCORE_KEEP, 4, SCORE_KEEP, SCORE_KEEP))
    ]


def test_a_smaller_device_gets_the_first_displays_only():
    scene = Scene((1, 2, 3, 4), highlight=frozenset({0, 3}))
    assert plan(DeviceView.unknown(2), scene) == [
        messages.scores((1, 2)),
        messages.brightness(8),
        messages.marks(0b01, 0),
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"contents": (1, 2, 3, 4, 5)}, "at most 4 displays, not 5"),
        ({"contents": ("hello!",)}, "the displays cannot show '!' (in 'hello!')"),
        ({"contents": ("x" * 17,)}, "is longer than 16 characters"),
        ({"contents": (2**31,)}, "score 2147483648 does not fit in 32 bits"),
        ({"contents": (-(2**31),)}, "does not fit in 32 bits"),
        ({"brightness": 16}, "brightness 16 is out of range (0..15)"),
        ({"blink": frozenset({4})}, "blink: displays are numbered 0..3"),
    ],
)
def test_scenes_the_displays_cannot_show_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Scene(**kwargs)


def test_the_largest_scores_still_fit_in_32_bits():
    assert Scene((2**31 - 1, -(2**31) + 1)).contents == (2147483647, -2147483647)
