"""What the host wants the displays to show, and the next message that brings a device closer.

The driver keeps two values: the newest :class:`Scene` it was asked for, and a
:class:`DeviceView` of what the device has acknowledged (``None`` where it does not know, as after
a restart). :func:`next_step` compares them; since it always looks at the newest scene, any number
of changes made while a message was on its way collapse into one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_bridge import messages
from firmware_bridge.messages import (
    BRIGHTNESS_DEFAULT,
    BRIGHTNESS_MAX,
    MAX_DISPLAYS,
    SCORE_KEEP,
    TEXT_MAX,
    Request,
)
from firmware_bridge.segments import unsupported

Content = int | str
_INT32 = range(-(2**31) + 1, 2**31)


@dataclass(frozen=True)
class Scene:
    """One content per display, in chain order: a score (int) or a text; missing ones are blank."""

    contents: tuple[Content, ...] = ()
    brightness: int = BRIGHTNESS_DEFAULT
    highlight: frozenset[int] = frozenset()
    blink: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if len(self.contents) > MAX_DISPLAYS:
            raise ValueError(f"at most {MAX_DISPLAYS} displays, not {len(self.contents)}")
        for content in self.contents:
            if isinstance(content, int) and content not in _INT32:
                raise ValueError(f"score {content} does not fit in 32 bits")
            if isinstance(content, str):
                if len(content) > TEXT_MAX:
                    raise ValueError(f"text {content!r} is longer than {TEXT_MAX} characters")
                bad = unsupported(content)
                if bad is not None:
                    raise ValueError(f"the displays cannot show {bad!r} (in {content!r})")
        if not 0 <= self.brightness <= BRIGHTNESS_MAX:
            raise ValueError(f"brightness {self.brightness} is out of range (0..{BRIGHTNESS_MAX})")
        for name, marked in (("highlight", self.highlight), ("blink", self.blink)):
            if any(not 0 <= i < MAX_DISPLAYS for i in marked):
                raise ValueError(f"{name}: displays are numbered 0..{MAX_DISPLAYS - 1}")

    def on(self, displays: int) -> tuple[Content, ...]:
        """The content of each of a device's ``displays``: extra contents are left out."""
        return tuple(self.contents[:displays]) + ("",) * (displays - len(self.contents))

    def marks(self, displays: int) -> tuple[int, int]:
        def mask(marked: frozenset[int]) -> int:
            return sum(1 << i for i in marked if i < displays)

        return mask(self.highlight), mask(self.blink)


@dataclass(frozen=True)
class DeviceView:
    """What the device acknowledged showing; ``None`` where that is not known."""

    contents: tuple[Content | None, ...]
    brightness: int | None = None
    marks: tuple[int, int] | None = None

    @classmethod
    def unknown(cls, displays: int) -> DeviceView:
        return cls((None,) * displays)

    def shows(self, scene: Scene) -> bool:
        return next_step(self, scene) is None


@dataclass(frozen=True)
class Step:
    request: Request
    after: DeviceView  # the view once the device acknowledges the request


def next_step(view: DeviceView, scene: Scene) -> Step | None:
    """The next message to send, scores first, then texts, brightness and marks; None when done."""
    displays = len(view.contents)
    wanted = scene.on(displays)
    if any(isinstance(w, int) and w != v for w, v in zip(wanted, view.contents, strict=True)):
        values = tuple(w if isinstance(w, int) else SCORE_KEEP for w in wanted)
        contents = tuple(
            w if isinstance(w, int) else v for w, v in zip(wanted, view.contents, strict=True)
        )
        return Step(messages.scores(values), replace(view, contents=contents))
    for index, (w, v) in enumerate(zip(wanted, view.contents, strict=True)):
        if isinstance(w, str) and w != v:
            contents = (*view.contents[:index], w, *view.contents[index + 1 :])
            return Step(messages.text(index, w), replace(view, contents=contents))
    if view.brightness != scene.brightness:
        return Step(
            messages.brightness(scene.brightness), replace(view, brightness=scene.brightness)
        )
    marks = scene.marks(displays)
    if view.marks != marks:
        return Step(messages.marks(*marks), replace(view, marks=marks))
    return None
