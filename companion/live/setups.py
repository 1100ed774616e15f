"""The tables a live source's games are scored on, as ``Tables.create`` takes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.table.setup import PRINTED_SEATS

LIVE_GAME = "colorfield"  # the one game a table scores with nothing but what the camera sees
DEMO_PLAYERS = ("Ana", "Ben")


def table_setup(game: str, players: Sequence[str], options: dict[str, Any]) -> dict[str, Any]:
    """A game's table as ``Tables.create`` takes it."""
    return {"game": game, "players": [{"name": name} for name in players], "options": options}


def camera_setup() -> dict[str, Any]:
    """A camera's or a video's table: the live game, with a player at every printed seat."""
    seats = range(1, PRINTED_SEATS[LIVE_GAME] + 1)
    return table_setup(LIVE_GAME, [f"Seat {seat}" for seat in seats], {})
