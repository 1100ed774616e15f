"""The recipe checker: what a mix shows and why, and what pressing a pan would do.

Every answer carries the band arithmetic in words, in the form a player says it at the table:
"Fe2O3 swallows violet, blue, green; FeO(OH) swallows violet, blue; left: yellow, orange, red:
coral".

A shade card shows its colour and name; its recipe is on the back (rule text: "never a recipe",
"Work it out first"). So an answer names the card's recipe, or anything read off it (how many
pigments it has, its TiO2 share), only when it is asked to reveal it. The card's colour, its
surviving bands and whether the pan is lighter or darker than it are on the face: always said.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.games.pigments.colour import SWALLOWS, Colour, colour_of, in_order, recipes_for
from companion.games.pigments.display import Display, display
from companion.games.pigments.faults import Cause, binder_fault, binder_needed
from companion.games.pigments.model import Chip, Pan, Shade, canonical, spell
from companion.games.pigments.shades import ShadeCatalogue
from companion.words import plural


@dataclass(frozen=True)
class Mix:
    """A multiset of pigments, the colour it shows, and the catalogue shade of that colour."""

    pigments: tuple[Chip, ...]
    colour: Colour
    display: Display
    shade: Shade | None
    # Every recipe of 1..3 pigments that shows the same colour, this one included.
    recipes: tuple[tuple[Chip, ...], ...]

    def colour_name(self) -> str:
        return self.shade.name if self.shade is not None else "no catalogue shade"

    def arithmetic(self) -> str:
        """The band arithmetic in words, ending in the colour's name."""
        counts = Counter(self.pigments)
        parts = []
        for chip in canonical(counts):
            who = chip.value if counts[chip] == 1 else f"{chip.value} x{counts[chip]}"
            gone = ", ".join(in_order(SWALLOWS[chip])) or "nothing"
            parts.append(f"{who} swallows {gone}")
        if not parts:
            parts.append("no pigment, so nothing is swallowed")
        left = "nothing" if self.colour.is_black else self.colour.describe()
        return f"{'; '.join(parts)}; left: {left}: {self.colour_name()}"

    def to_json(self, reveal: bool = False) -> dict[str, Any]:
        """``reveal`` adds ``shade_recipe``: the recipe on the back of this colour's card."""
        recipe = {}
        if reveal:
            shown = None if self.shade is None else [c.value for c in self.shade.recipe]
            recipe = {"shade_recipe": shown}
        return {
            "pigments": [chip.value for chip in self.pigments],
            "bands": [band.value for band in self.colour.bands],
            "tio2_share": str(self.colour.tio2),
            "black": self.colour.is_black,
            "srgb": self.display.hex,
            "rgb": list(self.display.rgb),
            "lightness": self.display.lightness,
            "shade": self.shade.name if self.shade is not None else None,
            "same_colour_recipes": [
                [chip.value for chip in recipe]
                for recipe in self.recipes
                if recipe != self.pigments
            ],
            "reason": self.arithmetic(),
            **recipe,
        }


def mix(pigments: Iterable[Chip], catalogue: ShadeCatalogue) -> Mix:
    """The colour model applied to some pigments (binder chips are ignored)."""
    chips = canonical(chip for chip in pigments if chip.is_pigment)
    colour = colour_of(chips)
    return Mix(
        pigments=chips,
        colour=colour,
        display=display(colour),
        shade=catalogue.named(colour),
        recipes=recipes_for(colour),
    )


class Verdict(StrEnum):
    PRESSED = "pressed"
    NOTHING_HAPPENS = "nothing-happens"
    STRUCTURAL_FAULT = "structural-fault"
    NOT_FULL = "not-full"
    NO_SHADE = "no-shade"


@dataclass(frozen=True)
class PanCheck:
    """What pressing one pan against its shade card would do, and why; ``reveal`` says whether
    the answer may name the card's recipe (the back of the card)."""

    pan: Pan
    shade: Shade | None
    mix: Mix
    fault: Cause | None
    verdict: Verdict
    reveal: bool = False

    @property
    def full(self) -> bool:
        return self.pan.full

    @property
    def sound(self) -> bool:
        return self.pan.full and self.fault is None

    @property
    def pressed(self) -> bool:
        return self.verdict is Verdict.PRESSED

    @property
    def points(self) -> int:
        return self.pan.size.points if self.pressed else 0

    @property
    def same_colour(self) -> bool:
        """The pan shows the shade's colour, whether or not its recipe is the shade's."""
        return self.shade is not None and colour_of(self.shade.recipe) == self.mix.colour

    def reasons(self) -> tuple[str, ...]:
        pan, size = self.pan, self.pan.size
        lines = []
        if not pan.full:
            lines.append(
                f"Not full: {len(pan.chips)} of the {size} pan's {size.slots} slots "
                f"{'holds' if len(pan.chips) == 1 else 'hold'} a chip, so it cannot be pressed yet."
            )
        else:
            pigments, needed = len(pan.pigments), binder_needed(len(pan.pigments))
            rule = (
                f"Binder rule: {plural(pigments, 'pigment')} "
                f"{'needs' if pigments == 1 else 'need'} {plural(needed, 'binder')} "
                f"(one for every two, rounded up); the pan holds {pan.binders}"
            )
            if self.fault is None:
                lines.append(f"{rule}: sound.")
            else:
                lines.append(f"{rule}: {self.fault.words}, a structural fault. Draw a Fault card.")
        lines.append(self.mix.arithmetic() + ".")
        lines.extend(self._verdict_lines())
        return tuple(lines)

    def _verdict_lines(self) -> list[str]:
        shade, mine = self.shade, self.mix.pigments
        if shade is None:
            return ["No shade card is claimed for this pan, so there is nothing to press."]
        if self.verdict is Verdict.STRUCTURAL_FAULT:
            return [f"The recipe against {shade.name} is checked only once the pan is sound."]
        theirs = f"{shade.name} is {spell(shade.recipe)}"
        if self.verdict is Verdict.PRESSED:
            others = [r for r in self.mix.recipes if len(r) == len(mine) and r != mine]
            recipe = f", {spell(shade.recipe)}" if self.reveal else ""
            lines = [
                f"Pressed: the pan holds {shade.name}'s recipe{recipe}. Worth {self.points} points."
            ]
            if others:
                alternatives = "; ".join(spell(r) for r in others)
                lines.append(
                    f"The same colour also comes from {alternatives}, "
                    f"but only {shade.name}'s own recipe presses."
                )
            return lines
        if not self.reveal:
            match = self._match_unrevealed(shade)
        elif self.same_colour and mine != shade.recipe:
            match = (
                f"The pan holds {spell(mine)}: a different recipe that gives the same colour "
                f"as {shade.name} ({theirs})."
            )
        else:
            match = f"The pan holds {spell(mine)}, which makes {self.mix.colour_name()}; {theirs}."
        if self.verdict is not Verdict.NOTHING_HAPPENS:
            return [match]
        if self.reveal and len(shade.recipe) != self.pan.size.windows:
            match += (
                f" Its recipe has {plural(len(shade.recipe), 'pigment')}; a sound "
                f"{self.pan.size} pan holds {self.pan.size.windows}."
            )
        return [f"Nothing happens (a wrong guess is free). {match}"]

    def _match_unrevealed(self, shade: Shade) -> str:
        """The pan against the face of the card: its colour and bands, never its recipe."""
        mine, card = self.mix.colour, colour_of(shade.recipe)
        holds = f"The pan holds {spell(self.mix.pigments)}"
        if self.same_colour:
            if self.verdict is Verdict.NOT_FULL:
                return f"{holds}, which makes {shade.name}, the colour of the card."
            return f"{holds}: a different recipe that gives the same colour as {shade.name}."
        makes = f"{holds}, which makes {self.mix.colour_name()}"
        if mine.bands != card.bands:
            left = "no band (black)" if card.is_black else ", ".join(card.bands)
            return f"{makes}; the bands press a different shade: {shade.name} leaves {left}."
        paler = "lighter" if mine.tio2 > card.tio2 else "darker"
        return f"{makes}: the same bands as {shade.name}, but {paler} than the card."

    def _shade_json(self) -> dict[str, Any] | None:
        if self.shade is None:
            return None
        if not self.reveal:
            return {"name": self.shade.name}
        return {"name": self.shade.name, "recipe": [c.value for c in self.shade.recipe]}

    def to_json(self) -> dict[str, Any]:
        return {
            "pan": self.pan.size.value,
            "chips": [chip.value for chip in self.pan.chips],
            "shade": self._shade_json(),
            "full": self.full,
            "sound": self.sound,
            "fault": self.fault.value if self.fault is not None else None,
            "bands": [band.value for band in self.mix.colour.bands],
            "pressed": self.pressed,
            "points": self.points,
            "verdict": self.verdict.value,
            "same_colour": self.same_colour,
            "colour": self.mix.to_json(),
            "reason": " ".join(self.reasons()),
        }


def check_pan(
    pan: Pan, shade: Shade | None, catalogue: ShadeCatalogue, *, reveal: bool = False
) -> PanCheck:
    """Structural check first (binder rule), then the recipe against the shade card; the answer
    names the card's recipe only with ``reveal``."""
    fault = binder_fault(pan)
    if not pan.full:
        verdict = Verdict.NOT_FULL
    elif fault is not None:
        verdict = Verdict.STRUCTURAL_FAULT
    elif shade is None:
        verdict = Verdict.NO_SHADE
    elif pan.pigments == shade.recipe:
        verdict = Verdict.PRESSED
    else:
        verdict = Verdict.NOTHING_HAPPENS
    return PanCheck(pan, shade, mix(pan.pigments, catalogue), fault, verdict, reveal)
