"""The games the command line knows, by the name a position file gives in ``"game"``: each one's
position scorer, its advisor where it has one, and its rules (``protocol.GameRules``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.fields import Field
from companion.games.protocol import GameRules


@dataclass(frozen=True)
class Report:
    """A scored position: the JSON for programs and the same breakdown in words for people."""

    data: dict[str, Any]
    text: str


@dataclass(frozen=True)
class GameEntry:
    name: str
    title: str
    # Scores one position document; the optional path is a user's content file for the game.
    evaluate: Callable[[Field, Path | None], Report]
    # The whole game, played through the interface every game shares.
    rules: GameRules[Any, Any]
    # Advises the player of one position document (as ``evaluate``); None: no advisor yet.
    advise: Callable[[Field, Path | None], Report] | None = None
    # Scores as ``evaluate`` without naming what lies face down at the table (Pigment Lab's
    # shade recipes); None: the game hides nothing.
    evaluate_face_down: Callable[[Field, Path | None], Report] | None = None


# Each name is a package under companion.games with an ``entry`` module defining ``ENTRY``.
GAME_PACKAGES = ("colorfield", "paintings", "isle", "pigments")


def games() -> Mapping[str, GameEntry]:
    """Every game by name. Imported here, not at module load, to keep the import graph acyclic."""
    entries: list[GameEntry] = [
        import_module(f"companion.games.{package}.entry").ENTRY for package in GAME_PACKAGES
    ]
    return MappingProxyType({entry.name: entry for entry in entries})
