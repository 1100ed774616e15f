"""Color Field canvas: each space's tile and rotation, its edges cross-checked by colour."""

from __future__ import annotations

from typing import Any

from companion.content.colorfield import default_content
from companion.games.colorfield.model import Side
from companion.observation import ComponentRead as Read
from vision.layout.geometry import Rect
from vision.layout.ids import PIECE_MARKER_MM
from vision.layout.inks import INKS
from vision.layout.model import QUIET_MM
from vision.scan.colours import ColourClassifier, subset
from vision.scan.context import BoardContext
from vision.scan.readers.common import CERTAIN, MIN_SEEN, is_empty, single_piece
from vision.scan.rectify import rectify

PAINTS = ("lemon", "coral", "navy", "turquoise")
EDGE_REJECT_DELTA_E = 30.0
MIN_EDGES_CONFIRMED = 3  # a hand or glare may hide one edge; two hidden is too little evidence


def _edge_bands(tile_mm: float) -> dict[Side, Rect]:
    """The coloured band between each tile edge and the marker's white ring, away from corners."""
    band = (tile_mm - PIECE_MARKER_MM) / 2 - QUIET_MM
    inner = tile_mm * 0.3
    depth = band * 0.6
    margin = band * 0.2
    return {
        Side.N: Rect(inner, margin, tile_mm - 2 * inner, depth),
        Side.S: Rect(inner, tile_mm - margin - depth, tile_mm - 2 * inner, depth),
        Side.W: Rect(margin, inner, depth, tile_mm - 2 * inner),
        Side.E: Rect(tile_mm - margin - depth, inner, depth, tile_mm - 2 * inner),
    }


class ColorFieldReader:
    def __init__(self) -> None:
        self.paints = ColourClassifier(subset(INKS, PAINTS), EDGE_REJECT_DELTA_E)
        self.tiles = default_content().tiles

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        layout = ctx.board.layout
        spaces: list[dict[str, Any] | None] = []
        for number in range(1, 7):
            region = layout.region(f"space {number}")
            place = f"space {number}"
            if ctx.face.coverage(region.shape) < MIN_SEEN:
                ctx.record(Read(place, None, 0.0, f"{place}: outside the photo"))
                spaces.append(None)
                continue
            piece, problem = single_piece(ctx.pieces_in(region.shape, ("tile",)), place)
            if problem:
                ctx.record(Read(place, None, 0.0, problem))
                spaces.append(None)
                continue
            if piece is None:
                empty, confidence = is_empty(ctx, region.shape)
                if empty:
                    ctx.record(Read(place, None, confidence))
                else:
                    ctx.record(
                        Read(
                            place,
                            None,
                            0.0,
                            f"{place}: covered, or a tile whose marker cannot be read",
                        )
                    )
                spaces.append(None)
                continue
            tile_id = piece.layout.key.rsplit("/", 1)[1]
            tile = self.tiles[tile_id]
            rotation = piece.quarter_turns
            face = rectify(ctx.image, piece.sighting)
            confirmed = 0
            mismatch = None
            for side, band in _edge_bands(piece.layout.size[0]).items():
                seen = self.paints.classify(ctx.balance.apply(face.pixels(band), piece.centre))
                printed = tile.edges[side].colour.value
                if seen.name is None:
                    continue
                if seen.name != printed:
                    mismatch = (
                        f"{place}: tile {tile_id} edge {side.name} should be {printed} "
                        f"but looks {seen.name}"
                    )
                    break
                confirmed += 1
            if mismatch or confirmed < MIN_EDGES_CONFIRMED:
                problem = mismatch or f"{place}: only {confirmed} of 4 edges of {tile_id} visible"
                ctx.record(Read(place, tile_id, 0.0, problem))
                spaces.append(None)
                continue
            ctx.record(Read(place, {"tile": tile_id, "rotation": rotation}, CERTAIN))
            spaces.append(
                {
                    "edges": [[e.colour.value, e.multiplier] for e in tile.edges],
                    "rotation": rotation,
                    "tile": tile_id,
                }
            )
        canvas = {key: layout.content[key] for key in ("top", "bottom", "left", "right")}
        canvas["id"] = layout.content["board"]
        return {"game": "colorfield", "canvas": canvas, "spaces": spaces}
