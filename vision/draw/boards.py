"""The faces of the boards: Color Field canvases, Paintings mats and Art Row, Isle sheets, Pigment
Lab palettes and market, and the colour reference card."""

from __future__ import annotations

from vision.draw.surface import Surface, is_dark
from vision.layout.boards import CELL_DOT_MM, CORNER_ZONE, key_label
from vision.layout.geometry import Circle, Hexagon, Rect, bounds
from vision.layout.inks import INKS
from vision.layout.model import Layout, Region

LINE_MM = 0.4
TITLE_MM = 5.0


def _title(surface: Surface, layout: Layout, words: str) -> None:
    """The board's name, centred in the strip between its two top corner markers."""
    w, _ = layout.size
    top = min(bounds(r.shape).y for r in layout.regions)
    surface.text(words, (w / 2, top / 2), TITLE_MM, "grey-20", w - 2 * CORNER_ZONE - 4.0)


def _side_label(surface: Surface, layout: Layout, lines: list[str]) -> None:
    """Short lines in the left margin between the top-left and bottom-left markers."""
    _, h = layout.size
    for k, line in enumerate(lines):
        y = h / 2 + (k - (len(lines) - 1) / 2) * 6.0
        surface.text(line, (CORNER_ZONE / 2, y), 3.5, "grey-20", CORNER_ZONE - 4.0)


def _rect(region: Region) -> Rect:
    assert isinstance(region.shape, Rect)
    return region.shape


def _circle(region: Region) -> Circle:
    assert isinstance(region.shape, Circle)
    return region.shape


def _card_place(surface: Surface, region: Region, label: str) -> None:
    rect = _rect(region)
    surface.outline_rect(rect, "grey-60", LINE_MM)
    surface.text(label, rect.centre, 4.0, "ink", rect.w - 6.0, bold=True)


def canvas(surface: Surface, layout: Layout) -> None:
    """Six spaces outlined and numbered; each border segment split lengthwise into its two
    colours, the first on the top (horizontal segments) or left (vertical segments) strip."""
    for region in layout.regions:
        rect = _rect(region)
        if region.role == "segment":
            first, second = region.info["colors"]
            if rect.w >= rect.h:
                half = rect.h / 2
                surface.fill_rect(Rect(rect.x, rect.y, rect.w, half), first)
                surface.fill_rect(Rect(rect.x, rect.y + half, rect.w, rect.h - half), second)
            else:
                half = rect.w / 2
                surface.fill_rect(Rect(rect.x, rect.y, half, rect.h), first)
                surface.fill_rect(Rect(rect.x + half, rect.y, rect.w - half, rect.h), second)
            surface.outline_rect(rect, "paper", 0.3)
        else:
            surface.outline_rect(rect, "grey-40", LINE_MM)
            number = region.name.removeprefix("space ")
            surface.text(number, (rect.x + 3.5, rect.y + 4.0), 3.0, "grey-60")
    board = layout.content.get("board", "")
    _title(surface, layout, f"Color Field  {board}  seat {layout.seat}")


def painting_mat(surface: Surface, layout: Layout) -> None:
    for region in layout.regions:
        _card_place(surface, region, region.name.removeprefix("card "))
    _side_label(surface, layout, [f"seat {layout.seat}", f"painting {layout.content['painting']}"])


def art_row(surface: Surface, layout: Layout) -> None:
    for region in layout.regions:
        _card_place(surface, region, region.name)
    _side_label(surface, layout, ["Art", "Row"])


def isle_sheet(surface: Surface, layout: Layout) -> None:
    """Thin light outlines, and an ink dot in the middle of each cell: the cells, and the pencil
    key with each colour's name beside it, are coloured in by hand with pencils."""
    for region in layout.regions:
        assert isinstance(region.shape, Hexagon)
        surface.outline_polygon(region.shape.corners(), "grey-80", 0.3)
        if region.role == "key":
            label = key_label(region)
            surface.text(str(region.info["colour"]), label.centre, 2.5, "grey-60", label.w)
        else:
            surface.circle((region.shape.cx, region.shape.cy), CELL_DOT_MM, "ink", None)
    w, h = layout.size
    surface.text(f"Isle of Colors  seat {layout.seat}", (w / 2, h - 3.0), 2.5, "grey-60")


def palette(surface: Surface, layout: Layout) -> None:
    """Dark wells with chip rings (binder rings marked B), shade card places and the Spill Line."""
    for region in layout.regions:
        if region.role == "pan":
            surface.fill_rect(_rect(region), "well")
    for region in layout.regions:
        if region.role in ("window", "binder"):
            ring = _circle(region)
            surface.circle((ring.cx, ring.cy), ring.r, "grey-80", LINE_MM)
            if region.role == "binder":
                surface.text("B", (ring.cx, ring.cy), 4.0, "grey-80", bold=True)
        elif region.role == "slot":
            ring = _circle(region)
            surface.circle((ring.cx, ring.cy), ring.r, "grey-40", LINE_MM)
        elif region.role == "card":
            pan = region.name.removeprefix("shade ").split("-")[0]
            _card_place(surface, region, f"{pan} pan")
    first_spill = _circle(next(r for r in layout.regions if r.role == "slot"))
    w, _ = layout.size
    surface.text(
        "SPILL LINE", (w / 2, first_spill.cy - first_spill.r - 3.0), 3.0, "grey-40", bold=True
    )
    _title(surface, layout, f"Pigment Lab palette  seat {layout.seat}")


def market(surface: Surface, layout: Layout) -> None:
    """Crates of three rings, the eight Shade Row places and the dark Spill Tray."""
    for region in layout.regions:
        if region.role == "crate":
            surface.fill_rect(_rect(region), "frame")
            surface.outline_rect(_rect(region), "grey-40", LINE_MM)
        elif region.role == "slot":
            ring = _circle(region)
            surface.circle((ring.cx, ring.cy), ring.r, "grey-40", LINE_MM)
        elif region.role == "card":
            _card_place(surface, region, region.name.removeprefix("shade row "))
        elif region.role == "tray":
            tray = _rect(region)
            surface.fill_rect(tray, "well")
            surface.text("SPILL TRAY", tray.centre, 4.0, "grey-60", bold=True)
    _title(surface, layout, "Pigment Lab market")


def reference_card(surface: Surface, layout: Layout) -> None:
    """Every ink as a patch, its name in the gap below it."""
    for region in layout.regions:
        rect = _rect(region)
        ink = str(region.info["ink"])
        surface.fill_rect(rect, ink)
        if not is_dark(INKS[ink]):
            surface.outline_rect(rect.inset(-0.2), "grey-80", 0.2)
        surface.text(ink, (rect.centre[0], rect.y + rect.h + 1.0), 1.2, "ink", rect.w)
    _title(surface, layout, "Atelier colour reference")
