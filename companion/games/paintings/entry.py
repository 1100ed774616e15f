"""Paintings as the command line sees it: score a position document, with its explanation."""

from __future__ import annotations

from pathlib import Path

from companion.content.paintings import content_for
from companion.fields import Field
from companion.games.paintings.explain import explain_player_score
from companion.games.paintings.position import parse_position
from companion.games.paintings.rules import PaintingsRules
from companion.games.paintings.scoring import score_player
from companion.games.registry import GameEntry, Report


def evaluate(document: Field, deck: Path | None) -> Report:
    content = content_for(deck)
    position = parse_position(document, content)
    score = score_player(position.paintings, position.scoring_cards)
    return Report(score.to_json(), explain_player_score(score))


ENTRY = GameEntry(name="paintings", title="Paintings", evaluate=evaluate, rules=PaintingsRules())
