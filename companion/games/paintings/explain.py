"""Paintings score breakdowns in words, for people (``atelier score --explain``)."""

from __future__ import annotations

from companion.games.paintings.covering import Visible
from companion.games.paintings.ribbons import GoalRibbons, SilverAward
from companion.games.paintings.scoring import SILVER_POINTS, PaintingScore, PlayerScore
from companion.words import plural


def visible_line(visible: Visible) -> str:
    parts = []
    for number, slot in enumerate(visible.slots, start=1):
        shown = "+".join(v.icon.value for v in slot) or "-"
        source = f" (card {slot[0].card + 1})" if slot else ""
        parts.append(f"{number}: {shown}{source}")
    return " | ".join(parts)


def goal_lines(goal: GoalRibbons) -> list[str]:
    lines = [f"    {goal.goal.value}: {plural(goal.count, 'ribbon')} ({goal.note})"]
    for ribbon in goal.ribbons:
        icons = ", ".join(v.describe() for v in ribbon.icons) or "no icons needed"
        lines.append(f"      ribbon: {ribbon.reason}: {icons}")
    return lines


def silver_line(award: SilverAward) -> str:
    element = award.bonus.icon.element.value
    slots = ", ".join(str(v.slot) for v in award.matches)
    matched = (
        f"{element} in slot{'s' if ',' in slots else ''} {slots}"
        if slots
        else f"no {element} visible"
    )
    return f"    silver: {award.bonus.describe()}: {plural(award.count, 'ribbon')} ({matched})"


def painting_lines(number: int, painting: PaintingScore) -> list[str]:
    lines = [f"  Painting {number}: {visible_line(painting.visible)}"]
    for goal in painting.goals:
        lines.extend(goal_lines(goal))
    lines.extend(silver_line(award) for award in painting.silver_awards)
    return lines


def explain_player_score(score: PlayerScore) -> str:
    parts = [f"{t.card.goal.value} {t.points}" for t in score.tracks]
    parts.append(f"silver {score.silver_points}")
    lines = [
        f"Paintings: {plural(score.total, 'point')} ({' + '.join(parts)})",
        "  (slots 1..5 left to right; card 1 is the bottom card of a painting)",
    ]
    for number, painting in enumerate(score.paintings, start=1):
        lines.extend(painting_lines(number, painting))
    lines.append("  Tracks:")
    for track in score.tracks:
        values = ", ".join(str(v) for v in track.card.track)
        lines.append(
            f"    {track.card.goal.value}: {plural(track.ribbons, 'ribbon')} -> "
            f"{plural(track.points, 'point')} (track {values})"
        )
    lines.append(
        f"    silver: {plural(score.silver, 'ribbon')} x {SILVER_POINTS} = "
        f"{plural(score.silver_points, 'point')}"
    )
    return "\n".join(lines)
