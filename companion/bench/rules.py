"""The rules benchmark: positions scored (and advice given) per second, for every game.

Each row's cost is given in units of a baseline measured in the same run (reading every edge of
the sample canvases once), so a row can be compared across machines and across versions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from companion.bench.timing import Rate, measure
from companion.content import colorfield as colorfield_content
from companion.content import isle as isle_content
from companion.content import paintings as paintings_content
from companion.content import pigments as pigments_content
from companion.fields import Field
from companion.games.colorfield.model import Canvas, PlacedTile
from companion.games.colorfield.position import canvas_to_json, parse_canvas
from companion.games.colorfield.scoring import score_canvas
from companion.games.isle.advisor import advise as advise_isle
from companion.games.isle.model import Colour as IsleColour
from companion.games.isle.model import Condition, Conditions, Sheet
from companion.games.isle.scoring import score_sheet
from companion.games.paintings.advisor import advise, ribbons_won
from companion.games.paintings.model import Painting
from companion.games.paintings.scoring import score_player
from companion.games.pigments.checker import check_pan
from companion.games.pigments.model import Chip, Pan, PanSize, Shade

SAMPLE_SIZE = 500


def random_canvases(seed: int, count: int) -> list[Canvas]:
    """Full canvases of catalogue tiles at random rotations on random catalogue boards."""
    content = colorfield_content.default_content()
    rng = random.Random(seed)
    tiles = list(content.tiles.values())
    boards = list(content.canvases.values())
    return [
        Canvas(
            rng.choice(boards),
            tuple(PlacedTile(t, rng.randrange(4)) for t in rng.sample(tiles, 6)),
        )
        for _ in range(count)
    ]


def _read_every_edge(canvas: Canvas) -> int:
    total = 0
    for placed in canvas.spaces:
        if placed is not None:
            for edge in placed.tile.edges:
                total += edge.multiplier
    return total


def _colorfield_rows(seed: int, seconds: float) -> tuple[Rate, list[Rate]]:
    canvases = random_canvases(seed, SAMPLE_SIZE)
    content = colorfield_content.default_content()
    documents = [json.dumps(canvas_to_json(c)) for c in canvases]

    def parse_and_score(text: str) -> object:
        return score_canvas(parse_canvas(Field(json.loads(text)), content)).to_json()

    baseline = measure("baseline: read every edge", _read_every_edge, canvases, seconds)
    return baseline, [
        measure("colorfield: score canvas", score_canvas, canvases, seconds),
        measure("colorfield: parse+score+json", parse_and_score, documents, seconds),
    ]


def _paintings_rows(seed: int, seconds: float) -> list[Rate]:
    content = paintings_content.default_content()
    rng = random.Random(seed)
    deck = list(content.deck())
    goals = list(content.scoring_cards.values())
    players = []
    for _ in range(SAMPLE_SIZE // 5):
        cards = tuple(rng.sample(goals, 4))
        drawn = rng.sample(deck, 14)
        paintings = [Painting((drawn[i], drawn[i + 1], drawn[i + 2])) for i in (0, 3, 6)]
        players.append((cards, paintings, drawn[9:14]))

    def score(player: tuple[Any, ...]) -> object:
        return score_player(player[1], player[0])

    def advice(player: tuple[Any, ...]) -> object:
        cards, paintings, hand = player
        return advise(hand, cards, ribbons_won(paintings[:2], cards))

    return [
        measure("paintings: score 3 paintings", score, players, seconds),
        measure("paintings: advise a 5-card hand", advice, players, seconds),
    ]


def _pigments_rows(seed: int, seconds: float) -> list[Rate]:
    content = pigments_content.default_content()
    rng = random.Random(seed)
    shades = list(content.shades.values())
    chips = list(Chip)
    pans = []
    for _ in range(SAMPLE_SIZE):
        size = rng.choice(list(PanSize))
        pans.append((Pan(size, tuple(rng.choices(chips, k=size.slots))), rng.choice(shades)))

    def check(pan: tuple[Pan, Shade]) -> object:
        return check_pan(pan[0], pan[1], content.catalogue)

    return [measure("pigments: check a full pan", check, pans, seconds)]


ISLE_ADVICE_SAMPLE = 4  # one advice on a half-filled sheet takes tens of milliseconds


def _isle_rows(seed: int, seconds: float) -> list[Rate]:
    island = isle_content.default_content().islands["default"]
    rng = random.Random(seed)
    colours = list(IsleColour)
    sheets = []
    for _ in range(SAMPLE_SIZE // 5):
        filled = rng.sample(island.cells, len(island.cells) // 2)
        sheet = Sheet.from_cells(island, {cell: rng.choice(colours) for cell in filled})
        conditions = Conditions.from_mapping(
            {c: rng.choice([x for x in Condition if x.colour is c]) for c in colours}
        )
        sheets.append((sheet, conditions, tuple(rng.sample(colours, 2)), rng.randint(1, 6)))

    def score(item: tuple[Any, ...]) -> object:
        return score_sheet(item[0], item[1])

    def advice(item: tuple[Any, ...]) -> object:
        sheet, conditions, hand, roll = item
        # Two players: the colour used is handed over, the other one is kept.
        kept = {c: tuple(x for x in hand if x is not c) for c in hand}
        return advise_isle(sheet, conditions, hand, roll, kept)

    return [
        measure("isle: score a half-filled sheet", score, sheets, seconds),
        measure("isle: advise a roll (look-ahead)", advice, sheets[:ISLE_ADVICE_SAMPLE], seconds),
    ]


SUITES: tuple[tuple[str, Callable[[int, float], list[Rate]]], ...] = (
    ("Paintings", _paintings_rows),
    ("Isle of Colors", _isle_rows),
    ("Pigment Lab", _pigments_rows),
)


def _quiet(step: str) -> None:
    """No progress shown."""


def run_rules_bench(
    seconds: float, seed: int, progress: Callable[[str], None] = _quiet
) -> dict[str, Any]:
    """Every row measured for ``seconds``; ``progress`` is told each game as it begins."""
    progress("Color Field")
    baseline, rates = _colorfield_rows(seed, seconds)
    for name, suite in SUITES:
        progress(name)
        rates.extend(suite(seed, seconds))
    return {
        "suite": "rules",
        "seconds_per_row": seconds,
        "rows": [
            {
                "name": r.name,
                "per_second": round(r.per_second, 1),
                "ms_per_item": round(1000 / r.per_second, 4),
                # How many baseline items fit in the time of one item of this row.
                "cost_in_baselines": round(baseline.per_second / r.per_second, 2),
            }
            for r in [baseline, *rates]
        ],
    }
