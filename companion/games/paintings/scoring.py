"""Paintings scoring: ribbons per painting, then a player's points from the scoring tracks.

Pure functions; every ribbon keeps the icons that earned it, every point the track it came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.paintings.covering import Visible, visible_icons
from companion.games.paintings.model import Goal, Painting, ScoringCard
from companion.games.paintings.ribbons import GoalRibbons, SilverAward, ribbons_for, silver_awards

SILVER_POINTS = 2
SCORING_CARDS_IN_PLAY = 4
MAX_PAINTINGS = 3


@dataclass(frozen=True)
class PaintingScore:
    """One painting: its visible icons, the ribbons per scoring card and the silver ribbons."""

    visible: Visible
    goals: tuple[GoalRibbons, ...]
    silver_awards: tuple[SilverAward, ...]

    @property
    def silver(self) -> int:
        return sum(a.count for a in self.silver_awards)

    def ribbons(self, goal: Goal) -> int:
        return next(g.count for g in self.goals if g.goal is goal)

    def to_json(self) -> dict[str, Any]:
        return {
            "visible": self.visible.to_json(),
            "from_card": list(self.visible.source_cards()),
            "ribbons": {g.goal.value: g.count for g in self.goals},
            "silver": self.silver,
            "explained": {g.goal.value: g.to_json() for g in self.goals},
            "silver_awards": [a.to_json() for a in self.silver_awards],
        }


@dataclass(frozen=True)
class TrackScore:
    """One scoring card over a player's paintings: ribbons summed, points from its track."""

    card: ScoringCard
    ribbons: int

    @property
    def points(self) -> int:
        return self.card.points(self.ribbons)


@dataclass(frozen=True)
class PlayerScore:
    tracks: tuple[TrackScore, ...]
    paintings: tuple[PaintingScore, ...]

    @property
    def silver(self) -> int:
        return sum(p.silver for p in self.paintings)

    @property
    def silver_points(self) -> int:
        return SILVER_POINTS * self.silver

    @property
    def total(self) -> int:
        return sum(t.points for t in self.tracks) + self.silver_points

    def to_json(self) -> dict[str, Any]:
        points: dict[str, int] = {t.card.goal.value: t.points for t in self.tracks}
        points["silver"] = self.silver_points
        return {
            "game": "paintings",
            "total": self.total,
            "ribbons": {t.card.goal.value: t.ribbons for t in self.tracks},
            "silver": self.silver,
            "points": points,
            "tracks": {t.card.goal.value: list(t.card.track) for t in self.tracks},
            "paintings": [p.to_json() for p in self.paintings],
        }


def score_visible(visible: Visible, cards: Sequence[ScoringCard]) -> PaintingScore:
    goals = tuple(ribbons_for(card.goal, visible) for card in cards)
    return PaintingScore(visible, goals, silver_awards(visible))


def score_painting(painting: Painting, cards: Sequence[ScoringCard]) -> PaintingScore:
    return score_visible(visible_icons(painting), cards)


def score_player(paintings: Sequence[Painting], cards: Sequence[ScoringCard]) -> PlayerScore:
    """A player's points for their paintings (any number, none to three) under ``cards``."""
    scored = tuple(score_painting(p, cards) for p in paintings)
    tracks = tuple(TrackScore(card, sum(s.ribbons(card.goal) for s in scored)) for card in cards)
    return PlayerScore(tracks, scored)
