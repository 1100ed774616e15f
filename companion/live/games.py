"""One table for each game a live source plays, made as the game begins; a game played again
(the demo, round and round) replaces its table of the round before."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.games.registry import games
from companion.live.feed import TableFeed
from companion.table.rotation import Rotation
from companion.table.session import Created, Tables


class LiveGames:
    """The tables of a live source's games: game n (0 the first played) is scored on a table
    made from ``setups[n % len(setups)]``, each setup as ``Tables.create`` takes it."""

    def __init__(
        self, tables: Tables, setups: Sequence[dict[str, Any]], report: Callable[[str], None]
    ) -> None:
        self._tables = tables
        self._setups = tuple(setups)
        self._report = report
        self._rotation = Rotation(tables, len(self._setups))

    def begin(self, game: int) -> TableFeed:
        """A new table for game ``game``, and what feeds it."""
        setup = self._setups[game % len(self._setups)]
        created = self._rotation.create(setup)
        self._report(f"live: {games()[setup['game']].title} on table {created.table}")
        return TableFeed(self._tables, created.table, self._report)

    def fed(self) -> tuple[Created, ...]:
        """The tables fed and still kept (the last round of each game), oldest first: the last
        is the one fed now."""
        return self._rotation.kept()
