"""An image file's format and size in pixels, read from its first bytes without decoding it.

A decoder allocates what a header declares: a 100 KB PNG can declare 30000x30000 pixels, 2.7 GB
once decoded. Reading the header first lets a caller refuse such a file before any decoder runs.
The formats are those Atelier reads photos in: JPEG, PNG, BMP, TIFF and WebP. Nothing else is
handed to a decoder.
"""

from __future__ import annotations

import struct
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    JPEG = "JPEG"
    PNG = "PNG"
    BMP = "BMP"
    TIFF = "TIFF"
    WEBP = "WebP"


ALL_KINDS = tuple(Kind)
# Start-of-frame markers, which carry a JPEG's size: every SOFn but DHT (C4), JPG (C8), DAC (CC).
JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# Markers that stand alone, with no length after them: TEM and the restart markers.
JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})
JPEG_SOS = 0xDA  # start of scan: the compressed data follows, and a frame header came before
TIFF_WIDTH, TIFF_HEIGHT = 256, 257


class HeaderError(ValueError):
    """Bytes that are not an image of an accepted kind, or whose header cannot be read; the
    message is one line."""


@dataclass(frozen=True)
class Header:
    kind: Kind
    width: int
    height: int

    @property
    def pixels(self) -> int:
        return self.width * self.height


def read_header(data: bytes, kinds: Collection[Kind] = ALL_KINDS) -> Header:
    """The kind and size ``data`` declares, when it is one of ``kinds``."""
    kind = _kind(data)
    if kind is None or kind not in kinds:
        names = [k.value for k in ALL_KINDS if k in kinds]
        listed = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]
        raise HeaderError(f"not an image (expected {listed})")
    try:
        size = _SIZES[kind](data)
    except struct.error:  # the header ends before its size does
        size = None
    if size is None:
        raise HeaderError(f"a {kind.value} whose header is cut short or damaged")
    return Header(kind, *size)


def _kind(data: bytes) -> Kind | None:
    if data.startswith(b"\xff\xd8\xff"):
        return Kind.JPEG
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return Kind.PNG
    if data.startswith(b"BM"):
        return Kind.BMP
    if data[:4] in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"):
        return Kind.TIFF
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return Kind.WEBP
    return None


def _png(data: bytes) -> tuple[int, int] | None:
    # The first chunk is IHDR, 13 bytes long, starting with the width and height.
    if data[8:16] != b"\x00\x00\x00\x0dIHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def _jpeg(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker == 0xFF:
            at += 1  # a fill byte
            continue
        if marker in JPEG_STANDALONE:
            at += 2
            continue
        if marker == JPEG_SOS:
            break
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in JPEG_SOF:
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return int(width), int(height)
        at += 2 + length
    return None


def _bmp(data: bytes) -> tuple[int, int] | None:
    (info_size,) = struct.unpack("<I", data[14:18])
    if info_size == 12:  # the OS/2 1.x header: 16-bit sizes
        width, height = struct.unpack("<HH", data[18:22])
        return int(width), int(height)
    width, height = struct.unpack("<ii", data[18:26])
    if width < 0:
        return None
    # A negative height means rows are stored top down; the size is the same.
    return int(width), abs(int(height))


def _tiff(data: bytes) -> tuple[int, int] | None:
    """The size of the first image (OpenCV decodes the first page), classic or BigTIFF."""
    order = "<" if data[:2] == b"II" else ">"
    big = data[2:4] in (b"+\x00", b"\x00+")
    if big:
        (first,) = struct.unpack(order + "Q", data[8:16])
        count_format, entry_size, value_at = "Q", 20, 12
    else:
        (first,) = struct.unpack(order + "I", data[4:8])
        count_format, entry_size, value_at = "H", 12, 8
    count_size = struct.calcsize(count_format)
    (count,) = struct.unpack(order + count_format, data[first : first + count_size])
    found: dict[int, int] = {}
    for index in range(count):
        entry = first + count_size + index * entry_size
        tag, kind = struct.unpack(order + "HH", data[entry : entry + 4])
        if tag in (TIFF_WIDTH, TIFF_HEIGHT):
            value = data[entry + value_at : entry + entry_size]
            # SHORT (3) and LONG (4) values sit at the start of the value field; LONG8 (16)
            # fills it.
            value_format = {3: "H", 4: "I", 16: "Q"}.get(kind)
            if value_format is None:
                return None
            size = struct.calcsize(value_format)
            (found[tag],) = struct.unpack(order + value_format, value[:size])
    if TIFF_WIDTH not in found or TIFF_HEIGHT not in found:
        return None
    return found[TIFF_WIDTH], found[TIFF_HEIGHT]


def _webp(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":  # lossy: 14-bit sizes after the key frame's start code
        if data[23:26] != b"\x9d\x01\x2a":
            return None
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":  # lossless: a signature byte, then 14 bits each of width-1, height-1
        if data[20:21] != b"\x2f":
            return None
        (bits,) = struct.unpack("<I", data[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":  # extended: the canvas, 24 bits each of width-1, height-1
        width, height = struct.unpack("<II", data[24:27] + b"\0" + data[27:30] + b"\0")
        return int(width) + 1, int(height) + 1
    return None


_SIZES = {
    Kind.JPEG: _jpeg,
    Kind.PNG: _png,
    Kind.BMP: _bmp,
    Kind.TIFF: _tiff,
    Kind.WEBP: _webp,
}
