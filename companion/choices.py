"""The valid choices named in an error about an unknown value: a short list whole, a long one by
its size, its range and the names closest to what was given."""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

# A list this short is named whole in an error; a longer one (60 art cards, 120 tiles) is not.
LISTED = 24
CLOSEST = 3
CUTOFF = 0.5  # how alike (difflib's ratio) a name must be to be offered
LEADING_ZEROS = re.compile(r"(?<!\d)0+(?=\d)")


def known_choices(names: Iterable[str], given: object = None) -> str:
    """``known: a, b, c`` (in the order given); past ``LISTED`` names, ``60 known, A-01 to A-60;
    closest: A-03, A-30, A-13`` (the names most like ``given``, best first; none when no name is
    alike)."""
    listed = list(names)
    if len(listed) <= LISTED:
        return f"known: {', '.join(listed)}"
    ordered = sorted(listed)
    span = f"{len(ordered)} known, {ordered[0]} to {ordered[-1]}"
    typed = _plain(str(given))
    alike = {name: SequenceMatcher(None, typed, _plain(name)).ratio() for name in ordered}
    close = sorted((n for n in ordered if alike[n] >= CUTOFF), key=lambda n: -alike[n])[:CLOSEST]
    return f"{span}; closest: {', '.join(close)}" if close else span


def _plain(name: str) -> str:
    """``name`` compared as people write it: any case, ``A-3`` for ``A-03``."""
    return LEADING_ZEROS.sub("", name.casefold())
