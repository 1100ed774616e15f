"""The fast gain evaluator agrees with rescoring the whole sheet, for every condition."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.isle.gain import GainTable
from companion.games.isle.model import CONDITIONS, Colour, Condition, Conditions, Sheet
from companion.games.isle.placements import placements
from companion.games.isle.scoring import score_sheet
from tests.isle.drawing import default_island
from tests.isle.drawing import draw as draw_sheet


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    """Sheets of the default island from nearly empty to nearly full."""
    island = default_island()
    density = draw(st.integers(0, 85))
    rng = random.Random(draw(st.integers(0, 2**32)))
    fills = tuple(
        rng.choice(list(Colour)) if rng.randrange(100) < density else None for _ in island.cells
    )
    return Sheet(island, fills)


conditions = st.builds(
    Conditions,
    st.sampled_from(CONDITIONS[Colour.GREEN]),
    st.sampled_from(CONDITIONS[Colour.BLUE]),
    st.sampled_from(CONDITIONS[Colour.BROWN]),
    st.sampled_from(CONDITIONS[Colour.RED]),
)


@settings(max_examples=60, deadline=None)
@given(sheets(), conditions, st.integers(1, 6), st.integers(0, 10_000), st.sampled_from(Colour))
def test_gain_equals_the_change_in_score(
    sheet: Sheet, chosen: Conditions, size: int, pick: int, colour: Colour
) -> None:
    options = list(placements(sheet.island, sheet.empty_mask, size))
    if not options:
        return
    mask = options[pick % len(options)]
    before = score_sheet(sheet, chosen).total
    after = score_sheet(sheet.with_fill(mask, colour), chosen).total
    assert GainTable(sheet, chosen).gain(mask, colour) == after - before


def test_gain_of_closing_a_river_loop_and_branching_it() -> None:
    sheet = draw_sheet(
        """
        . B B .
         B . B .
        . B . .
        """
    )
    table = GainTable(
        sheet, Conditions(Condition.GRASS, Condition.RIVER, Condition.BEACH, Condition.TOWN)
    )
    closing = sheet.island.mask_of([c for c in sheet.island.cells if c == (2, 2)])
    assert table.gain(closing, Colour.BLUE) == 2  # a loop of 6 replaces a line of 5
    centre = sheet.island.mask_of([c for c in sheet.island.cells if c == (1, 1)])
    assert table.gain(centre, Colour.BLUE) == -10  # the centre makes it no river at all
