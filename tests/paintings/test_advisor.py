"""The painting advisor is exact (checked against brute force over whole scores) and fast."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content.paintings import default_content
from companion.games.paintings.advisor import advise, ribbons_won
from companion.games.paintings.model import ArtCard, Goal, Painting, ScoringCard
from companion.games.paintings.scoring import score_player
from tests.paintings.builders import card, scoring

DECK = default_content().deck()
POOL = tuple(default_content().scoring_cards.values())

HUE = card("hue | - | - | - | -")
TEXTURES = card("texture | texture | texture | - | -")
SHAPE = card("- | - | - | shape | -")
TONE = card("- | - | - | - | tone")
CHOICE = (HUE, TEXTURES, SHAPE, TONE)
GOALS = scoring(Goal.EMPHASIS, Goal.STYLE, Goal.REPETITION, Goal.SYMMETRY)


def brute_force_best(
    hand: list[ArtCard], cards: tuple[ScoringCard, ...], previous: list[Painting]
) -> int:
    """The most a painting from ``hand`` adds to the player's whole final score."""
    before = score_player(previous, cards).total
    return max(
        score_player([*previous, Painting((hand[a], hand[b], hand[c]))], cards).total - before
        for a, b, c in permutations(range(len(hand)), 3)
    )


@pytest.mark.parametrize(
    ("won", "points", "goal"),
    [
        ({}, 4, Goal.STYLE),  # style 0 -> 4 beats emphasis 0 -> 1
        ({Goal.EMPHASIS: 1}, 4, Goal.STYLE),  # emphasis 1 -> 4 (+3) still loses to +4
        ({Goal.EMPHASIS: 2}, 7, Goal.EMPHASIS),  # emphasis 4 -> 11 (+7) wins
        ({Goal.EMPHASIS: 3}, 4, Goal.STYLE),  # emphasis is past its track's end: +0
        ({Goal.STYLE: 2, Goal.EMPHASIS: 2}, 8, Goal.STYLE),  # style 10 -> 18 (+8) beats +7
        ({Goal.STYLE: 3, Goal.EMPHASIS: 3}, 0, None),  # nothing left to gain
    ],
)
def test_marginal_points_decide_between_tracks(
    won: dict[Goal, int], points: int, goal: Goal | None
) -> None:
    advice = advise(CHOICE, GOALS, won)
    assert advice.best.points == points
    earned = {g.card.goal for g in advice.best.gains if g.points > 0}
    assert earned == ({goal} if goal else set())


def test_every_order_is_considered() -> None:
    assert len(advise(CHOICE[:3], GOALS, {}).options) == 6
    assert len(advise(CHOICE, GOALS, {}).options) == 24
    assert len(advise(DECK[:5], GOALS, {}).options) == 60


def test_options_are_ranked_best_first() -> None:
    options = advise(DECK[10:15], POOL[:4], {}).options
    assert [o.points for o in options] == sorted((o.points for o in options), reverse=True)


def test_reasons_name_the_cards_the_gains_and_the_runner_up() -> None:
    advice = advise(CHOICE, GOALS, {Goal.EMPHASIS: 2})
    first, *rest = advice.reasons
    assert first.startswith("Paint hand card ") and first.endswith("bottom to top: +7 points.")
    assert (
        "emphasis: 1 ribbon (exactly one hue is visible, in slot 1); 2 already won, "
        "track 4 -> 11: +7" in rest
    )
    assert any(line.startswith("Next best:") and "(3 fewer)" in line for line in rest)


@pytest.mark.parametrize("size", [2, 6])
def test_hand_size_is_three_to_five(size: int) -> None:
    with pytest.raises(ValueError, match="3 to 5 cards"):
        advise(DECK[:size], GOALS, {})


def test_ribbons_won_sums_earlier_paintings() -> None:
    two_shapes = Painting((HUE, SHAPE, card("shape | - | - | - | -")))
    assert ribbons_won([two_shapes, two_shapes], GOALS) == {
        Goal.EMPHASIS: 0,  # the top card covers the hue in slot 1
        Goal.STYLE: 0,
        Goal.REPETITION: 2,
        Goal.SYMMETRY: 0,
    }


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(3, 5),
    st.integers(0, 2),
)
def test_advice_matches_brute_force_over_whole_scores(seed: int, size: int, earlier: int) -> None:
    rng = random.Random(seed)
    cards = tuple(rng.sample(POOL, 4))
    drawn = rng.sample(DECK, size + 3 * earlier)
    hand = drawn[:size]
    previous = [
        Painting((drawn[size + 3 * i], drawn[size + 3 * i + 1], drawn[size + 3 * i + 2]))
        for i in range(earlier)
    ]
    advice = advise(hand, cards, ribbons_won(previous, cards))
    best = brute_force_best(hand, cards, previous)
    assert advice.best.points == best
    # The advised painting really adds that much to the whole score.
    a, b, c = advice.best.order
    chosen = Painting((hand[a], hand[b], hand[c]))
    gain = score_player([*previous, chosen], cards).total - score_player(previous, cards).total
    assert gain == best
