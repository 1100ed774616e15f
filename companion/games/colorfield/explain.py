"""Color Field score breakdowns in words, for people (``atelier score --explain``)."""

from __future__ import annotations

from companion.games.colorfield.scoring import PATCH_MINIMUM, CanvasScore, SideScore
from companion.words import plural


def _side_line(side: SideScore) -> str:
    edge = f"{side.colour.value}" + (f" x{side.multiplier}" if side.multiplier > 1 else "")
    facing = "/".join(c.value for c in side.facing)
    if side.against.startswith("space"):
        where = f"{side.against} ({facing})" if side.facing else f"{side.against} (empty)"
    else:
        where = f"canvas {side.against} ({facing})"
    verdict = "matches" if side.matched else "no match with"
    return f"    {side.side.word:<6} {edge:<13} {verdict} {where}: {side.points:+d}"


def explain_canvas_score(score: CanvasScore) -> str:
    lines = [
        f"Color Field canvas: {plural(score.total, 'point')} "
        f"({score.edge_points} edge points + {score.patch.points} largest patch)"
    ]
    for tile in score.tiles:
        perfect = ", perfect" if tile.perfect else ""
        lines.append(
            f"  Space {tile.space} ({tile.tile}, rotation {tile.rotation}): "
            f"{plural(tile.points, 'point')}{perfect}"
        )
        lines.extend(_side_line(side) for side in tile.sides)
    if not score.tiles:
        lines.append("  The canvas is empty.")
    patch = score.patch
    if patch.colour is None:
        lines.append("  Largest patch: none (no matching edge of one colour anywhere)")
    else:
        members = [f"space {s}" for s in patch.spaces] + [f"canvas {s}" for s in patch.segments]
        bonus = (
            f"{plural(patch.points, 'point')}"
            if patch.points
            else f"0 points (a patch needs at least {PATCH_MINIMUM})"
        )
        lines.append(
            f"  Largest patch: {patch.colour.value}, size {patch.size} "
            f"({', '.join(members)}): {bonus}"
        )
    return "\n".join(lines)
