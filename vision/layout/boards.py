"""Board layouts: four corner markers each, and the regions pieces are laid on or read from.

Every board fits the printable area that A4 and US Letter share in landscape (267 x 198 mm), so
one design prints on either paper. The corners hold the markers, 3 mm in from the edge with a
white ring: any one corner gives the board's identity, seat and pose, so a hand over one corner
(or three) does not lose the board.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from companion.games.colorfield.model import SEGMENT_COUNTS, CanvasBoard
from companion.games.isle.model import Colour, Island
from companion.games.pigments.model import BOARD, PAN_NAMES
from vision.layout.geometry import Circle, Hexagon, Rect, bounds
from vision.layout.ids import BOARD_MARKER_MM, CORNERS, PAINTINGS_PER_PLAYER, board_marker_ids
from vision.layout.inks import INKS
from vision.layout.model import QUIET_MM, Layout, MarkerSpec, Region

PRINTABLE = (267.0, 198.0)  # what A4 and US Letter landscape both print, 6 mm margins
MARKER_INSET = 3.0
CORNER_ZONE = MARKER_INSET + BOARD_MARKER_MM + QUIET_MM + 1.0  # 34 mm: nothing else goes here

TILE_MM = 40.0
TILE_PITCH = 42.0
SEGMENT_BAND = 12.0
CARD = (63.0, 88.0)
SHADE_CARD = (38.0, 55.0)
SLOT_PITCH = 20.0
SLOT_RADIUS = 9.0  # chips are 16 mm across; the printed ring is 18 mm
# The Isle sheet's pencil key: one hexagon per colour, coloured by the player at setup with each
# of their pencils, so a reader learns what those pencils look like on this paper.
KEY_RADIUS_MM = 6.0
# Each cell's centre carries a printed ink dot: where it shows, the cell's middle is in plain view.
# Ink stays below the sensor's limit where paper clips (overexposed, under a glare); a white cup
# or hand over the cell clips as the paper does. Without the dot the two look alike.
CELL_DOT_MM = 1.5  # radius
KEY_PITCH_MM = 14.0  # between the centres of the two hexagons in one side column
KEY_EDGE_MM = 12.0  # from the sheet's side edge to a key hexagon's centre
KEY_LABEL = (11.0, 4.0)  # the box (w, h mm) a colour's name is printed in, beside its hexagon
KEY_GAP_MM = 2.0  # bare paper kept between the key and any cell
PAN_ORDER = tuple(zip(PAN_NAMES, BOARD, strict=True))


def corner_markers(
    game: str, kind: str, copy: int, size: tuple[float, float]
) -> tuple[MarkerSpec, ...]:
    w, h = size
    m = BOARD_MARKER_MM
    far_x, far_y = w - MARKER_INSET - m, h - MARKER_INSET - m
    origins = (
        (MARKER_INSET, MARKER_INSET),
        (far_x, MARKER_INSET),
        (far_x, far_y),
        (MARKER_INSET, far_y),
    )
    ids = board_marker_ids(game, kind, copy)
    return tuple(
        MarkerSpec(marker_id, Rect(x, y, m, m), role)
        for marker_id, (x, y), role in zip(ids, origins, CORNERS, strict=True)
    )


def _board(
    game: str,
    kind: str,
    seat: int,
    title: str,
    size: tuple[float, float],
    regions: Sequence[Region],
    content: dict[str, Any] | None = None,
    copy: int | None = None,
) -> Layout:
    """A board; ``copy`` numbers the printed copies of its kind when it differs from the seat."""
    number = seat if copy is None else copy
    return Layout(
        key=f"{game}/{kind}/{number}",
        game=game,
        kind=kind,
        title=title,
        size=size,
        markers=corner_markers(game, kind, number, size),
        regions=tuple(regions),
        seat=seat,
        content=MappingProxyType(content or {}),
    )


def canvas_board(board: CanvasBoard, seat: int) -> Layout:
    """A Color Field canvas: six 40 mm spaces and the ten two-colour segments around them."""
    size = (2 * CORNER_ZONE + 3 * TILE_PITCH, 2 * CORNER_ZONE + 2 * TILE_PITCH)
    gx = gy = CORNER_ZONE
    inset = (TILE_PITCH - TILE_MM) / 2
    regions = [
        Region(
            f"space {1 + 3 * row + col}",
            "space",
            Rect(gx + col * TILE_PITCH + inset, gy + row * TILE_PITCH + inset, TILE_MM, TILE_MM),
        )
        for row in range(2)
        for col in range(3)
    ]
    bands = {
        "top": lambda i: Rect(gx + i * TILE_PITCH, gy - SEGMENT_BAND, TILE_PITCH, SEGMENT_BAND),
        "bottom": lambda i: Rect(
            gx + i * TILE_PITCH, gy + 2 * TILE_PITCH, TILE_PITCH, SEGMENT_BAND
        ),
        "left": lambda i: Rect(gx - SEGMENT_BAND, gy + i * TILE_PITCH, SEGMENT_BAND, TILE_PITCH),
        "right": lambda i: Rect(gx + 3 * TILE_PITCH, gy + i * TILE_PITCH, SEGMENT_BAND, TILE_PITCH),
    }
    for side, count in SEGMENT_COUNTS.items():
        for index in range(count):
            colours = board.segment(side, index)
            regions.append(
                Region(
                    f"{side}[{index}]",
                    "segment",
                    bands[side](index),
                    MappingProxyType({"colors": [c.value for c in colours]}),
                )
            )
    content = {
        "board": board.id,
        **{side: [[a.value, b.value] for a, b in getattr(board, side)] for side in SEGMENT_COUNTS},
    }
    return _board(
        "colorfield", "canvas", seat, f"Color Field canvas {board.id}", size, regions, content
    )


def _card_row(x0: float, y: float, count: int, names: Sequence[str]) -> list[Region]:
    pitch = CARD[0] + 4.0
    return [
        Region(name, "card", Rect(x0 + i * pitch, y, CARD[0], CARD[1]))
        for i, name in zip(range(count), names, strict=True)
    ]


def painting_mat(seat: int, painting: int) -> Layout:
    """One painting's three card places side by side: the leftmost card is its bottom."""
    size = (PRINTABLE[0], 100.0)
    regions = _card_row(CORNER_ZONE + 2.0, 6.0, 3, ("card bottom", "card middle", "card top"))
    title = f"Paintings mat, seat {seat}, painting {painting}"
    copy = (seat - 1) * PAINTINGS_PER_PLAYER + painting
    content = {"painting": painting}
    return _board("paintings", "mat", seat, title, size, regions, content, copy=copy)


def art_row() -> Layout:
    """The five Art Row places (0 furthest from the deck) and the deck's place."""
    size = (PRINTABLE[0], 6.0 + 2 * CARD[1] + 4.0 + 6.0)
    x0 = CORNER_ZONE + 2.0
    regions = _card_row(x0, 6.0, 3, ("row 0", "row 1", "row 2"))
    regions += _card_row(x0, 6.0 + CARD[1] + 4.0, 3, ("row 3", "row 4", "deck"))
    return _board("paintings", "art-row", 1, "Paintings Art Row", size, regions)


def _hex_centres(island: Island, r: float) -> dict[tuple[int, int], tuple[float, float]]:
    width = math.sqrt(3) * r
    return {
        (row, col): ((col + 0.5 + 0.5 * (row % 2)) * width, r + row * 1.5 * r)
        for row, col in island.cells
    }


def isle_key(size: tuple[float, float]) -> tuple[Region, ...]:
    """The pencil key: green and blue down the left column, brown and red down the right, just
    below the top corner markers, each with its name printed on the island's side of it."""
    w, _ = size
    half_w = math.sqrt(3) * KEY_RADIUS_MM / 2
    label_w, label_h = KEY_LABEL
    top = CORNER_ZONE + 2.0 + KEY_RADIUS_MM
    regions = []
    for k, colour in enumerate(c.value for c in Colour):
        right = k >= 2
        cx = w - KEY_EDGE_MM if right else KEY_EDGE_MM
        cy = top + (k % 2) * KEY_PITCH_MM
        near = cx - half_w - 1.0 - label_w if right else cx + half_w + 1.0
        label = Rect(near, cy - label_h / 2, label_w, label_h)
        info = MappingProxyType({"colour": colour, "label": label.to_json()["rect"]})
        regions.append(Region(f"key {colour}", "key", Hexagon(cx, cy, KEY_RADIUS_MM), info))
    return tuple(regions)


def key_label(region: Region) -> Rect:
    """Where a key hexagon's colour name is printed."""
    return Rect(*region.info["label"])


def key_boxes(key: Sequence[Region]) -> list[Rect]:
    """Everything the key prints: its hexagons' and labels' boxes."""
    return [box for region in key for box in (bounds(region.shape), key_label(region))]


def isle_sheet(island: Island, seat: int) -> Layout:
    """The island's hex cells (odd rows shifted half a cell right), as large as fits, centred,
    clear of the corner markers and of the pencil key."""
    size = PRINTABLE
    corners = [m.quiet for m in corner_markers("isle", "sheet", seat, size)]
    key = isle_key(size)
    kept = [box.inset(-KEY_GAP_MM) for box in key_boxes(key)]
    r = 12.0
    while r > 4.0:
        centres = _hex_centres(island, r)
        xs = [x for x, _ in centres.values()]
        ys = [y for _, y in centres.values()]
        half_w = math.sqrt(3) * r / 2
        min_x, max_x = min(xs) - half_w, max(xs) + half_w
        min_y, max_y = min(ys) - r, max(ys) + r
        dx = (size[0] - (max_x - min_x)) / 2 - min_x
        dy = (size[1] - (max_y - min_y)) / 2 - min_y
        cells = {cell: Hexagon(x + dx, y + dy, r) for cell, (x, y) in centres.items()}
        inside = min_x + dx >= 6 and min_y + dy >= 6
        clear = not any(h.bounds.overlaps(c) for h in cells.values() for c in [*corners, *kept])
        if inside and clear:
            break
        r -= 0.5
    regions = [
        Region(f"cell {row},{col}", "cell", hexagon)
        for (row, col), hexagon in sorted(cells.items())
    ]
    content = {"island": island.id, "cell_radius_mm": r}
    return _board(
        "isle",
        "sheet",
        seat,
        f"Isle of Colors sheet, seat {seat}",
        size,
        [*regions, *key],
        content,
    )


def _slot_row(name: str, role: str, x0: float, cy: float, count: int) -> list[Region]:
    return [
        Region(f"{name} {role} {i + 1}", role, Circle(x0 + SLOT_PITCH * (i + 0.5), cy, SLOT_RADIUS))
        for i in range(count)
    ]


def palette_board(seat: int) -> Layout:
    """Four pans (windows above, binder slots below), a shade card place under each pan, and the
    Spill Line along the bottom. The wells are dark so white and yellow chips stand out."""
    well_h = 2 * SLOT_PITCH + 4.0
    columns = [
        max(SHADE_CARD[0], max(s.windows, s.binder_slots) * SLOT_PITCH + 4.0) for _, s in PAN_ORDER
    ]
    gap = 6.0
    width = sum(columns) + gap * (len(columns) - 1) + 18.0
    pans_y = CORNER_ZONE + 2.0
    cards_y = pans_y + well_h + 6.0
    spill_y = cards_y + SHADE_CARD[1] + 6.0
    height = spill_y + CORNER_ZONE
    regions: list[Region] = []
    x = 9.0
    for (name, pan), column in zip(PAN_ORDER, columns, strict=True):
        cols = max(pan.windows, pan.binder_slots)
        well_w = cols * SLOT_PITCH + 4.0
        wx = x + (column - well_w) / 2
        info = MappingProxyType(
            {"pan": pan.value, "windows": pan.windows, "binder_slots": pan.binder_slots}
        )
        regions.append(Region(f"pan {name}", "pan", Rect(wx, pans_y, well_w, well_h), info))
        regions += _slot_row(name, "window", wx + 2.0, pans_y + 2.0 + SLOT_PITCH / 2, pan.windows)
        regions += _slot_row(
            name, "binder", wx + 2.0, pans_y + 2.0 + 1.5 * SLOT_PITCH, pan.binder_slots
        )
        card_x = x + (column - SHADE_CARD[0]) / 2
        regions.append(Region(f"shade {name}", "card", Rect(card_x, cards_y, *SHADE_CARD)))
        x += column + gap
    spill_count = int((width - 2 * CORNER_ZONE - 4.0) // SLOT_PITCH)
    spill_x = (width - spill_count * SLOT_PITCH) / 2
    regions += _slot_row("spill", "slot", spill_x, height - CORNER_ZONE / 2, spill_count)
    return _board(
        "pigments", "palette", seat, f"Pigment Lab palette, seat {seat}", (width, height), regions
    )


def market_sheet() -> Layout:
    """Five crates of three chips, the Shade Row (8 cards in two rows) and the Spill Tray."""
    size = PRINTABLE
    regions: list[Region] = []
    crate_w, crate_h = 3 * SLOT_PITCH + 4.0, SLOT_PITCH + 4.0
    for crate in range(5):
        y = CORNER_ZONE + 2.0 + crate * (crate_h + 2.0)
        regions.append(Region(f"crate {crate + 1}", "crate", Rect(6.0, y, crate_w, crate_h)))
        regions += _slot_row(f"crate {crate + 1}", "slot", 8.0, y + crate_h / 2, 3)
    row_x = 6.0 + crate_w + 8.0
    for index in range(8):
        row, col = divmod(index, 4)
        rect = Rect(
            row_x + col * (SHADE_CARD[0] + 6.0),
            CORNER_ZONE + 4.0 + row * (SHADE_CARD[1] + 6.0),
            *SHADE_CARD,
        )
        regions.append(Region(f"shade row {index + 1}", "card", rect))
    tray = Rect(
        CORNER_ZONE + 2.0,
        size[1] - CORNER_ZONE + 1.0,
        size[0] - 2 * CORNER_ZONE - 4.0,
        CORNER_ZONE - 4.0,
    )
    regions.append(Region("spill tray", "tray", tray))
    return _board("pigments", "market", 1, "Pigment Lab market", size, regions)


def reference_card() -> Layout:
    """One 20 mm patch of every ink Atelier prints, for colour calibration."""
    names = list(INKS)
    per_row = 9
    rows = math.ceil(len(names) / per_row)
    pitch = 22.0
    size = (2 * CORNER_ZONE + per_row * pitch, 2 * CORNER_ZONE + rows * pitch - 20.0)
    y0 = (size[1] - rows * pitch) / 2
    regions = []
    for index, name in enumerate(names):
        row, col = divmod(index, per_row)
        rect = Rect(CORNER_ZONE + col * pitch + 1.0, y0 + row * pitch + 1.0, 20.0, 20.0)
        regions.append(
            Region(
                f"patch {name}",
                "patch",
                rect,
                MappingProxyType({"ink": name, "srgb": list(INKS[name])}),
            )
        )
    return _board("calibration", "reference", 1, "Colour reference card", size, regions)
