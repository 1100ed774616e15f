"""The twelve scoring cards' goals and the silver ribbons: what one painting earns, and why.

Each goal is a small pure function of the visible icons (games.md section 2, the ribbon table).
It returns every ribbon with the slots and icons that earned it, and a note that says why the
painting earned what it did (or what it missed). Counts are over visible icons; "elements"
excludes bonus icons.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.games.paintings.covering import Visible, VisibleIcon
from companion.games.paintings.matching import maximum_matching
from companion.games.paintings.model import ELEMENTS, SLOTS, Goal, Icon
from companion.words import plural

CONSISTENCY_ICONS = 6
PROPORTION_MAJOR, PROPORTION_MINOR = 3, 2
MOVEMENT_RUN = 3
STYLE_TEXTURES = 3
SYMMETRY_PAIRS = ((1, 5), (2, 4))


@dataclass(frozen=True)
class Ribbon:
    """One ribbon and the visible icons that earned it."""

    icons: tuple[VisibleIcon, ...]
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"reason": self.reason, "icons": [v.to_json() for v in self.icons]}


@dataclass(frozen=True)
class GoalRibbons:
    """What one painting earns towards one scoring card."""

    goal: Goal
    ribbons: tuple[Ribbon, ...]
    note: str

    @property
    def count(self) -> int:
        return len(self.ribbons)

    def to_json(self) -> dict[str, object]:
        return {
            "ribbons": self.count,
            "note": self.note,
            "earned": [r.to_json() for r in self.ribbons],
        }


@dataclass(frozen=True)
class SilverAward:
    """A visible bonus icon and the visible icons of its element, one silver ribbon each."""

    bonus: VisibleIcon
    matches: tuple[VisibleIcon, ...]

    @property
    def count(self) -> int:
        return len(self.matches)

    def to_json(self) -> dict[str, object]:
        return {
            "bonus": self.bonus.to_json(),
            "ribbons": self.count,
            "icons": [v.to_json() for v in self.matches],
        }


def _slots(icons: tuple[VisibleIcon, ...]) -> str:
    return ", ".join(str(v.slot) for v in icons)


def _element_counts(visible: Visible) -> dict[Icon, int]:
    return {element: visible.count(element) for element in ELEMENTS}


def _counts_text(counts: Mapping[Icon, int]) -> str:
    return ", ".join(f"{element.value} {n}" for element, n in counts.items())


def _one(goal: Goal, icons: tuple[VisibleIcon, ...], reason: str) -> GoalRibbons:
    return GoalRibbons(goal, (Ribbon(icons, reason),), reason)


def composition(visible: Visible) -> GoalRibbons:
    empty = [str(s) for s in SLOTS if not visible.in_slot(s)]
    if empty:
        return GoalRibbons(
            Goal.COMPOSITION,
            (),
            _no_icon(empty),
        )
    return _one(Goal.COMPOSITION, visible.icons(), "all 5 slots show at least one icon")


def consistency(visible: Visible) -> GoalRibbons:
    elements = tuple(v for v in visible.icons() if not v.icon.is_bonus)
    if len(elements) == CONSISTENCY_ICONS:
        return _one(Goal.CONSISTENCY, elements, "exactly 6 element icons are visible")
    note = f"{len(elements)} element icons are visible, not exactly {CONSISTENCY_ICONS}"
    return GoalRibbons(Goal.CONSISTENCY, (), note)


def emphasis(visible: Visible) -> GoalRibbons:
    hues = visible.of(Icon.HUE)
    if len(hues) == 1:
        return _one(Goal.EMPHASIS, hues, f"exactly one hue is visible, in slot {hues[0].slot}")
    return GoalRibbons(Goal.EMPHASIS, (), f"{len(hues)} hue icons are visible, not exactly 1")


def hierarchy(visible: Visible) -> GoalRibbons:
    counts = _element_counts(visible)
    tone = counts[Icon.TONE]
    above = [e for e in ELEMENTS if counts[e] > tone]
    if above:
        beaten = ", ".join(f"{e.value} {counts[e]}" for e in above)
        return GoalRibbons(Goal.HIERARCHY, (), f"tone {tone} is fewer than {beaten}")
    reason = f"tone is at least every other element ({_counts_text(counts)})"
    return _one(Goal.HIERARCHY, visible.of(Icon.TONE), reason)


def _first_run(visible: Visible, element: Icon) -> tuple[VisibleIcon, ...]:
    """One icon of ``element`` per slot of its first run of 3 or more consecutive slots."""
    run: list[VisibleIcon] = []
    for slot in SLOTS:
        found = next((v for v in visible.in_slot(slot) if v.icon is element), None)
        if found is not None:
            run.append(found)
            continue
        if len(run) >= MOVEMENT_RUN:
            break
        run = []
    return tuple(run) if len(run) >= MOVEMENT_RUN else ()


def movement(visible: Visible) -> GoalRibbons:
    ribbons = []
    for element in ELEMENTS:
        run = _first_run(visible, element)
        if run:
            ribbons.append(Ribbon(run, f"{element.value} in consecutive slots {_slots(run)}"))
    if not ribbons:
        return GoalRibbons(Goal.MOVEMENT, (), "no element appears in 3 consecutive slots")
    note = "; ".join(r.reason for r in ribbons)
    return GoalRibbons(Goal.MOVEMENT, tuple(ribbons), note)


def proportion(visible: Visible) -> GoalRibbons:
    counts = _element_counts(visible)
    # The most frequent element as the major one leaves the best choice for the minor one.
    ranked = sorted(ELEMENTS, key=lambda e: -counts[e])
    major, minor = ranked[0], ranked[1]
    if counts[major] >= PROPORTION_MAJOR and counts[minor] >= PROPORTION_MINOR:
        reason = f"{major.value} appears {counts[major]} times and {minor.value} {counts[minor]}"
        icons = visible.of(major) + visible.of(minor)
        return _one(Goal.PROPORTION, icons, reason)
    note = f"needs one element 3+ times and another 2+ times ({_counts_text(counts)})"
    return GoalRibbons(Goal.PROPORTION, (), note)


def _pairs(goal: Goal, visible: Visible, first: Icon, second: Icon, adjacent: bool) -> GoalRibbons:
    def allowed(a: VisibleIcon, b: VisibleIcon) -> bool:
        distance = abs(a.slot - b.slot)
        return distance == 1 if adjacent else distance >= 2

    where = "in an adjacent slot" if adjacent else "two or more slots away"
    pairs = maximum_matching(visible.of(first), visible.of(second), allowed)
    ribbons = tuple(
        Ribbon((a, b), f"{first.value} in slot {a.slot} with {second.value} in slot {b.slot}")
        for a, b in pairs
    )
    note = (
        f"{plural(len(pairs), 'disjoint pair')} of {first.value} with {second.value} {where} "
        f"({visible.count(first)} {first.value}, {visible.count(second)} {second.value} visible)"
    )
    return GoalRibbons(goal, ribbons, note)


def proximity(visible: Visible) -> GoalRibbons:
    return _pairs(Goal.PROXIMITY, visible, Icon.TEXTURE, Icon.TONE, adjacent=True)


def space(visible: Visible) -> GoalRibbons:
    return _pairs(Goal.SPACE, visible, Icon.HUE, Icon.SHAPE, adjacent=False)


def repetition(visible: Visible) -> GoalRibbons:
    shapes = visible.of(Icon.SHAPE)
    pairs = [shapes[i : i + 2] for i in range(0, len(shapes) - 1, 2)]
    ribbons = tuple(Ribbon(pair, f"shapes in slots {_slots(pair)}") for pair in pairs)
    note = f"{len(shapes)} shape icons visible: {plural(len(pairs), 'pair')}"
    return GoalRibbons(Goal.REPETITION, ribbons, note)


def style(visible: Visible) -> GoalRibbons:
    textures = visible.of(Icon.TEXTURE)
    if len(textures) >= STYLE_TEXTURES:
        return _one(Goal.STYLE, textures, f"{len(textures)} texture icons are visible (3+)")
    return GoalRibbons(Goal.STYLE, (), f"{len(textures)} texture icons are visible, needs 3")


def symmetry(visible: Visible) -> GoalRibbons:
    for a, b in SYMMETRY_PAIRS:
        for element in ELEMENTS:
            left = next((v for v in visible.in_slot(a) if v.icon is element), None)
            right = next((v for v in visible.in_slot(b) if v.icon is element), None)
            if left is not None and right is not None:
                reason = f"slots {a} and {b} both show {element.value}"
                return _one(Goal.SYMMETRY, (left, right), reason)
    note = "neither slots 1 and 5 nor slots 2 and 4 share an element"
    return GoalRibbons(Goal.SYMMETRY, (), note)


def variety(visible: Visible) -> GoalRibbons:
    firsts = [next(iter(visible.of(e)), None) for e in ELEMENTS]
    missing = [e.value for e, v in zip(ELEMENTS, firsts, strict=True) if v is None]
    if missing:
        return GoalRibbons(Goal.VARIETY, (), f"no {', '.join(missing)} visible")
    icons = tuple(v for v in firsts if v is not None)
    return _one(Goal.VARIETY, icons, "all four elements are visible")


GOALS: Mapping[Goal, Callable[[Visible], GoalRibbons]] = MappingProxyType(
    {
        Goal.COMPOSITION: composition,
        Goal.CONSISTENCY: consistency,
        Goal.EMPHASIS: emphasis,
        Goal.HIERARCHY: hierarchy,
        Goal.MOVEMENT: movement,
        Goal.PROPORTION: proportion,
        Goal.PROXIMITY: proximity,
        Goal.REPETITION: repetition,
        Goal.SPACE: space,
        Goal.STYLE: style,
        Goal.SYMMETRY: symmetry,
        Goal.VARIETY: variety,
    }
)


def ribbons_for(goal: Goal, visible: Visible) -> GoalRibbons:
    return GOALS[goal](visible)


def silver_awards(visible: Visible) -> tuple[SilverAward, ...]:
    """Each visible bonus icon earns one silver ribbon per visible icon of its element."""
    return tuple(
        SilverAward(v, visible.of(v.icon.element)) for v in visible.icons() if v.icon.is_bonus
    )


def _no_icon(empty: list[str]) -> str:
    many = len(empty) > 1
    return f"slot{'s' if many else ''} {', '.join(empty)} show{'' if many else 's'} no icon"
