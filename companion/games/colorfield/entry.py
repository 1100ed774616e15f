"""Color Field as the command line sees it: score a position document, with its explanation."""

from __future__ import annotations

from pathlib import Path

from companion.content.colorfield import content_for
from companion.fields import Field
from companion.games.colorfield.explain import explain_canvas_score
from companion.games.colorfield.position import parse_canvas
from companion.games.colorfield.rules import ColorFieldRules
from companion.games.colorfield.scoring import score_canvas
from companion.games.registry import GameEntry, Report


def evaluate(document: Field, deck: Path | None) -> Report:
    content = content_for(deck)
    score = score_canvas(parse_canvas(document, content))
    return Report(score.to_json(), explain_canvas_score(score))


ENTRY = GameEntry(
    name="colorfield", title="Color Field", evaluate=evaluate, rules=ColorFieldRules()
)
