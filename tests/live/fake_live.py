"""A live source without a camera: the tables it fed are a list the test extends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.table.session import Created


class FakeLive:
    """Fed ``tables`` (as the list stands when asked), and shows ``frames`` by table."""

    def __init__(self, tables: list[Created], frames: Mapping[str, bytes] | None = None) -> None:
        self.tables = tables
        self.frames = dict(frames or {})

    def fed(self) -> Sequence[Created]:
        return tuple(self.tables)

    def view(self, table: str) -> bytes | None:
        return self.frames.get(table)
