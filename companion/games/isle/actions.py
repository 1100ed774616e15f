"""What the table and the players do in a game of Isle of Colors, as small values.

The die is the table's: ``Roll`` gives the round's shared roll, read off a real die or drawn by
whoever runs the game, so the rules themselves draw nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour


@dataclass(frozen=True)
class Roll:
    """The round's shared d6 roll."""

    value: int


@dataclass(frozen=True)
class Fill:
    """A player fills ``cells``, one connected group of exactly the roll, with ``colour``."""

    player: int
    colour: Colour
    cells: frozenset[Cell]


@dataclass(frozen=True)
class FillNothing:
    """A player with no room for the roll fills nothing, which triggers the end."""

    player: int


Action = Roll | Fill | FillNothing
