"""Images named on the command line.

The decoders under OpenCV write their warnings about a damaged file (libpng's "tEXt: CRC error",
libjpeg's "Corrupt JPEG data: ...") straight to the process's standard error, where they would
add lines to the one line a command prints for its error. While a command decodes an image, that
descriptor points nowhere; the file's problem is reported by the error, or does not matter.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.images import Image


def read_image(path: Path, grayscale: bool = False) -> Image:
    """``vision.images.read_image`` with the decoders' own messages kept off standard error."""
    # Imported here so that commands without images never load OpenCV.
    from vision import images

    with _native_stderr_muted():
        return images.read_image(path, grayscale)


@contextmanager
def _native_stderr_muted() -> Iterator[None]:
    """File descriptor 2 sent to the null device. It is the whole process's: this is for a
    command, which decodes on its only thread, never for a server."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with Path(os.devnull).open("wb") as sink:
            os.dup2(sink.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
