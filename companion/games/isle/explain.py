"""Isle of Colors score breakdowns and advice in words, for people (``--explain``)."""

from __future__ import annotations

from companion.games.isle.advisor import Advice
from companion.games.isle.position import Turn
from companion.games.isle.scoring import ColourScore, Scored, SheetScore
from companion.words import plural

# Per-cell conditions list every cell; past this many, the line would be unreadable at a table.
CELLS_PER_LINE = 12


def _cells(scored: Scored) -> str:
    shown = ", ".join(str(c) for c in scored.cells[:CELLS_PER_LINE])
    more = len(scored.cells) - CELLS_PER_LINE
    return shown + (f" and {more} more" if more > 0 else "")


def explain_colour(score: ColourScore) -> list[str]:
    lines = [
        f"  {score.colour.value} ({score.condition.value}): "
        f"{plural(score.points, 'point')} - {score.note}"
    ]
    lines.extend(f"    {item.points:+d}  {item.reason}: {_cells(item)}" for item in score.scored)
    return lines


def explain_sheet_score(score: SheetScore) -> str:
    lines = [f"Isle of Colors, island {score.island!r}: {plural(score.total, 'point')}"]
    for colour in score.colours:
        lines.extend(explain_colour(colour))
    return "\n".join(lines)


def advice_reasons(
    advice: Advice | None, turn: Turn, before: SheetScore, after: SheetScore
) -> tuple[str, ...]:
    """Why the advisor chose its fill (``after``: the sheet scored with it), in words."""
    if advice is None:
        return (f"No group of {turn.roll} connected empty cells fits: nothing to fill this round.",)
    cells = ", ".join(str(c) for c in advice.cells)
    lines = [
        f"Fill {cells} with {advice.colour.value} (roll {turn.roll}): "
        f"{plural(advice.gain, 'point', signed=True)} now ({before.total} -> {after.total})."
    ]
    for old, new in zip(before.colours, after.colours, strict=True):
        if old.points != new.points:
            lines.append(
                f"{new.colour.value} ({new.condition.value}): {old.points} -> {new.points} "
                f"({new.points - old.points:+d}) - {new.note}"
            )
    if turn.final_round:
        lines.append("Final round: no round follows, so only the points now count.")
    elif advice.looked_ahead:
        held = " and ".join(c.value for c in (turn.next_colours() or {})[advice.colour])
        lines.append(
            f"Looking one round ahead, holding {held}: the best next fill is worth "
            f"{advice.outlook:.2f} points on average over the six faces "
            f"({advice.looked_ahead} fills compared this way)."
        )
    else:
        lines.append("Chosen on the points now: too few fills to compare a round ahead.")
    lines.append(f"{advice.fills_tried} fills scored (every placement with each colour in hand).")
    return tuple(lines)
