"""A statistical gate on the Color Field reader in an overexposed photo: a frozen sample of hard
renders from the train split at +1 EV. A canvas whose coloured print the light blew out is
still read tile by tile (each tile named by its marker, borne out by the edges whose paint
shows), never refused whole, and never read confidently wrong.

Measured when set (train seeds 20000-20019, hard, +1 EV): refused whole when a quarter of the
print clipped, 15 of 20 boards were read exactly; read tile by tile, 18 of 20. The least: the
lower end of the 95 % Wilson interval of 18 in 20.
"""

from __future__ import annotations

import pytest

from tests.vision.gates import train_trials

GATE_BOARDS = 20
LEAST_EXACT = 14


@pytest.mark.slow
def test_overexposed_canvases_are_read_tile_by_tile_never_refused_whole() -> None:
    trials = train_trials("colorfield", ["ev:+1"], GATE_BOARDS)["ev:+1"]
    assert [t.seed for t in trials if t.outcome in ("confident-wrong", "missed")] == []
    assert [t.seed for t in trials if any("overexposed" in p for p in t.problems)] == []
    exact = sum(t.outcome == "exact" for t in trials)
    assert exact >= LEAST_EXACT, [(t.seed, t.problems[:2]) for t in trials]
