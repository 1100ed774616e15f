"""Readings the live loop accepted, handed over as a table takes them: the boards read, and
their pictures as the table stores them."""

from __future__ import annotations

from collections.abc import Sequence

from companion.reading import Feed
from vision.live.loop import Accept, Views
from vision.live.stability import Accepted
from vision.stored_views import stored_views


def handover(feed: Feed) -> Accept:
    """What a live reader calls with accepted readings, to hand them to ``feed``."""

    def accept(accepted: Sequence[Accepted], views: Views) -> None:
        feed([a.observation for a in accepted], stored_views(views))

    return accept
