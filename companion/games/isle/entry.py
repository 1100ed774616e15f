"""Isle of Colors as the command line sees it: score an island sheet, or advise its fill for a
roll, with the explanation in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.content.isle import content_for
from companion.errors import FieldError
from companion.fields import Field
from companion.games.isle.advisor import advise
from companion.games.isle.explain import advice_reasons, explain_sheet_score
from companion.games.isle.position import parse_position
from companion.games.isle.rules import IsleRules
from companion.games.isle.scoring import score_sheet
from companion.games.registry import GameEntry, Report


def evaluate(document: Field, deck: Path | None) -> Report:
    content = content_for(deck)
    position = parse_position(document, content)
    score = score_sheet(position.sheet, position.conditions)
    return Report(score.to_json(), explain_sheet_score(score))


def advise_position(document: Field, deck: Path | None) -> Report:
    """The colour and cells to fill for the position's ``roll``, from the colours in ``hand``."""
    position = parse_position(document, content_for(deck))
    turn = position.turn
    if turn is None:
        raise FieldError("roll", "missing (the advice is what to fill for a roll of the die)")
    sheet, conditions = position.sheet, position.conditions
    advice = advise(sheet, conditions, turn.hand, turn.roll, turn.next_colours())
    before = score_sheet(sheet, conditions)
    after = before
    if advice is not None:
        after = score_sheet(
            sheet.with_fill(sheet.island.mask_of(advice.cells), advice.colour), conditions
        )
    reasons = advice_reasons(advice, turn, before, after)
    nothing: dict[str, Any] = {
        "color": None,
        "cells": [],
        "gain": 0,
        "outlook": 0,
        "fills_tried": 0,
        "looked_ahead": 0,
    }
    fill = advice.to_json() if advice is not None else nothing
    data = {
        "game": "isle",
        "roll": turn.roll,
        **fill,
        "total": after.total,
        "reasons": list(reasons),
    }
    return Report(data, "\n".join(reasons))


ENTRY = GameEntry(
    name="isle",
    title="Isle of Colors",
    evaluate=evaluate,
    rules=IsleRules(),
    advise=advise_position,
)
