"""The boards a live source saw settle, turned into a table's scan events."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.errors import AtelierError
from companion.observation import BoardObservation
from companion.reading import StoredViews
from companion.table.session import Tables


class TableFeed:
    """Feeds one table (a ``companion.reading.Feed``); says what became of each hand-over."""

    def __init__(self, tables: Tables, table: str, report: Callable[[str], None]) -> None:
        self.tables = tables
        self.table = table
        self._report = report

    def __call__(self, boards: Sequence[BoardObservation], views: StoredViews) -> None:
        try:
            result = self.tables.scan(self.table, boards, views)
        except AtelierError as exc:
            # A live source goes on: a reading the table refuses is reported, never raised.
            self._report(f"live: {exc}")
            return
        seats = ", ".join(str(r.seat) for r in result.readings)
        self._report(f"live: scan #{result.event.id} (seat {seats})")
