"""Long work's progress, on one line of standard error rewritten in place; nothing when standard
error is not a terminal (a log or a pipe keeps only the results)."""

from __future__ import annotations

import sys
from collections.abc import Callable

BAR = 20  # characters of the bar


def progress_line(width: int) -> Callable[[str], None]:
    """Shows each step over the last, padded to ``width``."""

    def show(step: str) -> None:
        if sys.stderr.isatty():
            print(f"\r{step:<{width}}", end="", file=sys.stderr, flush=True)

    return show


def progress_bar(total: int, width: int) -> Callable[[str], None]:
    """Shows each of ``total`` steps as it begins, after a bar of the steps done:
    ``[##########..........] 3/4 Isle of Colors``, padded to ``width``."""
    line = progress_line(width)
    begun = 0

    def show(step: str) -> None:
        nonlocal begun
        begun = min(begun + 1, total)
        filled = BAR * (begun - 1) // total
        line(f"[{'#' * filled}{'.' * (BAR - filled)}] {begun}/{total} {step}")

    return show


def end_progress() -> None:
    """Leaves the progress line, so the table starts on a line of its own."""
    if sys.stderr.isatty():
        print(file=sys.stderr)
