"""Counts in words, as people write them: "1 point", "2 points", "-1 point", "1 chip"."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None, *, signed: bool = False) -> str:
    """``count`` and ``word``, its plural (``many``, else ``word`` + "s") unless one (or minus
    one: "-1 point"); ``signed`` writes the sign of a change ("+1 point")."""
    number = f"{count:+d}" if signed else str(count)
    return f"{number} {word if abs(count) == 1 else many or word + 's'}"
