"""The end of a Paintings game: most points wins, then more Inspiration tokens, else shared."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.protocol import Standing, ranked

TOKENS = "inspiration tokens"  # the rule text's tie-break


def final_standings(totals: Sequence[int], tokens: Sequence[int]) -> tuple[Standing, ...]:
    """Every seat (0-based) ranked by points, then by the Inspiration tokens it holds."""
    return ranked(totals, ((TOKENS, tokens),))
