"""Images the commands refuse before decoding them, and decoders that stay quiet: a file
whose header declares more pixels than a 50-megapixel photo is refused with one line naming the
file and its size, and a damaged file's warnings from libpng never add a second line."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.cli import assert_user_error, atelier, atelier_main

ROOT = Path(__file__).parents[2]
TOO_MANY = "100000x100000 is 10,000,000,000 pixels, more than a 50-megapixel photo"


def chunk(kind: bytes, data: bytes, crc: int | None = None) -> bytes:
    crc = zlib.crc32(kind + data) if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png(width: int, height: int, *chunks: bytes) -> bytes:
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    return b"\x89PNG\r\n\x1a\n" + header + b"".join(chunks)


def damaged_png() -> bytes:
    """A PNG with a text chunk whose CRC is wrong (libpng warns) and half its pixels missing
    (the decode fails)."""
    ok, data = cv2.imencode(".png", np.random.default_rng(3).integers(0, 255, (300, 400, 3)))
    assert ok
    whole = data.tobytes()
    after_header = 8 + 25
    bad_text = chunk(b"tEXt", b"Comment\0scan", crc=1234)
    with_warning = whole[:after_header] + bad_text + whole[after_header:]
    return with_warning[: len(with_warning) // 2]


@pytest.mark.parametrize("command", [["scan"], ["markers"], ["calibrate", "color"]])
def test_a_header_declaring_10_gigapixels_is_refused_in_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    # With pixel data following, OpenCV itself failed on this file with an internal error.
    path = tmp_path / "huge.png"
    path.write_bytes(png(100_000, 100_000, chunk(b"IDAT", zlib.compress(b"\0" * 1000))))
    profile: list[str | Path] = ["--profile", tmp_path / "p.json"]
    args = [*command, path, *(profile if "calibrate" in command else [])]
    assert_user_error(atelier_main(*args), f"atelier: {path}: {TOO_MANY}")
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_header_only_and_a_jpeg_claiming_60000_square(tmp_path: Path) -> None:
    bare = tmp_path / "bare.png"
    bare.write_bytes(png(100_000, 100_000))
    assert_user_error(atelier_main("scan", bare), f"{bare}: {TOO_MANY}")
    jpeg = tmp_path / "wide.jpg"
    frame = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 60_000, 60_000, 1) + b"\x01\x11\x00"
    jpeg.write_bytes(b"\xff\xd8" + frame + b"\xff\xd9")
    assert_user_error(atelier_main("scan", jpeg), f"{jpeg}: 60000x60000 is 3,600,000,000 pixels")


def test_a_damaged_png_is_one_line_though_libpng_warns(tmp_path: Path) -> None:
    path = tmp_path / "damaged.png"
    path.write_bytes(damaged_png())
    # The premise: decoding this file makes libpng write to the process's standard error.
    script = "import sys; from pathlib import Path; from vision.images import decode_image\n"
    script += "try: decode_image(Path(sys.argv[1]).read_bytes())\nexcept ValueError: pass\n"
    bare = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, cwd=ROOT, check=True
    )
    assert b"libpng warning: tEXt: CRC error" in bare.stderr
    # A process of its own: libpng writes to the file descriptor, which only a process shows.
    run = atelier("scan", path)
    assert_user_error(run, f"atelier: {path}: a damaged PNG that cannot be decoded")
    assert run.stderr.count("\n") == 1


def test_warnings_on_a_file_that_decodes_stay_off_standard_error(tmp_path: Path) -> None:
    ok, data = cv2.imencode(".png", np.full((200, 300, 3), 128, np.uint8))
    assert ok
    whole = data.tobytes()
    path = tmp_path / "commented.png"
    path.write_bytes(whole[:33] + chunk(b"tEXt", b"Comment\0scan", crc=1234) + whole[33:])
    run = atelier_main("markers", path)
    assert run.status == 0, run.stderr
    assert run.stderr == "0 markers of DICT_APRILTAG_36H11\n"
