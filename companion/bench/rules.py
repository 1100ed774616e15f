"""The rules benchmark: canvases scored per second, against a read-every-edge baseline."""

from __future__ import annotations

import json
import random
from typing import Any

from companion.bench.timing import Rate, measure
from companion.content.colorfield import default_content
from companion.fields import Field
from companion.games.colorfield.model import Canvas, PlacedTile
from companion.games.colorfield.position import canvas_to_json, parse_canvas
from companion.games.colorfield.scoring import score_canvas

SAMPLE_SIZE = 500


def random_canvases(seed: int, count: int) -> list[Canvas]:
    """Full canvases of catalogue tiles at random rotations on random catalogue boards."""
    content = default_content()
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


def run_rules_bench(seconds: float, seed: int) -> dict[str, Any]:
    canvases = random_canvases(seed, SAMPLE_SIZE)
    content = default_content()
    documents = [json.dumps(canvas_to_json(c)) for c in canvases]

    def parse_and_score(text: str) -> object:
        return score_canvas(parse_canvas(Field(json.loads(text)), content)).to_json()

    baseline = measure("baseline: read every edge", _read_every_edge, canvases, seconds)
    rates: list[Rate] = [
        baseline,
        measure("colorfield: score canvas", score_canvas, canvases, seconds),
        measure("colorfield: parse+score+json", parse_and_score, documents, seconds),
    ]
    return {
        "suite": "rules",
        "seconds_per_row": seconds,
        "sample": SAMPLE_SIZE,
        "rows": [
            {
                "name": r.name,
                "per_second": round(r.per_second, 1),
                # How many baseline items fit in the time of one item of this row.
                "cost_in_baselines": round(baseline.per_second / r.per_second, 2),
            }
            for r in rates
        ],
    }
