"""Every game's warnings read as words for people: over many generated changes between two
boards, judged as the table judges a scan, no message names a catalogue id, a scanner's name for
a pan, a chip by its formula, a cell as a tuple, or a shade card's recipe.

Each change is a random board and the same board with parts of another random board put in, so
most rules are broken somewhere; the rules seen are checked too, so the test never passes on
messages it did not read.
"""

from __future__ import annotations

import random
import re
from typing import Any

from companion.content import pigments
from companion.content.colorfield import default_content as colorfield_content
from companion.fields import Field
from companion.games.colorfield import legality as colorfield_legality
from companion.games.colorfield.position import parse_canvas
from companion.games.pigments.model import BOARD
from companion.samples import random_position
from companion.table.colorfield_rules import empty_canvas
from companion.table.legality import TurnContext, judge

RAW = re.compile(
    r"\b[A-Z]\d?-\d\d\b"  # catalogue ids: F-03, R3-15, A-17
    r"|\b(?:small|medium-\d|large) (?:window|binder)\b|\bmedium-\d\b"  # the scanner's pan names
    r"|Fe2O3|FeO\(OH\)|TiO2|ultramarine"  # chips by their formulas
    r"|\(\d+, \d+\)"  # a cell as a tuple
    r"|\bround\d\b|\brotation\b|\binline\b|\bNone\b|->|\brecipe\b"
)
COLOURS = (None, "green", "blue", "brown", "red")
SAMPLES = {"colorfield": 40, "paintings": 20, "isle": 20, "pigments": 16}
# What the samples break, seed fixed: a rule that stops showing up is a message no longer read.
RULES = {
    "colorfield": {
        "keep-allowance", "tile-removed", "round-deck", "one-tile-per-turn", "turn-count",
        "kept-tile-changed", "unpaid-swap", "unpaid-rotation", "unpaid-inspiration",
        "priming-foundation", "priming-order", "up-mark", "priming-change",
        "placement-outside-turn",
    },
    "paintings": {"painting-changed", "card-twice", "painting-removed", "one-painting-per-turn"},
    "isle": {
        "one-colour", "one-group", "cell-recoloured", "room-left", "cell-erased", "roll-size",
        "colour-given-away",
    },
    "pigments": {
        "chips-in-two-pans", "two-colours-drafted", "chips-removed", "too-many-claims",
        "pressed-pan-changed", "shade-replaced", "claim-on-started-pan",
        "emptied-without-wrong-diagnosis",
    },
}  # fmt: skip


def full(rng: random.Random, board: dict[str, Any]) -> dict[str, Any]:
    """``board`` with one pan full under a shade's card: of its recipe and binder (it would
    press), or of pigments alone (a structural fault)."""
    index = rng.randrange(len(BOARD))
    size = BOARD[index]
    fits = [s for s in pigments.default_content().shades.values() if len(s.recipe) == size.windows]
    shade = rng.choice(fits)
    chips = [chip.value for chip in shade.recipe]
    chips += ["binder" if rng.random() < 0.5 else chips[0]] * size.binder_slots
    pans = list(board["pans"])
    pans[index] = {"pan": size.value, "chips": chips, "shade": shade.name}
    return {**board, "pans": pans}


def blend(rng: random.Random, game: str, board: dict[str, Any], other: dict[str, Any]) -> Any:
    """``board`` with some of ``other``'s parts in place of its own, and a few taken away."""
    if game == "colorfield":
        # A tile put in at any turn: a Foundation tile turned breaks the up-mark when primed.
        spaces: list[dict[str, Any] | None] = [
            {**o, "rotation": rng.randrange(4)}
            if rng.random() < 0.3
            else None
            if rng.random() < 0.1
            else b
            for b, o in zip(board["spaces"], other["spaces"], strict=True)
        ]
        i, j = rng.sample(range(len(spaces)), 2)
        if rng.random() < 0.3:
            spaces[i], spaces[j] = spaces[j], spaces[i]
        if rng.random() < 0.5 and (turned := spaces[i]) is not None:
            spaces[i] = {**turned, "rotation": (turned["rotation"] + 1) % 4}
        return {**board, "spaces": spaces}
    if game == "paintings":
        made = [list(p) for p in board["paintings"]]
        kind = rng.random()
        if kind < 0.3:
            made.pop()
        elif kind < 0.6:
            made += other["paintings"]
        else:
            made[0][rng.randrange(3)] = other["paintings"][0][rng.randrange(3)]
        return {**board, "paintings": made[:3]}
    if game == "isle":
        cells = {(r, c): colour for r, c, colour in board["cells"]}
        cells.update({(r, c): colour for r, c, colour in other["cells"] if rng.random() < 0.05})
        kept = {cell: colour for cell, colour in cells.items() if rng.random() > 0.02}
        return {**board, "cells": [[r, c, colour] for (r, c), colour in sorted(kept.items())]}
    pans = []
    for mine, theirs in zip(board["pans"], other["pans"], strict=True):
        kind = rng.random()
        if kind < 0.3:
            pans.append(theirs)
        elif kind < 0.45:
            pans.append({**mine, "chips": []})
        elif kind < 0.6:
            pans.append({**mine, "shade": theirs["shade"]})
        else:
            pans.append(mine)
    return {**board, "pans": pans}


def warnings_of(game: str, rng: random.Random) -> list[dict[str, Any]]:
    before, other = random_position(game, rng), random_position(game, rng)
    if game == "colorfield":
        other["canvas"] = before["canvas"]
    if game == "pigments" and rng.random() < 0.5:
        before = full(rng, before)
    after = blend(rng, game, before, other)
    context = TurnContext(
        None if rng.random() < 0.15 else before,
        tokens_left=rng.randint(0, 2),
        round_number=rng.randint(1, 3),
        turn_number=rng.randint(1, 6),
        roll=rng.choice((None, 1, 2, 3, 4, 5, 6)),
        previous_colour=rng.choice(COLOURS),
        players=rng.choice((1, 2)),
        others=(other,),
        diagnoses=tuple(rng.random() < 0.5 for _ in range(rng.randint(0, 1))),
        round_start=rng.random() < 0.3,
        keep_allowance=rng.randint(0, 2),
    )
    found = list(judge(game, context, after).warnings)
    if game == "colorfield":
        # The engine's other phases, which a table's turns never ask for.
        content = colorfield_content()
        now = parse_canvas(Field(after), content)
        was = empty_canvas(now) if context.before is None else parse_canvas(Field(before), content)
        for transition in (
            colorfield_legality.Transition.priming(),
            colorfield_legality.Transition.inspiration(rng.randint(0, 2)),
            colorfield_legality.Transition.reset(rng.randint(0, 2)),
        ):
            found += [v.to_json() for v in colorfield_legality.check(was, now, transition)]
    return found


def test_no_warning_of_any_game_names_an_id_or_a_recipe() -> None:
    for game, samples in SAMPLES.items():
        rng, seen = random.Random(game), set()
        for _ in range(samples):
            for warning in warnings_of(game, rng):
                seen.add(warning["rule"])
                assert not RAW.search(warning["message"]), (game, warning)
        assert seen == RULES[game], (game, seen ^ RULES[game])
