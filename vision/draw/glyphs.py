"""The Paintings icons: one shape per element, each in its own ink, so an icon is told apart by
shape even where its colour is hard to see. A bonus icon is its element's shape in outline with a
small star beside it."""

from __future__ import annotations

import math

from companion.games.paintings.model import Icon
from vision.draw.surface import Surface
from vision.layout.geometry import Point

LINE_MM = 0.6


def _star(centre: Point, r: float) -> list[Point]:
    cx, cy = centre
    return [
        (
            cx + (r if k % 2 == 0 else r * 0.42) * math.cos(math.radians(-90 + 36 * k)),
            cy + (r if k % 2 == 0 else r * 0.42) * math.sin(math.radians(-90 + 36 * k)),
        )
        for k in range(10)
    ]


def _outline(element: Icon, centre: Point, size: float) -> list[Point]:
    """The polygon of a shape-like element (everything but hue's circle)."""
    cx, cy = centre
    h = size / 2
    if element is Icon.SHAPE:
        return [(cx, cy - h), (cx + h, cy + h * 0.8), (cx - h, cy + h * 0.8)]
    if element is Icon.TEXTURE:
        s = h * 0.85
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    return [(cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy)]  # tone: a diamond


def draw_icon(surface: Surface, icon: Icon, centre: Point, size: float) -> None:
    """``icon`` about ``size`` mm across, centred on ``centre``."""
    element = icon.element
    ink = element.value
    cx, cy = centre
    if icon.is_bonus:
        if element is Icon.HUE:
            surface.circle(centre, size / 2 - LINE_MM / 2, ink, LINE_MM)
        else:
            surface.outline_polygon(_outline(element, centre, size), ink, LINE_MM)
        surface.fill_polygon(_star((cx + size * 0.42, cy - size * 0.42), size * 0.22), ink)
        return
    if element is Icon.HUE:
        surface.circle(centre, size / 2, ink, None)
        return
    polygon = _outline(element, centre, size)
    surface.fill_polygon(polygon, ink)
    if element is Icon.TEXTURE:
        # Two light diagonal stripes: the texture glyph is striped, not flat.
        s = size / 2 * 0.85
        surface.line((cx - s, cy), (cx, cy - s), "white", LINE_MM)
        surface.line((cx, cy + s), (cx + s, cy), "white", LINE_MM)
    elif element is Icon.TONE:
        # Tone is light against dark: the right half of the diamond is pale.
        h = size / 2
        surface.fill_polygon([(cx, cy - h * 0.8), (cx + h * 0.8, cy), (cx, cy + h * 0.8)], "paper")
