"""Pigment Lab results in words, for people (``--explain`` and the ``pigments`` commands)."""

from __future__ import annotations

from companion.games.pigments.checker import Mix, PanCheck
from companion.games.pigments.scoring import PaletteScore, TallyScore, spill_chip_cost
from companion.words import plural


def explain_mix(mix: Mix, reveal: bool = False) -> str:
    """The colour of a mix; ``reveal`` adds the recipe on the back of that colour's card."""
    lines = [mix.arithmetic() + "."]
    lines.append(f"Display colour {mix.display.hex}, lightness {mix.display.lightness} (CIE L*).")
    others = [recipe for recipe in mix.recipes if recipe != mix.pigments]
    if others:
        same = "; ".join(" + ".join(chip.value for chip in recipe) for recipe in others)
        lines.append(f"The same colour also comes from: {same}.")
    if reveal and mix.shade is not None and mix.shade.recipe != mix.pigments:
        recipe = " + ".join(chip.value for chip in mix.shade.recipe)
        lines.append(f"The {mix.shade.name} card's recipe is {recipe}.")
    return "\n".join(lines)


def _pan_heading(check: PanCheck) -> str:
    shade = check.shade.name if check.shade is not None else "no shade"
    chips = ", ".join(chip.value for chip in check.pan.chips) or "empty"
    points = plural(check.points, "point")
    return f"{check.pan.size.capitalize()} pan ({chips}) under {shade}: {points}"


def explain_pan(check: PanCheck) -> str:
    return "\n".join([_pan_heading(check), *(f"  {line}" for line in check.reasons())])


def explain_palette(score: PaletteScore) -> str:
    lines = [f"Palette board: {plural(score.total, 'point')} from the pans that would press"]
    for check in score.pans:
        lines.append(f"  {_pan_heading(check)}")
        lines.extend(f"    {line}" for line in check.reasons())
    return "\n".join(lines)


def explain_tally(score: TallyScore) -> str:
    lines = [f"Pigment Lab final tally: {plural(score.total, 'point')}"]
    pressed = ", ".join(f"{s} {s.points}" for s in score.tally.pressed) or "none"
    lines.append(f"  Pressed pans: {score.pans} ({pressed})")
    lines.append(
        "  Spill Lines, per round: the first chip is free, then -1, -1, -2, -2, -3, -3, "
        "and -3 for each further chip"
    )
    for spill in score.rounds:
        costs = " ".join(f"{spill_chip_cost(k):+d}" for k in range(1, spill.chips + 1))
        lines.append(
            f"    Round {spill.round}: {plural(spill.chips, 'chip')}"
            + (f": {costs} = {spill.points}" if spill.chips else ": 0")
        )
    lines.append(f"  Spill Lines: {score.spill}")
    lines.append(f"  Wrong Fault diagnoses: {score.tally.wrong_diagnoses} ({score.diagnoses})")
    for bonus in score.bonuses:
        lines.append(f"  Palette bonus {bonus.name}: {bonus.points:+d}")
    lines.append(f"  Large pans pressed (the tie-break): {score.large_pans}")
    return "\n".join(lines)
