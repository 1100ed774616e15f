"""Pigment Lab as the command line sees it: score a position document, with its explanation."""

from __future__ import annotations

from pathlib import Path

from companion.content.pigments import content_for
from companion.fields import Field
from companion.games.pigments.checker import check_pan
from companion.games.pigments.explain import explain_palette, explain_pan, explain_tally
from companion.games.pigments.position import PalettePosition, PanPosition, parse_position
from companion.games.pigments.rules import PigmentsRules
from companion.games.pigments.scoring import PaletteScore, score_tally
from companion.games.registry import GameEntry, Report


def evaluate(document: Field, deck: Path | None) -> Report:
    """A scored position file is read with the cards laid open, as after a press: recipes are
    named."""
    return _evaluate(document, deck, reveal=True)


def evaluate_face_down(document: Field, deck: Path | None) -> Report:
    """The same score as the players at a table see it: a shade card's recipe is on its back,
    so verdicts and reasons never name it."""
    return _evaluate(document, deck, reveal=False)


def _evaluate(document: Field, deck: Path | None, *, reveal: bool) -> Report:
    content = content_for(deck)
    catalogue = content.catalogue
    position = parse_position(document, catalogue.by_name)
    if isinstance(position, PanPosition):
        check = check_pan(position.pan, position.shade, catalogue, reveal=reveal)
        return Report({"game": "pigments", **check.to_json()}, explain_pan(check))
    if isinstance(position, PalettePosition):
        checks = (check_pan(p.pan, p.shade, catalogue, reveal=reveal) for p in position.pans)
        score = PaletteScore(tuple(checks))
        return Report(score.to_json(), explain_palette(score))
    tally = score_tally(position, content.bonuses)
    return Report(tally.to_json(), explain_tally(tally))


ENTRY = GameEntry(
    name="pigments",
    title="Pigment Lab",
    evaluate=evaluate,
    rules=PigmentsRules(),
    evaluate_face_down=evaluate_face_down,
)
