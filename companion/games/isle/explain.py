"""Isle of Colors score breakdowns in words, for people (``atelier score --explain``)."""

from __future__ import annotations

from companion.games.isle.scoring import ColourScore, Scored, SheetScore

# Per-cell conditions list every cell; past this many, the line would be unreadable at a table.
CELLS_PER_LINE = 12


def _cells(scored: Scored) -> str:
    shown = ", ".join(str(c) for c in scored.cells[:CELLS_PER_LINE])
    more = len(scored.cells) - CELLS_PER_LINE
    return shown + (f" and {more} more" if more > 0 else "")


def explain_colour(score: ColourScore) -> list[str]:
    lines = [
        f"  {score.colour.value} ({score.condition.value}): {score.points} points - {score.note}"
    ]
    lines.extend(f"    {item.points:+d}  {item.reason}: {_cells(item)}" for item in score.scored)
    return lines


def explain_sheet_score(score: SheetScore) -> str:
    lines = [f"Isle of Colors, island {score.island!r}: {score.total} points"]
    for colour in score.colours:
        lines.extend(explain_colour(colour))
    return "\n".join(lines)
