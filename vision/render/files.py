"""Writing a rendering: the photo and, beside it, ``<stem>.truth.json``; both or neither."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import cv2

from companion.errors import SourceError
from vision.render.renderer import Rendering

JPEG_SUFFIXES = (".jpg", ".jpeg")
IMAGE_SUFFIXES = (*JPEG_SUFFIXES, ".png")


def truth_path(image: Path) -> Path:
    return image.with_name(f"{image.stem}.truth.json")


def check_output(image: Path) -> None:
    """Refuse, before any work, an output that cannot be written."""
    if image.suffix.lower() not in IMAGE_SUFFIXES:
        raise SourceError(str(image), f"unsupported image type (use {', '.join(IMAGE_SUFFIXES)})")
    folder = image.parent
    if not folder.is_dir():
        raise SourceError(str(image), f"cannot write: no folder {str(folder)!r}")
    if image.is_dir():
        raise SourceError(str(image), "cannot write: is a folder")


def _encoded(rendering: Rendering, image: Path) -> bytes:
    # A JPEG is stored exactly as the camera encoded it; a PNG keeps those JPEG artefacts.
    if image.suffix.lower() in JPEG_SUFFIXES:
        return rendering.jpeg
    ok, data = cv2.imencode(".png", rendering.image)
    if not ok:
        raise RuntimeError("PNG encoding failed")
    return bytes(data.tobytes())


def write_rendering(rendering: Rendering, image: Path) -> Path:
    """Write the photo and its truth; on any failure neither is left behind. Returns the truth
    file's path."""
    check_output(image)
    truth = truth_path(image)
    text = json.dumps(rendering.truth, indent=1) + "\n"
    written: list[Path] = []
    try:
        for path, data in ((image, _encoded(rendering, image)), (truth, text.encode())):
            partial = path.with_name(f".{path.name}.partial")
            written.append(partial)
            partial.write_bytes(data)
        for path, partial in zip((image, truth), written, strict=True):
            partial.replace(path)
            written[written.index(partial)] = path
    except OSError as exc:
        for path in written:
            with contextlib.suppress(OSError):
                path.unlink()
        raise SourceError(str(image), f"cannot write: {exc.strerror or exc}") from None
    return truth
