"""The faces of the moving pieces: paint tiles, art cards, shade cards and Fault cards."""

from __future__ import annotations

from companion.games.colorfield.model import Side
from companion.games.paintings.model import Icon
from companion.games.pigments.colour import colour_of
from companion.games.pigments.display import display
from companion.games.pigments.faults import Cause, Symptom
from companion.games.pigments.model import Chip
from vision.draw.glyphs import draw_icon
from vision.draw.surface import Surface, is_dark
from vision.layout.geometry import Rect, Triangle
from vision.layout.inks import INKS, RGB
from vision.layout.model import Layout

LINE_MM = 0.3


def _text_ink(rgb: RGB) -> str:
    return "white" if is_dark(rgb) else "ink"


def tile(surface: Surface, layout: Layout) -> None:
    """Four triangles meeting under the marker; multipliers face outwards from the centre, so a
    tile turned to bring an edge to the top shows that edge's digit upright."""
    w, h = layout.size
    band = (w - layout.markers[0].quiet.w) / 2  # the colour showing outside the white ring
    for region in layout.regions:
        assert isinstance(region.shape, Triangle)
        shape = region.shape
        surface.fill_polygon((shape.a, shape.b, shape.c), region.info["color"])
    for region in layout.regions:
        side = Side[region.name.removeprefix("edge ")]
        multiplier = int(region.info["multiplier"])
        if multiplier > 1:
            centre = {
                Side.N: (w / 2, band / 2),
                Side.E: (w - band / 2, h / 2),
                Side.S: (w / 2, h - band / 2),
                Side.W: (band / 2, h / 2),
            }[side]
            ink = _text_ink(INKS[region.info["color"]])
            surface.text(str(multiplier), centre, band * 0.6, ink, quarter_turns=side, bold=True)
    north = INKS[layout.region("edge N").info["color"]]
    if layout.content.get("up_mark"):
        # The up-mark: a caret pointing to the tile's top, right of the multiplier's place.
        x, y, s = w * 0.72, band * 0.5, band * 0.3
        surface.fill_polygon(
            ((x - s, y + s * 0.7), (x, y - s), (x + s, y + s * 0.7), (x, y + s * 0.1)),
            _text_ink(north),
        )
    south = INKS[layout.region("edge S").info["color"]]
    surface.text(str(layout.content["tile"]), (w * 0.3, h - band / 2), band * 0.3, _text_ink(south))


def art_card(surface: Surface, layout: Layout) -> None:
    """The card's id under its marker and the five icon slots along the bottom."""
    w, _ = layout.size
    surface.outline_rect(layout.outline, "frame", 1.0)
    marker = layout.markers[0].quiet
    surface.text(
        str(layout.content["card"]), (w / 2, marker.y + marker.h + 6.0), 4.0, "ink", bold=True
    )
    slots = layout.content["slots"]
    for region, icons in zip(layout.regions, slots, strict=True):
        rect = region.shape
        assert isinstance(rect, Rect)
        surface.outline_rect(rect, "grey-80", LINE_MM)
        size = min(rect.w - 2.5, rect.h / 2 - 2.5)
        cx = rect.x + rect.w / 2
        if len(icons) == 1:
            draw_icon(surface, Icon(icons[0]), (cx, rect.y + rect.h / 2), size)
        for k, name in enumerate(icons if len(icons) == 2 else ()):
            draw_icon(surface, Icon(name), (cx, rect.y + rect.h * (1 + 2 * k) / 4), size)


def shade_card(surface: Surface, layout: Layout) -> None:
    """The swatch in the shade's display colour (the Pigment Lab colour model) and its name."""
    w, h = layout.size
    surface.outline_rect(layout.outline, "frame", 0.8)
    swatch = layout.region("swatch").shape
    assert isinstance(swatch, Rect)
    rgb = display(colour_of(Chip(c) for c in layout.content["recipe"])).rgb
    surface.fill_rect(swatch, (rgb[2], rgb[1], rgb[0]))
    surface.outline_rect(swatch, "grey-60", 0.2)
    name_y = (swatch.y + swatch.h + h) / 2
    surface.text(str(layout.content["shade"]), (w / 2, name_y), 3.5, "ink", w - 6.0, bold=True)


def _wrap(words: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in words.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def fault_card(surface: Surface, layout: Layout) -> None:
    """A Fault card face: which side it is, the card's number, and the symptom or cause."""
    w, _ = layout.size
    side = str(layout.content["side"])
    text = str(layout.content["text"])
    words = Symptom(text).words if side == "symptom" else Cause(text).words
    surface.outline_rect(layout.outline, "well" if side == "cause" else "frame", 1.5)
    marker = layout.markers[0].quiet
    top = marker.y + marker.h
    surface.text(side.upper(), (w / 2, top + 6.0), 4.5, "ink", bold=True)
    surface.text(f"fault card {layout.content['card']}", (w / 2, top + 12.0), 2.5, "grey-40")
    for k, line in enumerate(_wrap(words, 20)):
        surface.text(line, (w / 2, top + 22.0 + 6.0 * k), 3.2, "ink", w - 8.0)
