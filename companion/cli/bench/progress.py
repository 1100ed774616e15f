"""A benchmark's progress, on one line of standard error rewritten in place; nothing when
standard error is not a terminal (a log or a pipe keeps only the results)."""

from __future__ import annotations

import sys
from collections.abc import Callable


def progress_line(width: int) -> Callable[[str], None]:
    """Shows each step over the last, padded to ``width``."""

    def show(step: str) -> None:
        if sys.stderr.isatty():
            print(f"\r{step:<{width}}", end="", file=sys.stderr, flush=True)

    return show


def end_progress() -> None:
    """Leaves the progress line, so the table starts on a line of its own."""
    if sys.stderr.isatty():
        print(file=sys.stderr)
