"""The placement advisor: where and how to lay one tile on a canvas's empty spaces.

It scores the whole canvas (edge points and the largest patch) with the tile in every empty
space at every rotation the rules allow, so it is exact: at most 6 spaces x 4 rotations. A
Foundation tile is primed into the first empty space with its up-mark to the top (the rules fix
both). Ties go to the lower space, then the smaller rotation, so the advice is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.colorfield.model import Canvas, PlacedTile, Tile
from companion.games.colorfield.scoring import CanvasScore, score_canvas

ROTATIONS = (0, 1, 2, 3)


@dataclass(frozen=True)
class Placement:
    """The tile in ``space`` (1 to 6) turned ``rotation`` quarter turns clockwise."""

    space: int
    rotation: int
    score: CanvasScore
    gain: int  # the canvas's total after, less before

    def to_json(self) -> dict[str, Any]:
        return {
            "space": self.space,
            "rotation": self.rotation,
            "gain": self.gain,
            "total": self.score.total,
        }


@dataclass(frozen=True)
class Advice:
    """Every allowed placement best first (none when no space is empty), with the reasons."""

    tile: Tile
    before: CanvasScore
    options: tuple[Placement, ...]
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        best = self.options[0].to_json() if self.options else None
        return {
            "tile": self.tile.label(),
            "before": self.before.total,
            "best": best,
            "options": [o.to_json() for o in self.options],
            "reasons": list(self.reasons),
        }


def placements(canvas: Canvas, tile: Tile) -> list[tuple[int, int]]:
    """The (space, rotation) pairs the rules allow for ``tile`` on the empty spaces."""
    empty = canvas.empty()
    if tile.up_mark:
        return [(empty[0], 0)] if empty else []
    return [(space, rotation) for space in empty for rotation in ROTATIONS]


def advise(canvas: Canvas, tile: Tile) -> Advice:
    """Every placement of ``tile`` on ``canvas``'s empty spaces, by the points it gains."""
    before = score_canvas(canvas)
    options = []
    for space, rotation in placements(canvas, tile):
        score = score_canvas(canvas.with_space(space, PlacedTile(tile, rotation)))
        options.append(Placement(space, rotation, score, score.total - before.total))
    # sorted() is stable and the placements come in space then rotation order.
    ranked = tuple(sorted(options, key=lambda o: -o.gain))
    return Advice(tile, before, ranked, _reasons(tile, before, ranked))


def _where(placement: Placement) -> str:
    turns = placement.rotation
    turned = "upright" if turns == 0 else f"turned {turns} quarter turn(s) clockwise"
    return f"space {placement.space}, {turned}"


def _reasons(tile: Tile, before: CanvasScore, ranked: tuple[Placement, ...]) -> tuple[str, ...]:
    if not ranked:
        return (f"No empty space on the canvas for {tile.label()}.",)
    best = ranked[0]
    after = best.score
    lines = [
        f"Place {tile.label()} in {_where(best)}: {best.gain:+d} points "
        f"({before.total} -> {after.total}: edge points {before.edge_points} -> "
        f"{after.edge_points}, largest patch {before.patch.points} -> {after.patch.points})."
    ]
    placed = next(t for t in best.score.tiles if t.space == best.space)
    for side in placed.sides:
        if side.matched:
            lines.append(
                f"{side.side.word}: {side.colour.value} x{side.multiplier} matches "
                f"{side.against}: +{side.points}"
            )
    patch = best.score.patch
    if patch.colour is not None:
        lines.append(
            f"Largest patch after: {patch.colour.value}, size {patch.size}: +{patch.points}"
        )
    tied = sum(1 for o in ranked[1:] if o.gain == best.gain)
    if tied:
        lines.append(f"{tied} other placement(s) gain the same; this one comes first.")
    worse = [o for o in ranked if o.gain < best.gain]
    if worse:
        lines.append(
            f"Next best: {_where(worse[0])}: {worse[0].gain:+d} points "
            f"({best.gain - worse[0].gain} fewer)."
        )
    if tile.up_mark:
        lines.append("A Foundation tile goes into the first empty space, its up-mark to the top.")
    return tuple(lines)
