"""Paintings as the command line sees it: score a position document, or advise its player's
next painting, with the explanation in words."""

from __future__ import annotations

from pathlib import Path

from companion.content.paintings import content_for
from companion.errors import FieldError
from companion.fields import Field
from companion.games.paintings.advisor import advise, ribbons_won
from companion.games.paintings.explain import explain_player_score
from companion.games.paintings.model import CARDS_PER_PAINTING
from companion.games.paintings.position import parse_position
from companion.games.paintings.rules import PaintingsRules
from companion.games.paintings.scoring import score_player
from companion.games.registry import GameEntry, Report
from companion.words import plural


def evaluate(document: Field, deck: Path | None) -> Report:
    content = content_for(deck)
    position = parse_position(document, content)
    score = score_player(position.paintings, position.scoring_cards)
    return Report(score.to_json(), explain_player_score(score))


def advise_position(document: Field, deck: Path | None) -> Report:
    """The best 3 cards of the position's ``hand`` to paint next, in order."""
    if isinstance(document.value, dict) and "hand" not in document.value:
        raise FieldError("hand", "missing (the advice is which cards of the hand to paint)")
    position = parse_position(document, content_for(deck))
    hand = position.hand or ()
    if len(hand) < CARDS_PER_PAINTING:
        raise FieldError(
            "hand",
            f"{plural(len(hand), 'card')}: a painting takes {CARDS_PER_PAINTING} cards "
            "from the hand",
        )
    won = ribbons_won(position.paintings, position.scoring_cards)
    advice = advise(hand, position.scoring_cards, won)
    return Report({"game": "paintings", **advice.to_json()}, "\n".join(advice.reasons))


ENTRY = GameEntry(
    name="paintings",
    title="Paintings",
    evaluate=evaluate,
    rules=PaintingsRules(),
    advise=advise_position,
)
