"""Pigment Lab as the command line sees it: score a position document, or advise the draft of a
palette board's player, with the explanation in words."""

from __future__ import annotations

from pathlib import Path

from companion.content.pigments import content_for
from companion.errors import FieldError
from companion.fields import Field
from companion.games.pigments.advisor import advise
from companion.games.pigments.checker import check_pan
from companion.games.pigments.explain import explain_palette, explain_pan, explain_tally
from companion.games.pigments.position import PalettePosition, PanPosition, parse_position
from companion.games.pigments.rules import PigmentsRules
from companion.games.pigments.scoring import PaletteScore, score_tally
from companion.games.pigments.state import BoardPan
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


def advise_position(document: Field, deck: Path | None) -> Report:
    """The best draft for a palette board's player from the ``crates`` and ``spill_tray``."""
    catalogue = content_for(deck).catalogue
    position = parse_position(document, catalogue.by_name)
    if not isinstance(position, PalettePosition):
        raise FieldError(
            "pans", "missing (the advice is for a palette board with the drafts on offer)"
        )
    drafts = position.drafts
    given = document.value if isinstance(document.value, dict) else {}
    if drafts is None or ("crates" not in given and "spill_tray" not in given):
        raise FieldError(
            "crates", "missing (the advice is which draft to take: give 'crates' or 'spill_tray')"
        )
    if not drafts.on_offer:
        raise FieldError("crates", "every crate and the Spill Tray are empty: no draft is on offer")
    # A position says nothing of pressing: a full pan with its card's recipe counts as pressed.
    board = tuple(BoardPan(p.pan, p.shade) for p in position.pans)
    advice = advise(board, drafts)
    return Report({"game": "pigments", **advice.to_json()}, "\n".join(advice.reasons))


ENTRY = GameEntry(
    name="pigments",
    title="Pigment Lab",
    evaluate=evaluate,
    rules=PigmentsRules(),
    evaluate_face_down=evaluate_face_down,
    advise=advise_position,
)
