"""Random valid positions of every game, built from the default catalogues.

Pure functions of the ``random.Random`` they are given, so a seed names one position for good:
benchmarks, renders and round-trip tests share them. Each returns the position JSON of
positions.md, using catalogue ids so every component exists in print.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from companion.content import colorfield, isle, paintings, pigments
from companion.errors import AtelierError
from companion.games.colorfield.model import SPACES, TileKind
from companion.games.isle.model import CONDITIONS
from companion.games.paintings.model import CARDS_PER_PAINTING
from companion.games.paintings.scoring import MAX_PAINTINGS, SCORING_CARDS_IN_PLAY
from companion.games.pigments.model import BOARD, Chip

Position = dict[str, Any]


def random_colorfield(rng: random.Random) -> Position:
    """A canvas after priming: every space holds a distinct catalogue tile. Foundation tiles keep
    their up-mark to the top, as priming lays them; other tiles lie at any rotation."""
    content = colorfield.default_content()
    canvas = rng.choice(sorted(content.canvases))
    tiles = rng.sample(sorted(content.tiles), len(SPACES))
    spaces = []
    for tile_id in tiles:
        primed = content.tiles[tile_id].kind is TileKind.FOUNDATION
        spaces.append({"tile": tile_id, "rotation": 0 if primed else rng.randrange(4)})
    return {"game": "colorfield", "canvas": canvas, "spaces": spaces}


def random_paintings(rng: random.Random) -> Position:
    """One player's one to three paintings of distinct catalogue cards, and four scoring cards."""
    content = paintings.default_content()
    goals = rng.sample([goal.value for goal in content.scoring_cards], SCORING_CARDS_IN_PLAY)
    count = rng.randint(1, MAX_PAINTINGS)
    cards = rng.sample(sorted(content.cards), count * CARDS_PER_PAINTING)
    return {
        "game": "paintings",
        "scoring_cards": goals,
        "paintings": [
            [{"card": card} for card in cards[i : i + CARDS_PER_PAINTING]]
            for i in range(0, len(cards), CARDS_PER_PAINTING)
        ],
    }


def random_isle(rng: random.Random) -> Position:
    """The default island part-way through a game: a random share of its cells, in colours that
    run in patches as players tend to colour them (a cell often takes a neighbour's colour)."""
    island = isle.default_content().islands["default"]
    conditions = {colour.value: rng.choice(options).value for colour, options in CONDITIONS.items()}
    colours = [colour.value for colour in CONDITIONS]
    share = rng.uniform(0.2, 0.9)
    filled: dict[int, str] = {}
    for index in rng.sample(range(len(island.cells)), round(share * len(island.cells))):
        near = [filled[j] for j in island.neighbours[index] if j in filled]
        filled[index] = rng.choice(near) if near and rng.random() < 0.6 else rng.choice(colours)
    cells = [[*island.cells[i], filled[i]] for i in sorted(filled)]
    return {"game": "isle", "island": island.id, "conditions": conditions, "cells": cells}


def random_pigments(rng: random.Random) -> Position:
    """A whole palette board: each pan part-filled or full, some with a claimed shade card."""
    content = pigments.default_content()
    shades = rng.sample(sorted(content.shades), len(BOARD))
    pans = []
    for size, shade in zip(BOARD, shades, strict=True):
        chips = [rng.choice(list(Chip)).value for _ in range(rng.randint(0, size.slots))]
        claimed = shade if rng.random() < 0.5 else None
        pans.append({"pan": size.value, "chips": chips, "shade": claimed})
    return {"game": "pigments", "pans": pans}


GENERATORS: Mapping[str, Callable[[random.Random], Position]] = MappingProxyType(
    {
        "colorfield": random_colorfield,
        "paintings": random_paintings,
        "isle": random_isle,
        "pigments": random_pigments,
    }
)


def random_position(game: str, rng: random.Random) -> Position:
    """A random valid position of ``game`` in the positions.md JSON form."""
    if game not in GENERATORS:
        raise AtelierError(f"unknown game {game!r} (known: {', '.join(GENERATORS)})")
    return GENERATORS[game](rng)
