"""The events of a table's log: what happened, in the order it happened.

Every change to a table is one event, written to the log before anything shows it; scores,
standings and history are computed from the log alone, so a restart shows exactly what was shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

SCAN: Final = "scan"  # a photo's boards, as read and scored, with legality warnings
CORRECTION: Final = "correction"  # a person fixed a misread component of a scanned board
ROUND_END: Final = "round-end"  # the table moved on to the next round
GAME_END: Final = "game-end"  # the players ended a game whose end the table cannot see
SPILL: Final = "spill"  # Pigment Lab: a player's Spill Line count for a round, as entered
DIAGNOSIS: Final = "diagnosis"  # Pigment Lab: a Fault diagnosis, right or wrong, as entered
ROLL: Final = "roll"  # Isle of Colors: the round's die, as entered
TOKENS: Final = "tokens"  # Paintings: the Inspiration tokens a player holds, as entered
TOOL_CARD: Final = "tool-card"  # Color Field: the Community Tools card of a round, as entered
TOOL_DECLINE: Final = "tool-decline"  # Color Field: a player declined (or took back) that card
UNDO: Final = "undo"  # takes back the latest change still in effect
# The kinds an undo can take back.
CHANGES: Final = (
    SCAN,
    CORRECTION,
    ROUND_END,
    GAME_END,
    SPILL,
    DIAGNOSIS,
    ROLL,
    TOKENS,
    TOOL_CARD,
    TOOL_DECLINE,
)
KINDS: Final = (*CHANGES, UNDO)


@dataclass(frozen=True)
class Event:
    """One entry of the log. ``id`` grows with every event of every table, so it orders them
    and serves as the live stream's event id."""

    id: int
    table: str
    kind: str
    data: dict[str, Any]
    at: float  # seconds since the epoch, when it was written

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "data": self.data, "at": round(self.at, 3)}
