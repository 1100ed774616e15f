"""What the broker has acknowledged, per table: the outbox's bookmark in each table's log.

The log (tables.sqlite3) is the truth and the outbox holds no message, only, per destination
(broker and site) and table, the id of the newest event a retained state the broker acknowledged
counts. Everything after it is published again from the log on the next connection, so the broker
can be away for hours without anything piling up in memory.

It lives in a small SQLite file of its own beside the tables' database rather than as a table in
it: the tables' schema (and the Atelier versions that read it) stays free of broker concerns, a
data folder copied elsewhere starts with a fresh bookmark by deleting one file, and its writes
never wait behind the log's. A bookmark lost (a crash between the acknowledgement and its write)
only means one more replay, which the events' ids make harmless: so it is written with
``synchronous=NORMAL``, without the log's flush to disk on each commit.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from companion.errors import AtelierError

DATABASE = "broker-outbox.sqlite3"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE acked (
    destination TEXT NOT NULL,
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (destination, table_id)
);
"""


class Outbox:
    """The bookmarks of one data folder, for one destination (``host:port/site``)."""

    def __init__(self, folder: Path, destination: str) -> None:
        self.path = folder / DATABASE
        self.destination = destination
        self._lock = threading.Lock()
        try:
            # Shared by the publisher's thread and whoever closes it; the lock serialises them.
            self._db = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            raise AtelierError(f"{self.path}: not a broker outbox ({exc})") from None
        if version > SCHEMA_VERSION:
            raise AtelierError(
                f"{self.path}: written by a newer Atelier (schema {version}, "
                f"this one knows {SCHEMA_VERSION})"
            )
        if version == 0:
            self._db.executescript(
                "BEGIN IMMEDIATE;" + SCHEMA + f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def acked(self, table: str) -> int | None:
        """The newest event id of ``table`` the broker holds a state for; None when nothing of
        the table was ever published there, 0 when a state without events was (or may be)."""
        with self._lock:
            row = self._db.execute(
                "SELECT seq FROM acked WHERE destination = ? AND table_id = ?",
                (self.destination, table),
            ).fetchone()
        return None if row is None else int(row[0])

    def tables(self) -> list[str]:
        """Every table the broker may hold something of."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_id FROM acked WHERE destination = ? ORDER BY table_id",
                (self.destination,),
            )
            return [row[0] for row in rows]

    def note(self, table: str) -> None:
        """Remember ``table`` before its first message goes out, so that its removal is
        published even if no acknowledgement ever came."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO acked (destination, table_id, seq) VALUES (?, ?, 0)",
                (self.destination, table),
            )

    def acknowledge(self, table: str, seq: int) -> None:
        """The broker holds ``table``'s state up to event ``seq`` (a late acknowledgement of an
        older state never moves the bookmark back)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO acked (destination, table_id, seq) VALUES (?, ?, ?) "
                "ON CONFLICT (destination, table_id) DO UPDATE SET seq = max(seq, excluded.seq)",
                (self.destination, table, seq),
            )

    def forget(self, table: str) -> None:
        """The broker no longer holds anything of ``table``: its removal was acknowledged."""
        with self._lock:
            self._db.execute(
                "DELETE FROM acked WHERE destination = ? AND table_id = ?",
                (self.destination, table),
            )
