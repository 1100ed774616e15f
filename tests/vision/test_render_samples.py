"""Random positions: valid for the rules engines, printable, and a pure function of the seed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import AtelierError
from companion.games.pigments.model import PanSize
from companion.positions import evaluate_document
from companion.samples import GENERATORS, random_position
from vision.render.placing import plan_table

GAMES = tuple(GENERATORS)


@settings(max_examples=15, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_every_random_position_scores_and_every_component_is_printed(game: str, seed: int) -> None:
    document = random_position(game, random.Random(seed))
    assert document["game"] == game
    evaluate_document(document, "sample")
    plan = plan_table(document, "sample")
    keys = [p.layout.key for b in plan.boards for p in b.pieces]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_position_and_others_differ(game: str) -> None:
    first = random_position(game, random.Random(11))
    assert random_position(game, random.Random(11)) == first
    others = [random_position(game, random.Random(seed)) for seed in range(12, 16)]
    assert any(other != first for other in others)


def test_colorfield_fills_every_space_with_foundation_tiles_upright() -> None:
    for seed in range(20):
        document = random_position("colorfield", random.Random(seed))
        spaces = document["spaces"]
        assert len(spaces) == 6 and all(space is not None for space in spaces)
        for space in spaces:
            if space["tile"].startswith("F-"):
                assert space["rotation"] == 0


def test_pigments_pans_never_overflow_and_follow_board_order() -> None:
    for seed in range(20):
        pans = random_position("pigments", random.Random(seed))["pans"]
        assert [p["pan"] for p in pans] == ["small", "medium", "medium", "large"]
        for pan in pans:
            assert len(pan["chips"]) <= PanSize(pan["pan"]).slots


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(AtelierError, match="unknown game 'chess'"):
        random_position("chess", random.Random(1))
