"""Pigment Lab legality between two scans of one palette board (games.md section 4).

One turn is one draft (every chip of one colour from one crate, or from the Spill Tray), all of
it into ONE pan with the overflow on the Spill Line, plus free actions: claim a shade when
starting a pan, sift once (one chip out of an unpressed pan), the Kiln (2 FeO(OH) -> Fe2O3 +
water), spend water, press, and after a Fault card a diagnosis (right: swap one pan chip for a
Spill Line chip, or return one chip to the Spill Tray; wrong: the pan is emptied into the Tray).

The camera sees the pans and the claimed shades, never the Spill Line, the Tray, the water or
whether a pan was pressed. So ``check`` looks for the most charitable reading of the two scans:
every pan gets its cheapest story (kept, emptied along the way, emptied by a wrong diagnosis,
pressed before), under every way of sharing the turn's one draft, one sift and the diagnoses
entered among the pans. Each story settles the chips that left and arrived by the legal means
(the draft's colour, Kiln conversions, the sift, right diagnoses) and counts what is left over as
broken rules; the reading with the fewest is reported. Wherever the scans cannot tell, the
reading is generous: the Spill Line may hold any chip (so a Kiln partner yellow or a swapped-in
chip is always there), and a right diagnosis may remedy any pan. A draft from the Spill Tray can
bring any number of chips, so how many chips arrived is never a violation. A claimed shade that
is gone in the later scan is not judged either. Two scans of a seat are taken to be at most one
of its turns apart, as the table scans once per turn.

Rules (components: a pan's slots, ``small window 1`` .. ``large binder 2``, for chips, and
``shade <pan>`` for its card):

- ``chips-in-two-pans``: chips arrived in more than one pan.
- ``two-colours-drafted``: the chips that arrived are of more than one colour, after Kiln reds
  (made from a yellow that left the pan, or from drafted yellows) and right-diagnosis swaps.
- ``chips-removed``: more chips left a pan than a sift, right-diagnosis returns and swaps, and
  the Kiln (yellows only) can take out.
- ``emptied-without-wrong-diagnosis``: a full pan with a structural fault and a claimed shade
  is emptied, as a wrong diagnosis does, but none was entered (the score misses its penalty).
- ``claim-on-started-pan``: a shade appears under a pan that held chips and was never empty.
- ``shade-replaced``: a claimed shade became another while the pan held chips throughout.
- ``too-many-claims``: a shade was claimed and more than two claimed shades lie under pans
  that would not press (a pan that would press is taken as pressed: its card does not count).
- ``pressed-pan-changed``: a pan that would press in the earlier scan (full, sound, its
  shade's recipe) changed in a way no turn allows an unpressed pan either.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from companion.content.pigments import default_content
from companion.errors import AtelierError
from companion.fields import Field
from companion.games.pigments.checker import Verdict, check_pan
from companion.games.pigments.model import BOARD, PAN_NAMES, Chip, Shade, canonical
from companion.games.pigments.position import PalettePosition, PanPosition, parse_position
from companion.games.pigments.shades import ShadeCatalogue
from companion.games.pigments.words import chips_words, pan_label
from companion.games.violations import Violation
from companion.words import listed

MAX_HELD = 2

# What each left-over in a reading costs: the reading with the lowest total is reported. A chip
# of a second colour in a second pan breaks two rules, so it costs more than one that breaks
# one. A full faulted pan now empty reads as an unrecorded wrong diagnosis rather than as chips
# removed one by one; one that still holds chips needs more than one chip too many removed to
# read so. A pan that could have been pressed and then changed in a way no unpressed pan may is
# reported as pressed and changed, whatever else the change breaks.
EXTRA_CHIP = 2
OTHER_COLOUR = 1
SHADE_CHANGE = 2
UNRECORDED_WRONG = 3
PRESSED_CHANGED = 1


@dataclass(frozen=True)
class Share:
    """What one pan gets of the turn's resources in a reading.

    ``draft``: the turn's draft colour (None: no draft brought chips); ``here``: whether this
    pan takes the draft. ``rights``: right diagnoses spent on this pan; ``wrong``: a wrong
    diagnosis emptied it.
    """

    draft: Chip | None
    here: bool
    sift: bool
    rights: int
    wrong: bool


@dataclass(frozen=True)
class PanStory:
    """One pan's cheapest story under a share, and what it leaves unexplained."""

    cost: int
    added: tuple[Chip, ...] = ()  # chips that arrived beyond the draft
    removed: tuple[Chip, ...] = ()  # chips that left beyond the legal means
    shade_rule: str | None = None  # claim-on-started-pan or shade-replaced
    unrecorded_wrong: bool = False
    pressed_changed: bool = False


@dataclass(frozen=True)
class PanChange:
    """A pan in both scans."""

    index: int
    before: PanPosition
    after: PanPosition
    catalogue: ShadeCatalogue

    @property
    def name(self) -> str:
        return PAN_NAMES[self.index]

    @property
    def label(self) -> str:
        return pan_label(self.name)

    @property
    def slots(self) -> tuple[str, ...]:
        size = BOARD[self.index]
        return tuple(f"{self.name} window {i}" for i in range(1, size.windows + 1)) + tuple(
            f"{self.name} binder {i}" for i in range(1, size.binder_slots + 1)
        )

    @property
    def chips_changed(self) -> bool:
        return canonical(self.before.pan.chips) != canonical(self.after.pan.chips)

    @property
    def claimed(self) -> bool:
        """A shade lies under the pan now that was not there before."""
        return self.after.shade is not None and self.after.shade != self.before.shade

    @property
    def changed(self) -> bool:
        return self.chips_changed or self.claimed

    def verdict(self, position: PanPosition) -> Verdict:
        return check_pan(position.pan, position.shade, self.catalogue).verdict


def check(
    before: dict[str, Any], after: dict[str, Any], diagnoses: Sequence[bool] = ()
) -> tuple[Violation, ...]:
    """Every rule the change from ``before`` to ``after`` proves broken in its most charitable
    reading. ``diagnoses``: the Fault diagnoses entered for this seat since ``before`` (True:
    right). A position that is not a palette board, or does not parse, proves nothing."""
    content = default_content()
    was, now = _parse(before, content.shades), _parse(after, content.shades)
    if was is None or now is None:
        return ()
    pans = tuple(
        PanChange(i, b, a, content.catalogue)
        for i, (b, a) in enumerate(zip(was.pans, now.pans, strict=True))
    )
    rights = sum(1 for d in diagnoses if d)
    wrongs = len(diagnoses) - rights
    target, draft, stories = _best_reading(pans, rights, wrongs)
    return _report(pans, target, draft, stories)


def _parse(position: dict[str, Any], shades: Mapping[str, Shade]) -> PalettePosition | None:
    if not isinstance(position, dict) or position.get("game") != "pigments":
        return None
    try:
        parsed = parse_position(Field(position), shades)
    except (AtelierError, ValueError):
        return None
    return parsed if isinstance(parsed, PalettePosition) else None


def _settle(
    left: Counter[Chip], arrived: Counter[Chip], share: Share
) -> tuple[Counter[Chip], Counter[Chip]]:
    """The chips that left and arrived that no legal means of the share explains."""
    left, arrived = Counter(left), Counter(arrived)
    if share.here and share.draft is not None:
        del arrived[share.draft]
        if share.draft is Chip.FEOOH:
            # Drafted yellows may go through the Kiln in the pan: reds from the draft.
            del arrived[Chip.FE2O3]
    # The Kiln turns a yellow into a red in place, or takes a yellow out (its partner yellow
    # on the Spill Line or in another pan), any number of times.
    turned = min(left[Chip.FEOOH], arrived[Chip.FE2O3])
    arrived[Chip.FE2O3] -= turned
    del left[Chip.FEOOH]
    left, arrived = +left, +arrived
    if share.sift and left:
        left[_cheapest(left)] -= 1
        left = +left
    for _ in range(share.rights):
        # A right diagnosis swaps one chip for a Spill Line chip (one out, any one in), or
        # returns one: an off-colour arrival first, as it costs the most left over.
        if arrived:
            arrived[_costliest(arrived, share.draft)] -= 1
            arrived = +arrived
        if left:
            left[_cheapest(left)] -= 1
            left = +left
    return left, arrived


def _cheapest(chips: Counter[Chip]) -> Chip:
    return canonical(chips.elements())[0]


def _costliest(chips: Counter[Chip], draft: Chip | None) -> Chip:
    odd = [c for c in canonical(chips.elements()) if c is not draft]
    return odd[0] if odd else _cheapest(chips)


def _cost(left: Counter[Chip], arrived: Counter[Chip], draft: Chip | None) -> int:
    extra = sum(left.values()) + sum(arrived.values())
    odd = sum(n for chip, n in arrived.items() if chip is not draft)
    return EXTRA_CHIP * extra + OTHER_COLOUR * odd


def _story(
    pan: PanChange, left: Counter[Chip], arrived: Counter[Chip], share: Share, base: int = 0
) -> PanStory:
    rest_left, rest_arrived = _settle(left, arrived, share)
    return PanStory(
        base + _cost(rest_left, rest_arrived, share.draft),
        canonical(rest_arrived.elements()),
        canonical(rest_left.elements()),
    )


def _stories(pan: PanChange, share: Share) -> Iterator[PanStory]:
    """Every story of one pan under a share; the caller keeps the cheapest."""
    was, now = Counter(pan.before.pan.chips), Counter(pan.after.pan.chips)
    before_verdict = pan.verdict(pan.before)
    if before_verdict is Verdict.PRESSED:
        # Pressed before: nothing may change; if it did, every other story breaks a rule too.
        yield PanStory(PRESSED_CHANGED if pan.changed else 0, pressed_changed=pan.changed)
    if share.wrong and (pan.before.shade is not None or pan.after.shade is not None):
        # Emptied into the Tray by a wrong diagnosis: only what arrived since needs a means,
        # and an empty pan may take a new card.
        yield _story(pan, Counter(), now, share)
    faulted = before_verdict is Verdict.STRUCTURAL_FAULT and pan.before.shade is not None
    if not share.wrong and faulted:
        # Emptied as a wrong diagnosis empties it: likelier than chips removed one by one
        # when the pan is empty now, so it wins a tie then.
        base = UNRECORDED_WRONG - (0 if now else 1)
        story = _story(pan, Counter(), now, share, base)
        yield PanStory(story.cost, story.added, story.removed, unrecorded_wrong=True)
    kept = _story(pan, was - now, now - was, share)
    if not pan.claimed or not was:
        yield kept
        return
    rule = "claim-on-started-pan" if pan.before.shade is None else "shade-replaced"
    yield PanStory(kept.cost + SHADE_CHANGE, kept.added, kept.removed, shade_rule=rule)
    # Emptied along the way (a sift, the Kiln, returns) and started again under the new card.
    yield _story(pan, was, now, share)


def _best_story(pan: PanChange, share: Share) -> PanStory:
    return min(_stories(pan, share), key=lambda s: s.cost)


def _splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to spend at most ``total`` among ``parts``."""
    for split in product(range(total + 1), repeat=parts):
        if sum(split) <= total:
            yield split


def _best_reading(
    pans: tuple[PanChange, ...], rights: int, wrongs: int
) -> tuple[int | None, Chip | None, tuple[PanStory, ...]]:
    """The draft's pan and colour, and each pan's story, in the cheapest reading of the turn."""
    count = len(pans)
    colours = canonical({c for p in pans for c in p.after.pan.chips})
    drafts: list[tuple[int | None, Chip | None]] = [(None, None)]
    drafts += [(i, c) for i in range(count) for c in colours]
    cache: dict[tuple[int, Share], PanStory] = {}
    best: tuple[int, int | None, Chip | None, tuple[PanStory, ...]] | None = None
    # A pan is emptied by at most one wrong diagnosis that matters: once empty it stays so.
    wrong_splits = [s for s in product((0, 1), repeat=count) if sum(s) <= wrongs]
    for (target, colour), sift, right_split, wrong_split in product(
        drafts, (None, *range(count)), tuple(_splits(rights, count)), wrong_splits
    ):
        stories = []
        for i, pan in enumerate(pans):
            share = Share(colour, target == i, sift == i, right_split[i], wrong_split[i] == 1)
            if (i, share) not in cache:
                cache[(i, share)] = _best_story(pan, share)
            stories.append(cache[(i, share)])
        cost = sum(s.cost for s in stories)
        if best is None or cost < best[0]:
            best = (cost, target, colour, tuple(stories))
        if cost == 0:
            break
    assert best is not None  # the reading with no draft, sift or diagnosis always exists
    return best[1:]


def _report(
    pans: tuple[PanChange, ...],
    target: int | None,
    draft: Chip | None,
    stories: tuple[PanStory, ...],
) -> tuple[Violation, ...]:
    found: list[Violation] = []
    pressed = [p for p, s in zip(pans, stories, strict=True) if s.pressed_changed]
    for pan in pressed:
        shade = pan.before.shade
        assert shade is not None  # a pan that would press has a shade
        what = []
        if pan.chips_changed:
            what.append(
                f"its {chips_words(pan.before.pan.chips)} became {chips_words(pan.after.pan.chips)}"
            )
        if pan.claimed:
            what.append(f"its card is now {_shade_name(pan.after.shade)}")
        found.append(
            Violation(
                "pressed-pan-changed",
                (pan.slots if pan.chips_changed else ()) + (("shade " + pan.name,) * pan.claimed),
                f"the {pan.label} was full and sound and matched {shade.name}, so it could have "
                f"been pressed, and a pressed pan takes no more chips and keeps its card; but "
                f"{'; '.join(what)}, which no turn allows an unpressed pan either",
            )
        )
    found += _arrivals(pans, target, draft, stories)
    removed = [(p, s) for p, s in zip(pans, stories, strict=True) if s.removed]
    if removed:
        found.append(
            Violation(
                "chips-removed",
                tuple(name for p, _ in removed for name in p.slots),
                "a turn takes one chip out of a pan by sifting, one more per right diagnosis "
                "and yellows by the Kiln, and empties a pan only by a wrong diagnosis, but "
                + "; ".join(
                    f"the {p.label} went from {chips_words(p.before.pan.chips)} to "
                    f"{chips_words(p.after.pan.chips)}"
                    for p, _ in removed
                ),
            )
        )
    found += _unrecorded(pans, stories)
    found += _shade_rules(pans, stories)
    found += _too_many_claims(pans)
    return tuple(found)


def _shade_name(shade: Shade | None) -> str:
    return "no card" if shade is None else shade.name


def _arrivals(
    pans: tuple[PanChange, ...],
    target: int | None,
    draft: Chip | None,
    stories: tuple[PanStory, ...],
) -> list[Violation]:
    """Chips beyond the draft: in a second pan, or of a second colour."""
    if not any(s.added for s in stories):
        return []
    receiving = [p for p, s in zip(pans, stories, strict=True) if s.added or p.index == target]
    gained = "; ".join(f"the {p.label} gained {chips_words(_gained(p))}" for p in receiving)
    found = []
    if len(receiving) > 1:
        found.append(
            Violation(
                "chips-in-two-pans",
                tuple(name for p in receiving for name in p.slots),
                f"a turn's draft goes into one pan, but chips arrived in {len(receiving)} pans: "
                f"{gained}",
            )
        )
    odd = {c for s in stories for c in s.added if c is not draft}
    if odd:
        colours = canonical(odd | ({draft} if draft is not None else set()))
        found.append(
            Violation(
                "two-colours-drafted",
                tuple(name for p in receiving for name in p.slots),
                "a draft takes chips of one colour (Kiln reds and swaps aside), but "
                f"{listed([chip.looks for chip in colours])} chips arrived: {gained}",
            )
        )
    return found


def _gained(pan: PanChange) -> tuple[Chip, ...]:
    return canonical((Counter(pan.after.pan.chips) - Counter(pan.before.pan.chips)).elements())


def _unrecorded(pans: tuple[PanChange, ...], stories: tuple[PanStory, ...]) -> list[Violation]:
    emptied = [p for p, s in zip(pans, stories, strict=True) if s.unrecorded_wrong]
    if not emptied:
        return []
    return [
        Violation(
            "emptied-without-wrong-diagnosis",
            tuple(name for p in emptied for name in p.slots),
            "; ".join(
                f"the {p.label} was full with a structural fault "
                f"({chips_words(p.before.pan.chips)}) and was emptied"
                for p in emptied
            )
            + ", as a wrong diagnosis does, but no wrong diagnosis was entered for this seat: "
            "the score misses its 1-point penalty until it is entered",
        )
    ]


def _shade_rules(pans: tuple[PanChange, ...], stories: tuple[PanStory, ...]) -> list[Violation]:
    found = []
    for rule, text in (
        ("claim-on-started-pan", "a shade is claimed when a pan is started, but "),
        ("shade-replaced", "a claimed shade stays under its pan, but "),
    ):
        hit = [p for p, s in zip(pans, stories, strict=True) if s.shade_rule == rule]
        if hit:
            found.append(
                Violation(
                    rule,
                    tuple(f"shade {p.name}" for p in hit),
                    text
                    + "; ".join(
                        f"the {p.label} held {chips_words(p.before.pan.chips)} "
                        + (
                            f"when {_shade_name(p.after.shade)} was claimed"
                            if rule == "claim-on-started-pan"
                            else f"while {_shade_name(p.before.shade)} became "
                            f"{_shade_name(p.after.shade)}"
                        )
                        for p in hit
                    ),
                )
            )
    return found


def _too_many_claims(pans: tuple[PanChange, ...]) -> list[Violation]:
    if not any(p.claimed for p in pans):
        return []
    # A pan that would press may have been pressed: its card is kept, no longer held.
    held = [
        p for p in pans if p.after.shade is not None and p.verdict(p.after) is not Verdict.PRESSED
    ]
    if len(held) <= MAX_HELD:
        return []
    return [
        Violation(
            "too-many-claims",
            tuple(f"shade {p.name}" for p in held),
            f"a player holds at most {MAX_HELD} claimed shades on unpressed pans, but "
            f"{len(held)} are held: "
            + ", ".join(f"{_shade_name(p.after.shade)} under the {p.label}" for p in held),
        )
    ]
