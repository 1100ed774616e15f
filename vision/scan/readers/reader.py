"""What a board reader is, and the entry by which a reader module offers one for a kind of board."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from vision.images import Image
from vision.layout.model import Layout
from vision.scan.context import BoardContext
from vision.scan.registration import Sighting

Kind = tuple[str, str]  # (game, kind), as a layout names them
Printed = tuple[Layout, Image]  # a board and its printed face at the reader's resolution


def kind_of(layout: Layout) -> Kind:
    return (layout.game, layout.kind)


class BoardReader(Protocol):
    """Reads one kind of board. Readers needing no preparation or placement may subclass this
    for the defaults."""

    def prepare(self, boards: Sequence[Printed], ppm: float) -> None:
        """Build what is worked out once per board now rather than on first sight."""
        return

    def place(self, image: Image, board: Sighting) -> Sighting:
        """The board placed better than its markers placed it, where the reader can."""
        return board

    def read(self, ctx: BoardContext) -> dict[str, Any]:
        """The board's position, as far as read; every component read recorded in ``ctx``."""
        ...


@dataclass(frozen=True)
class ReaderEntry:
    game: str
    kind: str
    # A new reader: each scanner keeps its own, with what it built per board.
    reader: Callable[[], BoardReader]
    # The resolution (px per mm) the board is read at, so what is built per board is built once.
    ppm: float
    # An area every player uses (the Art Row, the Pigment Lab market): reported as what lies
    # where, never scored.
    shared: bool = False
    # Whether a board whose coloured print the light blew out is refused. Not for one read from
    # its pieces' markers alone (light cannot change what they say), nor where the reader
    # measures the paper's white itself and refuses only what clipping leaves unreadable.
    refused_when_overexposed: bool = True

    @property
    def key(self) -> Kind:
        return (self.game, self.kind)
