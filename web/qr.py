"""The join link as a QR code: SVG for the page, block characters for the terminal."""

from __future__ import annotations

import qrcode
from qrcode.constants import ERROR_CORRECT_M

QUIET = 4  # modules of white border a reader needs around the code


def _matrix(text: str) -> list[list[bool]]:
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=QUIET)
    code.add_data(text)
    code.make(fit=True)
    return [[bool(cell) for cell in row] for row in code.get_matrix()]


def qr_svg(text: str) -> str:
    """An SVG of the code, one path, scaled by its container (safe to inline in a page)."""
    matrix = _matrix(text)
    size = len(matrix)
    path = "".join(
        f"M{x},{y}h1v1h-1z" for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'class="qr" role="img" aria-label="QR code of the link" shape-rendering="crispEdges">'
        f'<rect width="{size}" height="{size}" fill="#fff"/><path d="{path}" fill="#000"/></svg>'
    )


def qr_text(text: str) -> str:
    """The code in half-block characters, two modules per character cell, dark on light."""
    matrix = _matrix(text)
    if len(matrix) % 2:
        matrix.append([False] * len(matrix[0]))
    blocks = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
    lines = [
        "".join(blocks[(top, bottom)] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(matrix[::2], matrix[1::2], strict=True)
    ]
    return "\n".join(lines)
