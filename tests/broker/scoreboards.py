"""Real scoreboards, as a table's server publishes them: ``scores_json`` of tables made in a
folder, with the totals a game might have reached."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.table.session import Tables
from web.broker.bench_hub import OPTIONS

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")


def scoreboard(
    folder: Path, game: str, names: Sequence[str], totals: Sequence[int]
) -> dict[str, Any]:
    """The public scoreboard of a new ``game`` table of ``names``, with ``totals`` put in."""
    tables = Tables(folder)
    try:
        players = [{"name": n, "colour": c} for n, c in zip(names, COLOURS, strict=False)]
        created = tables.create(
            {"game": game, "players": players, "options": OPTIONS.get(game, {})}
        )
        scores = tables.state(created.table).scores_json()
    finally:
        tables.close()
    ranked = sorted(totals, reverse=True)
    for player, total in zip(scores["players"], totals, strict=True):
        player["total"] = total
        player["place"] = ranked.index(total) + 1
    return scores
