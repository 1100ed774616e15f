"""The tables and their event logs in one SQLite database (WAL), under the data folder.

One connection per thread, opened on first use: SQLite connections must not cross threads, and a
web server serves each request on a thread of its pool. Every write is one transaction committed
with ``synchronous=FULL`` before it returns, so what was shown survives a kill or a pulled plug.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import AtelierError
from companion.table.events import Event

SCHEMA_VERSION = 1
DATABASE = "tables.sqlite3"
SCHEMA = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    setup TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL REFERENCES tables(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX events_by_table ON events (table_id, id);
CREATE TABLE views (
    event INTEGER NOT NULL REFERENCES events(id),
    seat INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    regions TEXT NOT NULL,
    PRIMARY KEY (event, seat)
);
"""


@dataclass(frozen=True)
class TableRow:
    id: str
    token: str
    setup: dict[str, Any]
    created: float


@dataclass(frozen=True)
class BoardView:
    """A board as last seen: its rectified photo and where each component lies on it."""

    jpeg: bytes
    regions: dict[str, Any]


class Store:
    """The database of one data folder."""

    def __init__(self, folder: Path, clock: Callable[[], float] = time.time) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AtelierError(f"--data {folder}: cannot create ({exc.strerror})") from None
        self.path = folder / DATABASE
        self.clock = clock
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._migrate()

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            try:
                # Used by its own thread only; the flag lets ``close`` end it from another.
                connection = sqlite3.connect(
                    self.path, timeout=30, isolation_level=None, check_same_thread=False
                )
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=FULL")
                connection.execute("PRAGMA foreign_keys=ON")
            except sqlite3.DatabaseError as exc:
                raise AtelierError(f"{self.path}: not a table database ({exc})") from None
            self._local.connection = connection
            with self._lock:
                self._all.append(connection)
        return connection

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    def _migrate(self) -> None:
        connection = self._connection()
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise AtelierError(
                f"{self.path}: written by a newer Atelier (schema {version}, "
                f"this one knows {SCHEMA_VERSION})"
            )
        if version == 0:
            # One script, one transaction: a half-made schema is never left behind.
            connection.executescript(
                "BEGIN IMMEDIATE;" + SCHEMA + f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
            )

    def close(self) -> None:
        """Close every thread's connection (call when no request is running any more)."""
        with self._lock:
            for connection in self._all:
                connection.close()
            self._all.clear()
        self._local = threading.local()

    def create_table(self, table_id: str, token: str, setup: dict[str, Any]) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO tables (id, token, setup, created) VALUES (?, ?, ?, ?)",
                (table_id, token, json.dumps(setup), self.clock()),
            )

    def set_token(self, table_id: str, token: str) -> None:
        with self._write() as db:
            db.execute("UPDATE tables SET token = ? WHERE id = ?", (token, table_id))

    def delete_table(self, table_id: str) -> None:
        """Remove a table with its whole log and board pictures, in one transaction (event ids
        are never given out again, so a viewer's place in another table's log stays valid)."""
        with self._write() as db:
            db.execute(
                "DELETE FROM views WHERE event IN (SELECT id FROM events WHERE table_id = ?)",
                (table_id,),
            )
            db.execute("DELETE FROM events WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def table(self, table_id: str) -> TableRow | None:
        row = (
            self._connection()
            .execute("SELECT id, token, setup, created FROM tables WHERE id = ?", (table_id,))
            .fetchone()
        )
        if row is None:
            return None
        return TableRow(row[0], row[1], json.loads(row[2]), row[3])

    def table_ids(self) -> list[str]:
        rows = self._connection().execute("SELECT id FROM tables ORDER BY created DESC, id")
        return [row[0] for row in rows]

    def append(
        self,
        table_id: str,
        kind: str,
        data: dict[str, Any],
        views: dict[int, BoardView] | None = None,
    ) -> Event:
        """Write one event (and the board views it shows) in one transaction."""
        at = self.clock()
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO events (table_id, kind, data, at) VALUES (?, ?, ?, ?)",
                (table_id, kind, json.dumps(data), at),
            )
            event_id = cursor.lastrowid
            assert event_id is not None
            for seat, view in (views or {}).items():
                db.execute(
                    "INSERT INTO views (event, seat, jpeg, regions) VALUES (?, ?, ?, ?)",
                    (event_id, seat, view.jpeg, json.dumps(view.regions)),
                )
        return Event(event_id, table_id, kind, data, at)

    def events(self, table_id: str, after: int = 0, limit: int | None = None) -> list[Event]:
        """The table's events after ``after``, oldest first; the first ``limit`` of them."""
        rows = self._connection().execute(
            "SELECT id, kind, data, at FROM events WHERE table_id = ? AND id > ? ORDER BY id "
            "LIMIT ?",
            (table_id, after, -1 if limit is None else limit),
        )
        return [Event(row[0], table_id, row[1], json.loads(row[2]), row[3]) for row in rows]

    def view(self, table_id: str, event_id: int, seat: int) -> BoardView | None:
        query = (
            "SELECT v.jpeg, v.regions FROM views v JOIN events e ON e.id = v.event "
            "WHERE e.table_id = ? AND v.event = ? AND v.seat = ?"
        )
        row = self._connection().execute(query, (table_id, event_id, seat)).fetchone()
        return None if row is None else BoardView(bytes(row[0]), json.loads(row[1]))
