"""Vision's board views as a table stores them: the picture, its size and each component's
outline, for the photo reader and the live loop alike."""

from __future__ import annotations

from collections.abc import Mapping

from companion.table.store import BoardView as StoredView
from vision.scan.views import BoardView


def stored_views(
    views: Mapping[tuple[str, ...], BoardView],
) -> dict[tuple[str, ...], StoredView]:
    """Each view as the table stores it, by the same printed boards."""
    return {
        key: StoredView(
            view.jpeg,
            {
                "width": view.width,
                "height": view.height,
                "regions": {
                    name: [list(p) for p in points] for name, points in view.regions.items()
                },
            },
        )
        for key, view in views.items()
    }
