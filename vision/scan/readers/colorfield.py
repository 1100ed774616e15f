"""Color Field canvas: each space's tile and rotation, its edges cross-checked by colour."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.colour import linear_to_srgb, srgb_to_linear
from companion.content.colorfield import default_content
from companion.games.colorfield.model import Side
from companion.observation import ComponentRead as Read
from vision.layout.geometry import Rect
from vision.layout.ids import PIECE_MARKER_MM
from vision.layout.inks import INKS
from vision.layout.model import QUIET_MM
from vision.scan.colours import WhiteBalance, column_median, to_lab
from vision.scan.context import BoardContext, PieceOnBoard, ring_pixels
from vision.scan.readers.common import CERTAIN, MIN_SEEN, is_empty, single_piece
from vision.scan.readers.reader import BoardReader, ReaderEntry
from vision.scan.readers.second_look import UNPLACED, SecondLook, placed_well
from vision.scan.rectify import Rectified, masked_pixels, rectify

Points = NDArray[np.float64]

PAINTS = ("lemon", "coral", "navy", "turquoise")
ROWS, COLUMNS = 2, 3
EDGE_REJECT_DELTA_E = 14.0
MIN_EDGES_CONFIRMED = 3  # a hand or glare may hide one edge; two hidden is too little evidence
# A paint in light or shade: the printed colour scaled by this much light (linear RGB)...
LIGHT = (0.25, 1.6)
# ...or blurred into the white ring beside it by up to this share.
WHITE_BLUR = 0.15
# A look in light and softened at once names a paint only when this many times nearer than any
# other paint's: the four paints' looks come within 15 Delta E of one another there.
CLEARLY = 2.0
NEIGHBOUR_MARGIN_MM = 1.0  # around another tile's outline, where it may lie over this one
OWN_TINT = 0.1  # a tile's ring white may differ this much in colour from the board's nearby
MIN_BAND_SEEN = 0.3  # an edge with less of its band clear of other tiles is not seen


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


@dataclass(frozen=True)
class EdgeLook:
    """What an edge's colour says of its paint.

    ``plain``: the paint whose printed colour, in more or less light or softened towards the ring,
    lies within the reject threshold: only this may contradict a tile. ``likely``: the paint whose
    colour in light and softened at once lies within it, clearly nearer than any other paint's:
    blur and a strong white balance together, as on a small board far from the camera. It may
    bear a tile out, never contradict one: a hand's skin, or a shadow over it, lies near coral
    and lemon softened in shade.
    """

    plain: str | None
    likely: str | None


class _Looks:
    """Colours in CIELAB, each one paint's look."""

    def __init__(self, looks: list[NDArray[np.float64]], paints: list[int]) -> None:
        self.lab = to_lab(np.array([linear_to_srgb(c) for c in looks], np.float32))
        self.paint = np.array(paints)

    def nearest(self, lab: NDArray[np.float32], clearly: float = 1.0) -> str | None:
        """The paint of the look nearest ``lab`` when within the reject threshold and at least
        ``clearly`` times nearer than every other paint's looks."""
        distances = ((self.lab - lab) ** 2).sum(axis=1)
        nearest = int(np.argmin(distances))
        paint = self.paint[nearest]
        others = distances[self.paint != paint]
        if distances[nearest] > EDGE_REJECT_DELTA_E**2:
            return None
        if len(others) and others.min() < clearly**2 * distances[nearest]:
            return None
        return PAINTS[int(paint)]


class EdgePaints:
    """Names an edge's paint by the nearest of each paint's looks in CIELAB: the printed colour
    in more or less light (a hand's shadow, the far side of the table, a white balance taken
    from a blurred white ring and so too strong) and softened towards the white ring beside it
    (blur), or nothing when no look is within the reject threshold (see ``EdgeLook``)."""

    def __init__(self) -> None:
        white = srgb_to_linear((245, 245, 245))
        plain, softened = [], []
        plain_paints, softened_paints = [], []
        for index, name in enumerate(PAINTS):
            ink = srgb_to_linear(INKS[name][::-1])  # as BGR
            lights = np.linspace(*LIGHT, 31)
            blurs = np.linspace(0.0, WHITE_BLUR, 13)
            looks = [k * ink for k in lights] + [(1 - t) * ink + t * white for t in blurs]
            plain += looks
            plain_paints += [index] * len(looks)
            both = [(1 - t) * k * ink + t * white for k in lights for t in blurs]
            softened += both
            softened_paints += [index] * len(both)
        self._plain = _Looks(plain, plain_paints)
        self._softened = _Looks(softened, softened_paints)

    def looks(self, patches: Sequence[NDArray[np.float32]]) -> list[EdgeLook]:
        """Each patch's look (by its median colour)."""
        if not patches:
            return []
        lab = to_lab(np.concatenate(patches))
        ends = np.cumsum([len(p) for p in patches])
        found = []
        for part in np.split(lab, ends[:-1]):
            if len(part) == 0:
                found.append(EdgeLook(None, None))
                continue
            median = column_median(part)
            found.append(
                EdgeLook(self._plain.nearest(median), self._softened.nearest(median, CLEARLY))
            )
        return found


@dataclass(frozen=True)
class _Placed:
    """A space with a tile in it, named by its marker (decoded or found by a second look)."""

    place: str
    piece: PieceOnBoard
    confidence: float

    @property
    def tile_id(self) -> str:
        return self.piece.layout.key.rsplit("/", 1)[1]


def _footprints(piece: PieceOnBoard, others: Sequence[PieceOnBoard]) -> list[Points]:
    """Where the other tiles near this one lie, in this tile's millimetres, each outline grown
    by a margin for how well it is placed."""
    w, h = piece.layout.size
    near = float(np.hypot(w, h)) + NEIGHBOUR_MARGIN_MM
    found = []
    for other in others:
        if np.hypot(*np.subtract(other.centre, piece.centre)) > near:
            continue
        ow, oh = other.layout.size
        grow = (ow + 2 * NEIGHBOUR_MARGIN_MM) / ow
        corners = np.array(other.layout.outline.corners(), np.float64)
        outline = (corners - (ow / 2, oh / 2)) * grow + (ow / 2, oh / 2)
        found.append(piece.sighting.to_component(other.sighting.to_image(outline)))
    return found


def _clear(face: Rectified, covers: Sequence[Points]) -> NDArray[np.bool_]:
    """Which pixels of the tile's face no other tile may lie over."""
    clear = np.full(face.image.shape[:2], 255, np.uint8)
    for outline in covers:
        cv2.fillPoly(clear, [np.round(outline * face.ppm).astype(np.int32)], 0)
    return clear > 0


def _band_pixels(face: Rectified, band: Rect, clear: NDArray[np.bool_]) -> NDArray[np.uint8] | None:
    """The band's pixels clear of other tiles; None when too few are left."""
    ppm = face.ppm
    x0, y0 = int(band.x * ppm), int(band.y * ppm)
    x1, y1 = int(np.ceil((band.x + band.w) * ppm)), int(np.ceil((band.y + band.h) * ppm))
    inside = clear[y0:y1, x0:x1]
    if np.count_nonzero(inside) < MIN_BAND_SEEN * inside.size:
        return None
    return masked_pixels(face.image[y0:y1, x0:x1], inside)


def _with_own_white(balance: WhiteBalance, face: Rectified, piece: PieceOnBoard) -> WhiteBalance:
    """The board's white balance, taught the white of the tile's own marker ring (the paper
    nearest its edges) where that ring is the brighter: a board's ring in a cup's shadow would
    otherwise brighten every tile near it that lies in the light. A ring that reads darker, or
    tinted, may be blur mixing the marker's black and the edges' paint into it: no evidence."""
    own = WhiteBalance.white_of(ring_pixels(face, piece.layout.markers[0]), balance.correction)
    if own is None:
        return balance
    seen = WhiteBalance.from_whites([(*piece.centre, own)])
    brighter = balance.gains_at(*piece.centre) / np.asarray(seen.whites[0][2], np.float32)
    if float(brighter.min()) <= 1.0 or float(brighter.max() / brighter.min()) > 1.0 + OWN_TINT:
        return balance
    return replace(balance, whites=balance.whites + seen.whites)


def _balanced(
    balance: WhiteBalance, patches: list[NDArray[np.uint8]], at: tuple[float, float]
) -> list[NDArray[np.float32]]:
    """Each patch white-balanced for ``at``: all at once, as the gains there are the same."""
    if not patches:
        return []
    ends = np.cumsum([len(p) for p in patches])[:-1]
    return np.split(balance.apply(np.concatenate(patches), at), ends)


def _beside(number: int, rotation: int, spaces: Collection[int]) -> set[Side]:
    """The tile's own sides (tile in space ``number``, turned ``rotation`` quarter turns) that
    face one of ``spaces``. Spaces run row by row, three to a row, two rows."""
    row, col = divmod(number - 1, COLUMNS)
    steps = {Side.N: (-1, 0), Side.E: (0, 1), Side.S: (1, 0), Side.W: (0, -1)}
    facing = set()
    for side in Side:
        dr, dc = steps[Side((side + rotation) % 4)]
        r, c = row + dr, col + dc
        if 0 <= r < ROWS and 0 <= c < COLUMNS and r * COLUMNS + c + 1 in spaces:
            facing.add(side)
    return facing


class ColorFieldReader(BoardReader):
    def __init__(self) -> None:
        self.paints = EdgePaints()
        self.tiles = default_content().tiles
        self.second_look = SecondLook("tile")

    def _tile_in(self, ctx: BoardContext, number: int) -> _Placed | Read:
        """The tile in a space, or the read of a space without one."""
        place = f"space {number}"
        region = ctx.board.layout.region(place)
        if ctx.face.coverage(region.shape) < MIN_SEEN:
            return Read(place, None, 0.0, f"{place}: outside the photo")
        piece, problem = single_piece(ctx.pieces_in(region.shape, ("tile",)), place)
        if problem:
            return Read(place, None, 0.0, problem)
        if piece is not None and placed_well(ctx, region.shape):
            return _Placed(place, piece, CERTAIN)
        if piece is not None:
            return Read(place, None, 0.0, f"{place}: {UNPLACED}")
        empty, confidence = is_empty(ctx, region.shape)
        if empty:
            return Read(place, None, confidence)
        if not placed_well(ctx, region.shape):
            return Read(place, None, 0.0, f"{place}: {UNPLACED}")
        found = self.second_look.find(ctx, region.shape)
        if found is not None and single_piece([found.piece], place)[1] is None:
            return _Placed(place, found.piece, found.confidence)
        return Read(place, None, 0.0, f"{place}: covered, or a tile whose marker cannot be read")

    def _mismatch(
        self,
        ctx: BoardContext,
        placed: _Placed,
        others: Sequence[PieceOnBoard],
        beside_unknown: Collection[Side],
    ) -> str | None:
        """Why the tile's edges do not bear out its marker, or None when they do. An edge beside
        a space holding a tile that was not identified may lie under that tile: there it only
        counts when it shows its own colour."""
        piece = placed.piece
        tile = self.tiles[placed.tile_id]
        face = rectify(ctx.image, piece.sighting)
        clear = _clear(face, _footprints(piece, others))
        balance = _with_own_white(ctx.balance, face, piece)
        visible = {}
        for side, band in _edge_bands(piece.layout.size[0]).items():
            pixels = _band_pixels(face, band, clear)
            if pixels is not None:
                visible[side] = pixels
        looks = self.paints.looks(_balanced(balance, list(visible.values()), piece.centre))
        confirmed = 0
        for side, look in zip(visible, looks, strict=True):
            printed = tile.edges[side].colour.value
            seen = look.plain
            if seen is not None and seen != printed and side not in beside_unknown:
                return (
                    f"{placed.place}: tile {placed.tile_id} edge {side.name} should be "
                    f"{printed} but looks {seen}"
                )
            if printed in (seen, look.likely):
                confirmed += 1
        if confirmed < MIN_EDGES_CONFIRMED:
            return f"{placed.place}: only {confirmed} of 4 edges of {placed.tile_id} visible"
        return None

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        layout = ctx.board.layout
        found = [self._tile_in(ctx, n) for n in range(1, 7)]
        tiles = [p for p in ctx.pieces if p.layout.kind == "tile"]
        # Tiles found by a second look are not among the frame's pieces yet.
        tiles += [
            f.piece
            for f in found
            if isinstance(f, _Placed) and not any(f.piece is t for t in tiles)
        ]
        # Spaces that may hold a tile whose place on the board is not known.
        unknown = {n for n, f in enumerate(found, 1) if isinstance(f, Read) and f.problem}
        spaces: list[dict[str, Any] | None] = []
        for number, entry in enumerate(found, 1):
            if isinstance(entry, Read):
                ctx.record(entry)
                spaces.append(None)
                continue
            others = [t for t in tiles if t is not entry.piece]
            beside = _beside(number, entry.piece.quarter_turns, unknown)
            problem = self._mismatch(ctx, entry, others, beside)
            if problem:
                # The marker named the tile; only its edges disagreed: it is the likeliest fix.
                likely = {"tile": entry.tile_id, "rotation": entry.piece.quarter_turns}
                ctx.record(Read(entry.place, entry.tile_id, 0.0, problem, (likely,)))
                spaces.append(None)
                continue
            tile = self.tiles[entry.tile_id]
            rotation = entry.piece.quarter_turns
            ctx.record(
                Read(entry.place, {"tile": entry.tile_id, "rotation": rotation}, entry.confidence)
            )
            spaces.append(
                {
                    "edges": [[e.colour.value, e.multiplier] for e in tile.edges],
                    "rotation": rotation,
                    "tile": entry.tile_id,
                }
            )
        canvas = {key: layout.content[key] for key in ("top", "bottom", "left", "right")}
        canvas["id"] = layout.content["board"]
        return {"game": "colorfield", "canvas": canvas, "spaces": spaces}


# Not refused when overexposed: a tile is named by its marker, and each edge only bears it out
# when its paint shows (its looks reach 1.6 times the light, clipped as the sensor clips them);
# an edge the light blew out is not seen, and a tile with fewer than three seen is refused. On
# validation seeds 60020-60079 at +1 EV, 56 of 60 boards read exactly (43 refused whole), at
# +1.5 EV 25 (4), none confidently wrong.
ENTRIES = (
    ReaderEntry("colorfield", "canvas", ColorFieldReader, 2.5, refused_when_overexposed=False),
)
