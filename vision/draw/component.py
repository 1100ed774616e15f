"""``draw_layout``: the printed face of any component, its markers exactly where its layout says."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from vision.draw import boards, pieces
from vision.draw.surface import Surface
from vision.images import Image
from vision.layout.model import Layout

Drawer = Callable[[Surface, Layout], None]

DRAWERS: Mapping[tuple[str, str], Drawer] = MappingProxyType(
    {
        ("colorfield", "canvas"): boards.canvas,
        ("colorfield", "tile"): pieces.tile,
        ("paintings", "mat"): boards.painting_mat,
        ("paintings", "art-row"): boards.art_row,
        ("paintings", "art-card"): pieces.art_card,
        ("isle", "sheet"): boards.isle_sheet,
        ("pigments", "palette"): boards.palette,
        ("pigments", "market"): boards.market,
        ("pigments", "shade"): pieces.shade_card,
        ("pigments", "fault"): pieces.fault_card,
        ("calibration", "reference"): boards.reference_card,
    }
)


def draw_layout(layout: Layout, px_per_mm: float) -> Image:
    """The printed face of ``layout`` as a BGR image ``round(h * px_per_mm)`` by
    ``round(w * px_per_mm)``; pixel (i, j) is centred on (i, j) / px_per_mm mm, so each marker's
    corners are detected at its rectangle's corners times ``px_per_mm``."""
    if px_per_mm <= 0:
        raise ValueError(f"px_per_mm must be positive, not {px_per_mm}")
    drawer = DRAWERS.get((layout.game, layout.kind))
    if drawer is None:
        raise KeyError(f"no drawing for {layout.game} {layout.kind} components")
    background = "white" if layout.kind == "tile" else "paper"
    surface = Surface(layout.size, px_per_mm, background)
    drawer(surface, layout)
    # Markers last, on their white rings, so nothing printed can spill into them.
    for marker in layout.markers:
        surface.fill_rect(marker.quiet, "white")
        surface.marker(marker.id, marker.rect)
    return surface.image
