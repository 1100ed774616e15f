"""Moving pieces: each carries one marker for its identity and rotation (its top is the marker's
top), and the regions a reader cross-checks against the catalogue."""

from __future__ import annotations

from types import MappingProxyType

from companion.games.colorfield.codec import edges_to_json
from companion.games.colorfield.model import Side, Tile
from companion.games.paintings.model import ArtCard
from companion.games.pigments.faults import FaultCard
from companion.games.pigments.model import Shade
from vision.layout.boards import CARD, SHADE_CARD, TILE_MM
from vision.layout.geometry import Rect, Triangle
from vision.layout.ids import PIECE_MARKER_MM, piece_marker_id
from vision.layout.model import Layout, MarkerSpec, Region

SLOTS_TOP = 60.0  # art cards: the five icon slots run along the bottom from here


def _marker(block: str, index: int, x: float, y: float) -> tuple[MarkerSpec, ...]:
    rect = Rect(x, y, PIECE_MARKER_MM, PIECE_MARKER_MM)
    return (MarkerSpec(piece_marker_id(block, index), rect),)


def tile(tile_: Tile, index: int) -> Layout:
    """A 40 mm paint tile: one triangle per edge, meeting under the central marker."""
    s = TILE_MM
    c = (s / 2, s / 2)
    corners = ((0.0, 0.0), (s, 0.0), (s, s), (0.0, s))
    regions = []
    for side in Side:
        a, b = corners[side], corners[(side + 1) % 4]
        edge = tile_.edges[side]
        info = MappingProxyType({"color": edge.colour.value, "multiplier": edge.multiplier})
        regions.append(Region(f"edge {side.name}", "edge", Triangle(a, b, c), info))
    offset = (s - PIECE_MARKER_MM) / 2
    return Layout(
        key=f"colorfield/tile/{tile_.id}",
        game="colorfield",
        kind="tile",
        title=f"Paint tile {tile_.id}",
        size=(s, s),
        markers=_marker("colorfield/tile", index, offset, offset),
        regions=tuple(regions),
        content=MappingProxyType(
            {
                "tile": tile_.id,
                "deck": tile_.kind.value if tile_.kind else None,
                "up_mark": tile_.up_mark,
                "edges": edges_to_json(tile_.edges),
            }
        ),
    )


def art_card(card: ArtCard, index: int) -> Layout:
    """An art card: marker at the top, the five icon slots along the bottom."""
    w, h = CARD
    slot_w = (w - 3.0) / 5
    regions = tuple(
        Region(
            f"slot {i + 1}", "slot", Rect(1.5 + i * slot_w, SLOTS_TOP, slot_w, h - SLOTS_TOP - 2.0)
        )
        for i in range(5)
    )
    return Layout(
        key=f"paintings/art-card/{card.id}",
        game="paintings",
        kind="art-card",
        title=f"Art card {card.id}",
        size=CARD,
        markers=_marker("paintings/art-card", index, (w - PIECE_MARKER_MM) / 2, 6.0),
        regions=regions,
        content=MappingProxyType(
            {"card": card.id, "slots": [[i.value for i in s] for s in card.slots]}
        ),
    )


def shade_card(shade: Shade, index: int) -> Layout:
    """A shade card's face: marker, the colour swatch and its name (the recipe is on the back)."""
    w, _ = SHADE_CARD
    swatch = Rect(3.0, 4.0 + PIECE_MARKER_MM + 3.0, w - 6.0, 14.0)
    return Layout(
        key=f"pigments/shade/{shade.name}",
        game="pigments",
        kind="shade",
        title=f"Shade card {shade.name}",
        size=SHADE_CARD,
        markers=_marker("pigments/shade", index, (w - PIECE_MARKER_MM) / 2, 4.0),
        regions=(Region("swatch", "swatch", swatch),),
        content=MappingProxyType({"shade": shade.name, "recipe": [c.value for c in shade.recipe]}),
    )


def fault_card_sides(card: FaultCard, number: int, index: int) -> tuple[Layout, Layout]:
    """Both faces of a Fault card, each with its own marker, so a flipped card is still known."""
    w, _ = CARD
    faces = []
    for face, text in enumerate((card.symptom.value, card.cause.value)):
        side = ("symptom", "cause")[face]
        faces.append(
            Layout(
                key=f"pigments/fault/{number:02d}-{side}",
                game="pigments",
                kind="fault",
                title=f"Fault card {number}, {side} side",
                size=CARD,
                markers=_marker("pigments/fault", 2 * index + face, (w - PIECE_MARKER_MM) / 2, 6.0),
                regions=(),
                content=MappingProxyType({"card": number, "side": side, "text": text}),
            )
        )
    return faces[0], faces[1]
