"""Isle of Colors as the command line sees it: score an island sheet, with its explanation."""

from __future__ import annotations

from pathlib import Path

from companion.content.isle import content_for
from companion.fields import Field
from companion.games.isle.explain import explain_sheet_score
from companion.games.isle.position import parse_position
from companion.games.isle.rules import IsleRules
from companion.games.isle.scoring import score_sheet
from companion.games.registry import GameEntry, Report


def evaluate(document: Field, deck: Path | None) -> Report:
    content = content_for(deck)
    position = parse_position(document, content)
    score = score_sheet(position.sheet, position.conditions)
    return Report(score.to_json(), explain_sheet_score(score))


ENTRY = GameEntry(name="isle", title="Isle of Colors", evaluate=evaluate, rules=IsleRules())
