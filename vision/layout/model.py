"""Layout values: where a component's markers and regions sit, in millimetres."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from vision.layout.geometry import Rect, Shape

# A white ring this wide around every marker's black border, so its outline stands out from
# whatever colour is printed next to it.
QUIET_MM = 2.0


@dataclass(frozen=True)
class MarkerSpec:
    """A printed marker: its id and its outer black square, upright in the component's frame."""

    id: int
    rect: Rect
    role: str = "identity"  # "identity" for a moving component, "corner-tl" etc. for boards

    @property
    def quiet(self) -> Rect:
        return self.rect.inset(-QUIET_MM)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "role": self.role, **self.rect.to_json()}


@dataclass(frozen=True)
class Region:
    """A named place on a component that a reader looks at or a player puts something on."""

    name: str  # "space 1", "top[0]", "card bottom", "cell 3,7", "small window 1", ...
    role: str  # "space", "segment", "card", "cell", "window", "binder", "spill", "patch", ...
    shape: Shape
    # What is printed or expected there: segment colours, a patch's ink, a tile edge...
    info: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "role": self.role, **self.shape.to_json()}
        if self.info:
            out["info"] = dict(self.info)
        return out


@dataclass(frozen=True)
class Layout:
    """One printed component: a board (fixed, several corner markers) or a moving piece."""

    key: str  # unique across games: "colorfield/canvas/canvas-2", "colorfield/tile/R1-07"
    game: str  # colorfield, paintings, isle, pigments, calibration
    kind: str  # canvas, tile, mat, art-row, art-card, sheet, palette, market, shade, ...
    title: str
    size: tuple[float, float]  # width, height in mm
    markers: tuple[MarkerSpec, ...]
    regions: tuple[Region, ...]
    seat: int | None = None
    # The game content printed on it, as JSON (a tile's edges, a card's slots, a shade's recipe).
    content: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def is_board(self) -> bool:
        return len(self.markers) > 1

    @property
    def outline(self) -> Rect:
        return Rect(0, 0, self.size[0], self.size[1])

    def region(self, name: str) -> Region:
        for region in self.regions:
            if region.name == name:
                return region
        raise KeyError(f"{self.key} has no region {name!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.key,
            "game": self.game,
            "kind": self.kind,
            "title": self.title,
            "size_mm": [round(self.size[0], 3), round(self.size[1], 3)],
            "seat": self.seat,
            "markers": [m.to_json() for m in self.markers],
            "regions": [r.to_json() for r in self.regions],
            "content": dict(self.content),
        }
