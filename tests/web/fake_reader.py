"""A reader that reads no pixels: every photo shows the boards (and unreadable boards) it was
given, or is refused as it was told."""

from __future__ import annotations

from collections.abc import Sequence

from companion.observation import BoardObservation
from companion.reading import PhotoError, PhotoReading, StoredViews


class FakeReader:
    """Reads every photo as ``boards`` with ``views``, in ``total_ms``, or refuses each with
    ``refusal``; keeps the photos sent."""

    def __init__(
        self,
        boards: Sequence[BoardObservation] = (),
        views: StoredViews | None = None,
        total_ms: float = 0.0,
        refusal: str | None = None,
        unreadable: Sequence[str] = (),
    ) -> None:
        self.reading = PhotoReading(tuple(boards), dict(views or {}), total_ms, tuple(unreadable))
        self.refusal = refusal
        self.photos: list[bytes] = []

    def read_photo(self, data: bytes) -> PhotoReading:
        self.photos.append(data)
        if self.refusal is not None:
            raise PhotoError(self.refusal)
        return self.reading
