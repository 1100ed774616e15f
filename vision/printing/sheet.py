"""One printed sheet: components pasted where the packing put them, a thin cut line around each,
and a footer saying which sheet it is and how to print it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.draw.surface import Surface, bgr
from vision.images import Image
from vision.printing.paper import MARGIN_MM, PPM, pixels

CUT_PX = 2  # a 0.17 mm line at 300 dpi: visible, and thin enough to cut along
FOOTER_MM = 2.5


@dataclass(frozen=True)
class Pasted:
    image: Image
    origin: tuple[int, int]  # the component's top-left pixel on the sheet


def compose(size_mm: tuple[float, float], pieces: Sequence[Pasted], footer: str) -> Image:
    """The sheet at 300 dpi. Cut lines lie just outside each component, never over it."""
    sheet = Surface(size_mm, PPM, "white")
    image = sheet.image
    line = bgr("grey-40")
    lowest = MARGIN_MM
    for piece in pieces:
        x, y = piece.origin
        rows, cols = piece.image.shape[:2]
        image[y - CUT_PX : y + rows + CUT_PX, x - CUT_PX : x + cols + CUT_PX] = line
        image[y : y + rows, x : x + cols] = piece.image
        lowest = max(lowest, (y + rows) / PPM)
    width, height = size_mm
    # In the printable area when the components leave room for it, else in the bottom margin.
    room = height - MARGIN_MM - lowest
    footer_y = height - MARGIN_MM - FOOTER_MM if room > 2 * FOOTER_MM else height - MARGIN_MM / 2
    sheet.text(footer, (width / 2, footer_y), FOOTER_MM, "grey-40", width - 2 * MARGIN_MM)
    return image


def origin(x_mm: float, y_mm: float) -> tuple[int, int]:
    """The pixel a component placed at (x, y) mm starts at: whole pixels, so pasting is exact."""
    return pixels(x_mm), pixels(y_mm)
