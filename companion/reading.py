"""The reader interface: how the table asks for the boards in a photo or a live source's frames
without knowing how they are read. ``vision`` implements it; the command line hands a reader to
the table session and to the web app; tests hand them a fake.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.errors import AtelierError
from companion.observation import BoardObservation
from companion.table.session import Created
from companion.table.store import BoardView

# Each board's picture, by the printed boards it was read from (``BoardObservation.boards``).
StoredViews = Mapping[tuple[str, ...], BoardView]


class PhotoError(AtelierError):
    """The bytes sent are not a photo that can be read."""


@dataclass(frozen=True)
class PhotoReading:
    """What one photo showed: each board read, their pictures, how long reading took, and the
    problem of each board seen but not read (markers outlined, not decodable)."""

    boards: tuple[BoardObservation, ...]
    views: StoredViews
    total_ms: float
    unreadable: tuple[str, ...] = ()


class TableReader(Protocol):
    """Reads the boards in a photo. Safe to call from any thread."""

    def read_photo(self, data: bytes) -> PhotoReading:
        """The photo's boards; ``PhotoError`` (one line) when ``data`` is no readable photo."""
        ...


class Feed(Protocol):
    """Where a live source hands the boards whose reading has settled, with their pictures."""

    def __call__(self, boards: Sequence[BoardObservation], views: StoredViews) -> None: ...


class Live(Protocol):
    """A live source as the web shows it: the tables it fed and what its camera sees now."""

    def fed(self) -> Sequence[Created]:
        """The tables fed and still kept, oldest first: the last is the one fed now."""
        ...

    def view(self, table: str) -> bytes | None:
        """The newest frame annotated (JPEG) when the source fed ``table``, else None (also
        before the first frame)."""
        ...
