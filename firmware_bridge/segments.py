"""What an 8-digit seven-segment display shows, as MAX7219 no-decode cells.

A cell has the decimal point in bit 7 and segments A..G in bits 6..0; ``cells[0]`` is the leftmost
digit. The same font and layout are in the firmware (``firmware/atelier_led/src/display.c``).
"""

from __future__ import annotations

from firmware_bridge.messages import DIGITS, SCORE_MAX, SCORE_MIN

SEGMENT_DP = 0x80
_GLYPHS: dict[str, int] = {
    " ": 0x00, "-": 0x01, "=": 0x09, "_": 0x08,
    "0": 0x7E, "1": 0x30, "2": 0x6D, "3": 0x79, "4": 0x33,
    "5": 0x5B, "6": 0x5F, "7": 0x70, "8": 0x7F, "9": 0x7B,
    "A": 0x77, "B": 0x1F, "C": 0x4E, "D": 0x3D, "E": 0x4F, "F": 0x47, "G": 0x5E,
    "H": 0x37, "I": 0x06, "J": 0x3C, "K": 0x57, "L": 0x0E, "M": 0x54, "N": 0x15,
    "O": 0x1D, "P": 0x67, "Q": 0x73, "R": 0x05, "S": 0x5B, "T": 0x0F, "U": 0x3E,
    "V": 0x1C, "W": 0x2A, "X": 0x37, "Y": 0x3B, "Z": 0x6D,
}  # fmt: skip
# Seven segments cannot tell S from 5 or Z from 2: reading a cell gives the first character
# above with that pattern, so digits win.
_READ: dict[int, str] = {}
for _char, _pattern in _GLYPHS.items():
    _READ.setdefault(_pattern, _char)

SUPPORTED = frozenset(_GLYPHS) | frozenset(c.lower() for c in _GLYPHS) | {"."}


def unsupported(text: str) -> str | None:
    """The first character of ``text`` that the displays cannot draw, if any."""
    return next((c for c in text if c not in SUPPORTED), None)


def glyph(char: str) -> int:
    return _GLYPHS.get(char.upper(), 0)


def render_text(text: str) -> tuple[int, ...]:
    """Left-aligned; a '.' lights the decimal point of the character before it."""
    cells: list[int] = []
    for char in text:
        if char == "." and cells and not cells[-1] & SEGMENT_DP:
            cells[-1] |= SEGMENT_DP
        elif len(cells) < DIGITS:
            cells.append(SEGMENT_DP if char == "." else glyph(char))
    return tuple(cells) + (0,) * (DIGITS - len(cells))


def render_score(score: int) -> tuple[int, ...]:
    """Right-aligned decimal; a score that does not fit in 8 digits shows eight dashes."""
    if not SCORE_MIN <= score <= SCORE_MAX:
        return (_GLYPHS["-"],) * DIGITS
    return render_text(f"{score:>{DIGITS}d}")


def read_cells(cells: tuple[int, ...]) -> str:
    """The characters a person reads on the display ('?' for a pattern outside the font)."""
    out = []
    for cell in cells:
        out.append(_READ.get(cell & ~SEGMENT_DP & 0xFF, "?"))
        if cell & SEGMENT_DP:
            out.append(".")
    return "".join(out)


def shown_text(text: str) -> str:
    """How ``text`` reads back from a display (upper case, S as 5, padded to 8 digits)."""
    return read_cells(render_text(text))


def shown_score(score: int) -> str:
    return read_cells(render_score(score))
