"""The draft advisor: which chips to take at the Market, and into which pan.

**Options.** Every legal draft of the turn: each crate (in order) and then the Spill Tray, each
chip colour it holds (all chips of that colour are taken), into each pan that is not pressed (in
board order). A pan counts as pressed when it is marked so or when it is full and would press now
(pressing is a free action and a pressed pan takes no more chips). Only when every pan is pressed
does a draft go to no pan, all onto the Spill Line. When the Shade Row is given, a pan that is
empty and has no card, while the player holds fewer than 2 claimed shades, is also offered with
each card of the row claimed for it first (a claim is made when a pan is started).

**Objective.** The value of the board after the draft, an exact fraction:

    V = sum over the four pans of v(pan) + spill

- ``spill``: what this draft adds to the player's Spill Line this round,
  ``spill_penalty(line + overflow) - spill_penalty(line)`` (``scoring.spill_penalty``), where
  ``line`` is the chips already on the line and ``overflow`` what does not fit the pan.
- ``v(pan)`` for a pan of ``points`` points and ``slots`` slots holding chips C:

  - pressed, or pressing now (sound by the binder rule, ``faults.is_sound``, and holding its
    card's recipe): ``points``;
  - a claimed card whose target fills the pan, the target being the card's recipe plus the
    binders the binder rule asks for (``faults.binder_needed``):
    ``points * (right - wrong) / slots``, where ``right`` is the size of the multiset
    intersection of C and the target and ``wrong = |C| - right`` (the chips to sift out before
    it can press, one sift per turn). Still missing: ``slots - right``. A pan holding exactly
    its target has right = slots and wrong = 0: v = points, the same as pressed;
  - no card: ``-points * |C| / slots`` (every chip is wrong: a card is claimed only for an empty
    pan, so each must be sifted out first); an empty pan without a card is worth 0;
  - a card whose target does not fill the pan (its recipe can never press in a pan of this
    size): 0, whatever the pan holds.

Each right chip is worth a ``slots``-th of the pan's points, each wrong chip costs as much, and a
pan that presses is worth its points. The best option has the greatest V; options are ranked by
V, equal values in the order the options are listed above (crate order then the Spill Tray; chip
colours in Atom Key order; pans in board order; no claim, then the row's order), and reported as
ties. V less the board's value before the draft (no spill) is the option's gain.

**Risks**, said for the pan drafted into: the chips that overflow onto the Spill Line and their
cost; a binder fault (``faults.binder_fault``) when every way of filling the pan breaks the binder
rule; the wrong chips that must be sifted before the card's recipe can be reached; a card that can
never press in that pan.

A shade card's recipe is on its back. The advice uses it (the player asked), but the JSON never
lists it: it gives counts (right, wrong, missing chips) and the reasons say what a chip does to
the card's colour with the band arithmetic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.games.pigments.colour import SWALLOWS, colour_of, in_order
from companion.games.pigments.faults import Cause, binder_fault, binder_needed, is_sound
from companion.games.pigments.model import BOARD, Chip, Pan, PanSize, Shade, canonical
from companion.games.pigments.position import Drafts
from companion.games.pigments.scoring import spill_penalty
from companion.games.pigments.state import MAX_HELD_SHADES, BoardPan
from companion.words import plural


def target(size: PanSize, shade: Shade) -> tuple[Chip, ...] | None:
    """The chips with which a pan of ``size`` presses under ``shade``: the recipe and the binders
    the binder rule asks for; None when they do not fill the pan (it can never press there)."""
    chips = canonical((*shade.recipe, *[Chip.BINDER] * binder_needed(len(shade.recipe))))
    return chips if len(chips) == size.slots else None


def fault_when_full(pan: Pan) -> Cause | None:
    """The binder fault of the pan once full, when every way of filling its free slots (with any
    pigments and binders) breaks the binder rule; None while a sound filling remains."""
    faults = []
    for pigments in range(pan.room + 1):
        fill = [Chip.TIO2] * pigments + [Chip.BINDER] * (pan.room - pigments)
        fault = binder_fault(Pan(pan.size, (*pan.chips, *fill)))
        if fault is None:
            return None
        faults.append(fault)
    # Every filling gives the same cause: too many pigments already, or too many binders.
    return faults[0]


@dataclass(frozen=True)
class PanOutlook:
    """One pan as the objective sees it: how many of its chips are right for its card's target,
    how many wrong, and what it is worth."""

    index: int  # board order, from 0
    pan: Pan
    shade: Shade | None
    pressed: bool  # takes no more chips: pressed, or full with its card's recipe
    reachable: bool  # a card is claimed whose target fills the pan
    right: int
    wrong: int
    fault: Cause | None  # every way of filling the pan breaks the binder rule
    value: Fraction  # v(pan) of the module docstring

    @property
    def missing(self) -> int:
        """Chips still to come before the pan can press (all of them without a usable card)."""
        return self.pan.size.slots - self.right

    @property
    def dead(self) -> bool:
        """Its card can never press in this pan, whatever the pan holds."""
        return self.shade is not None and not self.reachable


def presses(board_pan: BoardPan) -> bool:
    """The press rule: full and sound by the binder rule, with the card's recipe."""
    pan, shade = board_pan.pan, board_pan.shade
    return shade is not None and is_sound(pan) and pan.pigments == shade.recipe


def outlook(index: int, board_pan: BoardPan) -> PanOutlook:
    """A pan as the objective sees it."""
    pan, shade = board_pan.pan, board_pan.shade
    pressed = board_pan.pressed or presses(board_pan)
    goal = target(pan.size, shade) if shade is not None else None
    if goal is None:
        # Without a usable card nothing in the pan is right.
        right, wrong = 0, len(pan.chips)
    else:
        right = sum((Counter(pan.chips) & Counter(goal)).values())
        wrong = len(pan.chips) - right
    size = pan.size
    if pressed:
        value = Fraction(size.points)
    elif shade is not None and goal is None:
        value = Fraction(0)  # the card can never press here
    else:
        value = Fraction(size.points * (right - wrong), size.slots)
    return PanOutlook(
        index, pan, shade, pressed, goal is not None, right, wrong, fault_when_full(pan), value
    )


def board_value(pans: Sequence[PanOutlook]) -> Fraction:
    return sum((p.value for p in pans), Fraction(0))


@dataclass(frozen=True)
class Option:
    """One draft: every ``colour`` chip of crate ``crate`` (None: the Spill Tray) into pan
    ``pan`` (None: every pan is pressed), after claiming ``claim`` for it when given."""

    crate: int | None
    colour: Chip
    taken: int
    pan: int | None
    claim: Shade | None
    placed: int
    line: int  # chips on the Spill Line before the draft
    pans: tuple[PanOutlook, ...]  # the board after the draft
    spill_cost: int  # what the overflow adds to the Spill Line's cost this round
    value: Fraction  # V of the module docstring

    @property
    def spilled(self) -> int:
        return self.taken - self.placed

    @property
    def target(self) -> PanOutlook | None:
        return None if self.pan is None else self.pans[self.pan]


def options(board: Sequence[BoardPan], drafts: Drafts) -> Iterator[Option]:
    """Every legal draft, in the tie-break order of the module docstring."""
    before = tuple(outlook(i, p) for i, p in enumerate(board))
    held = sum(1 for p in before if p.shade is not None and not p.pressed)
    open_pans: list[int | None] = [p.index for p in before if not p.pressed]
    sources: list[tuple[int | None, tuple[Chip, ...]]] = [*enumerate(drafts.crates)]
    sources.append((None, drafts.tray))
    for crate, chips in sources:
        for colour in canonical(set(chips)):
            taken = chips.count(colour)
            for index in open_pans or [None]:
                claims: list[Shade | None] = [None]
                if index is not None and _claimable(board[index], held, drafts):
                    claims.extend(drafts.shade_row or ())
                for claim in claims:
                    yield _option(board, before, drafts, crate, colour, taken, index, claim)


def _claimable(board_pan: BoardPan, held: int, drafts: Drafts) -> bool:
    return (
        drafts.shade_row is not None
        and board_pan.shade is None
        and not board_pan.pan.chips
        and held < MAX_HELD_SHADES
    )


def _option(
    board: Sequence[BoardPan],
    before: tuple[PanOutlook, ...],
    drafts: Drafts,
    crate: int | None,
    colour: Chip,
    taken: int,
    index: int | None,
    claim: Shade | None,
) -> Option:
    pans = list(before)
    placed = 0
    if index is not None:
        board_pan = board[index]
        placed = min(taken, board_pan.pan.room)
        chips = (*board_pan.pan.chips, *[colour] * placed)
        shade = claim if claim is not None else board_pan.shade
        pans[index] = outlook(index, BoardPan(board_pan.pan.with_chips(chips), shade))
    line = drafts.spill_line
    cost = spill_penalty(line + taken - placed) - spill_penalty(line)
    after = tuple(pans)
    return Option(
        crate, colour, taken, index, claim, placed, line, after, cost, board_value(after) + cost
    )


@dataclass(frozen=True)
class Advice:
    """Every option best first, the board before the draft, and the reasons in words."""

    before: tuple[PanOutlook, ...]
    options: tuple[Option, ...]
    reasons: tuple[str, ...]

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def value_before(self) -> Fraction:
        return board_value(self.before)

    def ranks(self) -> list[int]:
        """Each option's rank from 1; equal values share a rank (1, 1, 3, ...)."""
        ranks: list[int] = []
        for i, option in enumerate(self.options):
            same = i > 0 and option.value == self.options[i - 1].value
            ranks.append(ranks[-1] if same else i + 1)
        return ranks

    @property
    def tied(self) -> int:
        """Other options worth as much as the best."""
        return sum(1 for o in self.options[1:] if o.value == self.best.value)

    def to_json(self) -> dict[str, Any]:
        ranks = self.ranks()
        counts = Counter(ranks)
        listed = [
            _option_json(o, self.value_before, rank, counts[rank] > 1)
            for o, rank in zip(self.options, ranks, strict=True)
        ]
        return {
            "spill_line": self.best.line,
            "value_before": _number(self.value_before),
            "best": listed[0],
            "tied": self.tied,
            "options": listed,
            "reasons": list(self.reasons),
        }


def advise(board: Sequence[BoardPan], drafts: Drafts) -> Advice:
    """Every legal draft for the palette ``board`` ranked by the board's value after it."""
    if tuple(p.pan.size for p in board) != BOARD:
        raise ValueError("a palette board holds a small, two medium and a large pan, in order")
    if not drafts.on_offer:
        raise ValueError("no draft is on offer: every crate and the Spill Tray are empty")
    before = tuple(outlook(i, p) for i, p in enumerate(board))
    # sorted() is stable: equal values keep the listing order of ``options``.
    ranked = tuple(sorted(options(board, drafts), key=lambda o: -o.value))
    return Advice(before, ranked, _reasons(before, ranked))


# Words and JSON.


def _sentence(text: str) -> str:
    """The text with its first letter raised (``str.capitalize`` would lower chip names)."""
    return text[:1].upper() + text[1:]


def _number(value: Fraction) -> float:
    return round(float(value), 2)


def _source(crate: int | None) -> str:
    return "the Spill Tray" if crate is None else f"crate {crate + 1}"


def _pan_name(pan: PanOutlook) -> str:
    card = f", {pan.shade.name}" if pan.shade is not None else ", no card"
    return f"pan {pan.index + 1} ({pan.pan.size}{card})"


def describe(option: Option) -> str:
    """``take the 2 Fe2O3 from crate 1 into pan 2 (medium, coral)``."""
    chips = f"{option.taken} {option.colour.value}" if option.taken > 1 else option.colour.value
    take = f"take {'the ' if option.taken > 1 else ''}{chips} from {_source(option.crate)}"
    if option.target is None:
        return f"{take} onto the Spill Line (every pan is pressed)"
    into = f"{take} into {_pan_name(option.target)}"
    if option.claim is None:
        return into
    claim = (
        f"claim {option.claim.name} from the Shade Row for the empty pan {option.target.index + 1}"
    )
    return f"{claim}, {into}"


def _risks(option: Option) -> list[str]:
    """The risks of the draft, in words."""
    lines = []
    if option.spilled:
        line = option.line + option.spilled
        lines.append(
            f"{plural(option.spilled, 'chip')} {'does' if option.spilled == 1 else 'do'} not fit "
            f"and {'goes' if option.spilled == 1 else 'go'} on the Spill Line "
            f"({plural(line, 'chip')} there this round): "
            f"{plural(option.spill_cost, 'point', signed=True)}."
        )
    pan = option.target
    if pan is None or pan.pressed:
        return lines
    if pan.fault is not None:
        lines.append(
            f"Binder rule: whatever fills pan {pan.index + 1} now, it would hold "
            f"{pan.fault.words} when full, a structural fault if pressed; sift first."
        )
    if pan.dead:
        assert pan.shade is not None
        lines.append(
            f"{pan.shade.name} can never press in a {pan.pan.size} pan, whatever goes in it."
        )
    elif pan.shade is None and pan.pan.chips:
        lines.append(
            f"Pan {pan.index + 1} has no shade card: a card is claimed for an empty pan only, so "
            f"its {plural(len(pan.pan.chips), 'chip')} must be sifted out before it can press."
        )
    elif pan.wrong:
        assert pan.shade is not None
        lines.append(
            f"{plural(pan.wrong, 'chip')} in pan {pan.index + 1} "
            f"{'is' if pan.wrong == 1 else 'are'} not part of {pan.shade.name} and "
            "its binders: it cannot press without sifting them out, one sift per turn."
        )
    return lines


def _chip_words(option: Option) -> str | None:
    """What the drafted chip does for the colour of the card under its pan: band arithmetic only,
    which any player can do with the absorption chart and the face of the card."""
    pan, chip = option.target, option.colour
    if pan is None or pan.shade is None or not option.placed:
        return None
    if not chip.is_pigment:
        needed = binder_needed(pan.pan.size.windows)
        return (
            f"Binder holds the pigments together: a sound {pan.pan.size} pan has "
            f"{plural(pan.pan.size.windows, 'pigment')} and {plural(needed, 'binder')}."
        )
    card = colour_of(pan.shade.recipe)
    gone = in_order(SWALLOWS[chip])
    clash = [band for band in gone if band in card.bands]
    swallows = ", ".join(gone) or "nothing, and lightens"
    if clash:
        return (
            f"{chip.value} swallows {swallows}, but {pan.shade.name} keeps "
            f"{', '.join(clash)}: it works against the card's colour."
        )
    kept = ", ".join(card.bands) if card.bands else "no band (black)"
    return f"{chip.value} swallows {swallows}; {pan.shade.name} keeps {kept}."


def _progress_words(pan: PanOutlook) -> str:
    if pan.pressed:
        return f"pan {pan.index + 1} presses: +{pan.pan.size.points} points"
    if pan.dead:
        return f"pan {pan.index + 1}: no progress is possible under its card"
    return (
        f"pan {pan.index + 1}: {pan.right} of {pan.pan.size.slots} chips right, "
        f"{pan.missing} missing, {pan.wrong} to sift"
    )


def option_reason(option: Option, value_before: Fraction) -> str:
    """One line: the draft, its value and gain, the pan's progress and the risks."""
    gain = option.value - value_before
    words = [
        f"{_sentence(describe(option))}: value {_number(option.value):.2f} ({_number(gain):+.2f})."
    ]
    if option.target is not None:
        words.append(_sentence(_progress_words(option.target)) + ".")
    words.extend(_risks(option))
    return " ".join(words)


def _option_json(option: Option, value_before: Fraction, rank: int, tied: bool) -> dict[str, Any]:
    pan = option.target
    after: dict[str, Any] | None = None
    if pan is not None:
        after = {
            "chips": [chip.value for chip in pan.pan.chips],
            "shade": pan.shade.name if pan.shade is not None else None,
            "presses": pan.pressed,
            "card_fits": pan.reachable,
            "right": pan.right,
            "missing": pan.missing,
            "wrong": pan.wrong,
            "fault": pan.fault.value if pan.fault is not None else None,
        }
    gain = option.value - value_before
    return {
        "rank": rank,
        "tied": tied,
        "take": {
            "from": "spill_tray" if option.crate is None else "crate",
            "crate": None if option.crate is None else option.crate + 1,
            "chip": option.colour.value,
            "count": option.taken,
        },
        "pan": None if option.pan is None else option.pan + 1,
        "size": None if pan is None else pan.pan.size.value,
        "claim": None if option.claim is None else option.claim.name,
        "placed": option.placed,
        "spill": {
            "chips": option.spilled,
            "line": option.line + option.spilled,
            "cost": option.spill_cost,
        },
        "value": _number(option.value),
        "gain": _number(gain),
        "exact": {"value": str(option.value), "gain": str(gain)},
        "pan_after": after,
        "reason": option_reason(option, value_before),
    }


def _reasons(before: tuple[PanOutlook, ...], ranked: tuple[Option, ...]) -> tuple[str, ...]:
    best, value_before = ranked[0], board_value(before)
    gain = best.value - value_before
    lines = [
        f"{_sentence(describe(best))}: {_number(gain):+.2f} "
        f"(board value {_number(value_before):.2f} -> {_number(best.value):.2f})."
    ]
    if best.target is not None:
        lines.append(_sentence(_progress_words(best.target)) + ".")
    chip = _chip_words(best)
    if chip is not None:
        lines.append(chip)
    risks = _risks(best)
    lines.extend(risks or ["No risk: nothing spills, no binder fault, nothing to sift."])
    tied = [o for o in ranked[1:] if o.value == best.value]
    if tied:
        lines.append(
            f"{plural(len(tied), 'other option')} {'is' if len(tied) == 1 else 'are'} "
            f"worth the same (such as: {describe(tied[0])}); "
            "this one comes first (crates in order, then the Spill Tray; chips in Atom Key "
            "order; pans in board order; no claim, then the Shade Row in order)."
        )
    worse = [o for o in ranked if o.value < best.value]
    if worse:
        runner = worse[0]
        lines.append(
            f"Next best: {describe(runner)}: {_number(runner.value - value_before):+.2f} "
            f"({_number(best.value - runner.value):.2f} less)."
        )
    return tuple(lines)
