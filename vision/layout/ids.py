"""Which marker id goes on which printed component.

All components share one AprilTag 36h11 dictionary (587 ids). Boards come first, four corner
markers each, so a board is known and posed from any one of them; moving pieces follow in fixed
blocks per kind, so adding a tile to one deck never renumbers the cards of another game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.errors import AtelierError

DICTIONARY = "DICT_APRILTAG_36H11"
DICTIONARY_SIZE = 587
BOARD_MARKER_MM = 28.0  # 3.5 mm cells: >= 4 px at 80 cm and 45 degrees of tilt
PIECE_MARKER_MM = 24.0  # 3.0 mm cells: >= 4 px at 70 cm and 45 degrees of tilt
CORNERS = ("corner-tl", "corner-tr", "corner-br", "corner-bl")


@dataclass(frozen=True)
class BoardKind:
    game: str
    kind: str
    copies: int  # how many distinct copies are printed: one per seat, variant or painting


PAINTINGS_PER_PLAYER = 3

BOARD_KINDS = (
    BoardKind("colorfield", "canvas", 4),
    # One mat per painting, so a player's three paintings can all lie on the table at once.
    BoardKind("paintings", "mat", 5 * PAINTINGS_PER_PLAYER),
    BoardKind("paintings", "art-row", 1),
    BoardKind("isle", "sheet", 4),
    BoardKind("pigments", "palette", 4),
    BoardKind("pigments", "market", 1),
    BoardKind("calibration", "reference", 1),
)

BOARD_IDS = 140  # ids 0..139 belong to board corners; pieces start after

PIECE_BLOCKS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "colorfield/tile": (140, 150),
        "paintings/art-card": (290, 100),
        "pigments/shade": (390, 80),
        "pigments/fault": (470, 70),
    }
)


def board_marker_ids(game: str, kind: str, copy: int) -> tuple[int, int, int, int]:
    """The corner marker ids of one printed board (copy 1..n), clockwise from its top-left."""
    first = 0
    for board in BOARD_KINDS:
        if (board.game, board.kind) == (game, kind):
            if not 1 <= copy <= board.copies:
                raise AtelierError(f"{game} {kind}: copy {copy} is out of range 1..{board.copies}")
            base = first + 4 * (copy - 1)
            return (base, base + 1, base + 2, base + 3)
        first += 4 * board.copies
    raise KeyError(f"no board kind {game}/{kind}")


def piece_marker_id(block: str, index: int) -> int:
    """The marker id of the ``index``-th piece (0-based, catalogue order) of a block."""
    start, size = PIECE_BLOCKS[block]
    if not 0 <= index < size:
        raise AtelierError(
            f"{block}: a catalogue of {index + 1} pieces does not fit the {size} marker ids "
            "set aside for them"
        )
    return start + index
