"""Tables made one after another by a source that plays its games round and round (the live
demo): only the newest few are kept, each new one replacing the oldest, so that a source left
playing for days keeps the data folder, the list of tables and the memory the size of one round.
Only the tables a rotation made itself are ever removed."""

from __future__ import annotations

import threading
from typing import Any

from companion.table.session import Created, Tables


class Rotation:
    """Makes tables in ``tables`` and keeps the newest ``keep`` of them: with one game per
    setup played in turn, each game's new table replaces that game's table of the round before."""

    def __init__(self, tables: Tables, keep: int) -> None:
        if keep < 1:
            raise ValueError(f"keep: at least one table, got {keep}")
        self._tables = tables
        self._keep = keep
        self._guard = threading.Lock()
        self._made: list[Created] = []

    def create(self, setup: Any) -> Created:
        """A new table (``Tables.create`` takes the setup); the oldest beyond ``keep`` is removed
        once the new one exists, so there is always a newest table to follow."""
        created = self._tables.create(setup)
        with self._guard:
            self._made.append(created)
            replaced = self._made[: -self._keep]
            del self._made[: -self._keep]
        for old in replaced:
            self._tables.remove(old.table)
        return created

    def kept(self) -> tuple[Created, ...]:
        """The tables kept, oldest first: the last is the newest."""
        with self._guard:
            return tuple(self._made)
