"""Color Field as the command line sees it: score a position document, or advise where to place
a tile, with the explanation in words."""

from __future__ import annotations

from pathlib import Path

from companion.content.colorfield import content_for
from companion.errors import FieldError
from companion.fields import Field
from companion.games.colorfield.advisor import advise
from companion.games.colorfield.explain import explain_canvas_score
from companion.games.colorfield.position import parse_canvas, parse_position
from companion.games.colorfield.rules import ColorFieldRules
from companion.games.colorfield.scoring import score_canvas
from companion.games.registry import GameEntry, Report


def evaluate(document: Field, deck: Path | None) -> Report:
    content = content_for(deck)
    score = score_canvas(parse_canvas(document, content))
    return Report(score.to_json(), explain_canvas_score(score))


def advise_position(document: Field, deck: Path | None) -> Report:
    """Where and how to lay the position's ``tile`` on the canvas's empty spaces."""
    canvas, tile = parse_position(document, content_for(deck))
    if tile is None:
        raise FieldError("tile", "missing (the advice is where to place a tile you hold)")
    advice = advise(canvas, tile)
    return Report({"game": "colorfield", **advice.to_json()}, "\n".join(advice.reasons))


ENTRY = GameEntry(
    name="colorfield",
    title="Color Field",
    evaluate=evaluate,
    rules=ColorFieldRules(),
    advise=advise_position,
)
