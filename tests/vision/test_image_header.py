"""An image's size read from its header, before any decoder runs: every kind Atelier reads,
headers that lie about their size, and files that end too soon or are no image at all."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from vision.image_header import ALL_KINDS, HeaderError, Kind, read_header
from vision.images import MAX_PIXELS, ImageError, decode_image

PICTURE = np.random.default_rng(7).integers(0, 255, (37, 53, 3), dtype=np.uint8)


def encoded(suffix: str, *params: int) -> bytes:
    ok, data = cv2.imencode(suffix, PICTURE, list(params))
    assert ok
    return data.tobytes()


def png_header(width: int, height: int) -> bytes:
    body = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + body + struct.pack(">I", zlib.crc32(body))


def jpeg_header(width: int, height: int) -> bytes:
    """SOI, an APP0 segment, then a baseline frame header (SOF0) declaring the size."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof


@pytest.mark.parametrize(
    ("suffix", "params", "kind"),
    [
        (".jpg", (), Kind.JPEG),
        (".jpg", (cv2.IMWRITE_JPEG_PROGRESSIVE, 1), Kind.JPEG),
        (".png", (), Kind.PNG),
        (".bmp", (), Kind.BMP),
        (".tiff", (), Kind.TIFF),
        (".webp", (cv2.IMWRITE_WEBP_QUALITY, 80), Kind.WEBP),
        (".webp", (cv2.IMWRITE_WEBP_QUALITY, 101), Kind.WEBP),  # above 100: lossless
    ],
)
def test_every_kind_declares_the_size_it_decodes_to(
    suffix: str, params: tuple[int, ...], kind: Kind
) -> None:
    data = encoded(suffix, *params)
    header = read_header(data)
    assert (header.kind, header.width, header.height) == (kind, 53, 37)
    assert decode_image(data).shape == (37, 53, 3)


def test_a_webp_with_an_extended_header_and_a_top_down_bmp() -> None:
    vp8x = b"RIFF\x00\x00\x00\x00WEBPVP8X" + struct.pack("<I", 10) + b"\x00" * 4
    vp8x += (8191).to_bytes(3, "little") + (6143).to_bytes(3, "little")
    assert read_header(vp8x).pixels == MAX_PIXELS
    bmp = bytearray(encoded(".bmp"))
    bmp[22:26] = struct.pack("<i", -37)
    assert (read_header(bytes(bmp)).width, read_header(bytes(bmp)).height) == (53, 37)


@pytest.mark.parametrize("order", [b"II", b"MM"])
def test_classic_and_big_tiff_headers_in_either_byte_order(order: bytes) -> None:
    fmt = "<" if order == b"II" else ">"
    classic = order + struct.pack(fmt + "HI", 42, 8) + struct.pack(fmt + "H", 2)
    classic += struct.pack(fmt + "HHI", 256, 4, 1) + struct.pack(fmt + "I", 40_000)
    classic += struct.pack(fmt + "HHI", 257, 3, 1) + struct.pack(fmt + "H", 30_000) + b"\0\0"
    assert (read_header(classic).width, read_header(classic).height) == (40_000, 30_000)
    big = order + struct.pack(fmt + "HHHQ", 43, 8, 0, 16) + struct.pack(fmt + "Q", 2)
    big += struct.pack(fmt + "HHQQ", 256, 16, 1, 2**33)
    big += struct.pack(fmt + "HHQ", 257, 3, 1) + struct.pack(fmt + "H", 5) + b"\0" * 6
    assert (read_header(big).width, read_header(big).height) == (2**33, 5)


def test_the_pixel_limit_is_a_50_megapixel_photo_and_no_more() -> None:
    # Only headers: within the limit the decoder runs and finds nothing more.
    with pytest.raises(ImageError, match="a damaged PNG that cannot be decoded"):
        decode_image(png_header(8192, 6144))
    with pytest.raises(ImageError) as refused:
        decode_image(png_header(8192, 6145))
    assert str(refused.value) == (
        "8192x6145 is 50,339,840 pixels, more than a 50-megapixel photo (at most 50,331,648)"
    )
    with pytest.raises(ImageError, match=r"^60000x60000 is 3,600,000,000 pixels"):
        decode_image(jpeg_header(60_000, 60_000))
    with pytest.raises(ImageError, match="the JPEG declares no pixels"):
        decode_image(jpeg_header(640, 0))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"GIF89a" + b"\0" * 40, "not an image (expected JPEG, PNG, BMP, TIFF or WebP)"),
        (b"plain text", "not an image (expected JPEG, PNG, BMP, TIFF or WebP)"),
        (png_header(64, 64)[:20], "a PNG whose header is cut short or damaged"),
        (jpeg_header(64, 64)[:-6], "a JPEG whose header is cut short or damaged"),
        (b"\xff\xd8\xff\xda\x00\x08" + b"\0" * 20, "a JPEG whose header is cut short or damaged"),
        (encoded(".bmp")[:20], "a BMP whose header is cut short or damaged"),
        (encoded(".tiff")[:12], "a TIFF whose header is cut short or damaged"),
        (encoded(".webp", cv2.IMWRITE_WEBP_QUALITY, 80)[:27], "a WebP whose header is cut short"),
    ],
)
def test_no_image_or_a_header_cut_short_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(HeaderError) as refused:
        read_header(data)
    assert str(refused.value).startswith(message)


def test_a_caller_may_accept_fewer_kinds() -> None:
    with pytest.raises(HeaderError, match=r"^not an image \(expected JPEG or PNG\)$"):
        read_header(encoded(".tiff"), (Kind.JPEG, Kind.PNG))
    assert read_header(encoded(".png"), (Kind.PNG,)).kind is Kind.PNG
    assert set(ALL_KINDS) == set(Kind)
