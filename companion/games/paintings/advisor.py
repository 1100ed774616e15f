"""The painting advisor: which 3 hand cards to paint, in which order, for the most points.

It optimises the points the painting adds to the player's final score: for each scoring card in
play, the track value at (ribbons already won + ribbons this painting earns) minus the track value
at the ribbons already won, plus 2 per silver ribbon. A ribbon past the end of a track, or on a
track where the next step is flat, is worth nothing, and the advisor knows it.

The search is exact: a hand of at most 5 cards has at most 5P3 = 60 orders, and every one is
scored. Orders that leave the same icons visible share one scoring. Ties go to the first order in
hand-position order, so the advice is deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from companion.games.paintings.covering import Visible, visible_icons
from companion.games.paintings.model import CARDS_PER_PAINTING, ArtCard, Goal, Painting, ScoringCard
from companion.games.paintings.scoring import (
    SILVER_POINTS,
    PaintingScore,
    score_player,
    score_visible,
)
from companion.games.paintings.state import HAND_LIMIT
from companion.words import plural


@dataclass(frozen=True)
class TrackGain:
    """What one painting adds on one scoring card, given the ribbons already won there."""

    card: ScoringCard
    before: int
    earned: int

    @property
    def points(self) -> int:
        return self.card.points(self.before + self.earned) - self.card.points(self.before)


@dataclass(frozen=True)
class Option:
    """One way to paint: hand positions bottom first, the painting's score and its gains."""

    order: tuple[int, int, int]
    painting: Painting
    score: PaintingScore
    gains: tuple[TrackGain, ...]

    @property
    def silver_points(self) -> int:
        return SILVER_POINTS * self.score.silver

    @property
    def points(self) -> int:
        return sum(g.points for g in self.gains) + self.silver_points


@dataclass(frozen=True)
class Advice:
    """The best option, every option best first, and the reasons in words."""

    best: Option
    options: tuple[Option, ...]
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """Hand positions count from 1, as the reasons name them; each order bottom first."""
        best = self.best
        points = {g.card.goal.value: g.points for g in best.gains}
        return {
            "paint": [
                {"hand": i + 1, "card": card.id}
                for i, card in zip(best.order, best.painting.cards, strict=True)
            ],
            "points": best.points,
            "gains": points | {"silver": best.silver_points},
            "ribbons": {g.card.goal.value: g.earned for g in best.gains}
            | {"silver": best.score.silver},
            "options": [
                {"hand": [i + 1 for i in o.order], "points": o.points} for o in self.options
            ],
            "reasons": list(self.reasons),
        }


def ribbons_won(paintings: Sequence[Painting], cards: Sequence[ScoringCard]) -> dict[Goal, int]:
    """Ribbons per scoring card over the paintings a player has already completed."""
    return {track.card.goal: track.ribbons for track in score_player(paintings, cards).tracks}


def _options(
    hand: Sequence[ArtCard], cards: Sequence[ScoringCard], won: Mapping[Goal, int]
) -> list[Option]:
    by_visible: dict[tuple[tuple[object, ...], ...], PaintingScore] = {}
    options = []
    for a, b, c in permutations(range(len(hand)), CARDS_PER_PAINTING):
        painting = Painting((hand[a], hand[b], hand[c]))
        visible = visible_icons(painting)
        key = _visible_key(visible)
        score = by_visible.get(key)
        if score is None:
            score = by_visible[key] = score_visible(visible, cards)
        gains = tuple(
            TrackGain(card, won.get(card.goal, 0), goal.count)
            for card, goal in zip(cards, score.goals, strict=True)
        )
        options.append(Option((a, b, c), painting, score, gains))
    return options


def _visible_key(visible: Visible) -> tuple[tuple[object, ...], ...]:
    # The card each icon came from changes only the explanation, not a single ribbon.
    return tuple(tuple(v.icon for v in slot) for slot in visible.slots)


def _name(hand: Sequence[ArtCard], index: int) -> str:
    card = hand[index]
    return f"hand card {index + 1} ({card.id})" if card.id else f"hand card {index + 1}"


def _reasons(hand: Sequence[ArtCard], ranked: Sequence[Option]) -> tuple[str, ...]:
    best = ranked[0]
    names = ", ".join(_name(hand, i) for i in best.order)
    lines = [f"Paint {names}, bottom to top: +{best.points} points."]
    for gain, goal in zip(best.gains, best.score.goals, strict=True):
        after = gain.before + gain.earned
        lines.append(
            f"{gain.card.goal.value}: {plural(goal.count, 'ribbon')} ({goal.note}); "
            f"{gain.before} already won, track {gain.card.points(gain.before)} -> "
            f"{gain.card.points(after)}: +{gain.points}"
        )
    if best.score.silver_awards:
        silver = ", ".join(f"{a.bonus.icon.value} x{a.count}" for a in best.score.silver_awards)
        lines.append(
            f"silver: {plural(best.score.silver, 'ribbon')} ({silver}): +{best.silver_points}"
        )
    different = [o for o in ranked[1:] if o.points < best.points]
    tied = len(ranked) - 1 - len(different)
    if tied:
        verb = "scores" if tied == 1 else "score"
        lines.append(
            f"{plural(tied, 'other order')} {verb} the same; this one comes first in hand order."
        )
    if different:
        runner = different[0]
        order = ", ".join(_name(hand, i) for i in runner.order)
        lines.append(
            f"Next best: {order}: +{runner.points} points ({best.points - runner.points} fewer)."
        )
    return tuple(lines)


def advise(
    hand: Sequence[ArtCard], cards: Sequence[ScoringCard], won: Mapping[Goal, int]
) -> Advice:
    """The best 3 cards of ``hand`` and their order under the scoring ``cards`` in play."""
    if not CARDS_PER_PAINTING <= len(hand) <= HAND_LIMIT:
        raise ValueError(
            f"a hand to paint from holds {CARDS_PER_PAINTING} to {HAND_LIMIT} cards, "
            f"not {len(hand)}"
        )
    options = _options(hand, cards, won)
    # sorted() is stable: equal points keep hand-position order.
    ranked = sorted(options, key=lambda o: -o.points)
    return Advice(ranked[0], tuple(ranked), _reasons(hand, ranked))
