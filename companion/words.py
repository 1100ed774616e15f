"""Counts and lists in words, as people write them: "1 point", "2 points", "-1 point",
"red, blue and white"."""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, word: str, many: str | None = None, *, signed: bool = False) -> str:
    """``count`` and ``word``, its plural (``many``, else ``word`` + "s") unless one (or minus
    one: "-1 point"); ``signed`` writes the sign of a change ("+1 point")."""
    number = f"{count:+d}" if signed else str(count)
    return f"{number} {word if abs(count) == 1 else many or word + 's'}"


def listed(words: Sequence[str]) -> str:
    """``red``, ``red and blue``, ``red, blue and white``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
