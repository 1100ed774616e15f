"""Decks that run out: re-formed from the same deck's discards; a pass when nothing is left."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.content.colorfield import default_content
from companion.errors import IllegalActionError
from companion.games.colorfield.actions import (
    Action,
    Discard,
    Pass,
    RefreshPalette,
    ScoreRound,
    TakeFromDeck,
    TakeFromPalette,
)
from companion.games.colorfield.game import apply, new_game
from companion.games.colorfield.model import Tile, TileKind
from companion.games.colorfield.piles import Piles
from companion.games.colorfield.state import GameState, Phase
from tests.colorfield.game_support import (
    keep_nothing,
    plain_content,
    play,
    take_and_discard_round,
)

CONTENT = plain_content(foundation=4, per_round=2)
F1, F2, F3, F4 = CONTENT.deck(TileKind.FOUNDATION)
R1A, R1B = CONTENT.deck(TileKind.ROUND1)
R2A, R2B = CONTENT.deck(TileKind.ROUND2)


def piles(
    decks: tuple[tuple[Tile, ...], ...] = ((), (), (), ()),
    palette: tuple[Tile | None, ...] = (None, None, None),
    discard: tuple[Tile, ...] = (),
) -> Piles:
    return Piles(seed=5, shuffles=0, decks=decks, palette=palette, discard=discard)


def refused(state: GameState, action: Action, rule: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert caught.value.rule == rule
    return caught.value


def test_drawing_takes_the_top_tile() -> None:
    after, tile = piles(decks=((F1, F2), (), (), ())).draw(TileKind.FOUNDATION)
    assert tile == F1
    assert after.deck(TileKind.FOUNDATION) == (F2,)
    assert after.shuffles == 0


def test_an_empty_deck_is_re_formed_from_its_own_tiles_in_the_discard() -> None:
    table = piles(discard=(F1, R1A, F2, R2A, F3))
    assert table.can_draw(TileKind.FOUNDATION)
    after, tile = table.draw(TileKind.FOUNDATION)
    assert tile in (F1, F2, F3)
    assert after.discard == (R1A, R2A)
    assert Counter([tile, *after.deck(TileKind.FOUNDATION)]) == Counter([F1, F2, F3])
    assert after.shuffles == 1
    # The same table re-forms the same way: the order comes from the seed and the counter.
    assert table.draw(TileKind.FOUNDATION) == (after, tile)


def test_a_deck_with_nothing_to_re_form_gives_nothing() -> None:
    table = piles(decks=((F1,), (), (), ()), discard=(R1A, F2))
    assert not table.can_draw(TileKind.ROUND2)
    assert table.draw(TileKind.ROUND2) == (table, None)


def test_the_palette_fills_left_to_right_as_far_as_the_deck_goes() -> None:
    table = piles(decks=((), (R1A, R1B), (), ()), palette=(None, F4, None))
    after = table.fill_palette(TileKind.ROUND1)
    assert after.palette == (R1A, F4, R1B)
    partial = piles(decks=((), (R1A,), (), ())).fill_palette(TileKind.ROUND1)
    assert partial.palette == (R1A, None, None)


def test_clearing_the_palette_sends_its_tiles_to_the_discard() -> None:
    after = piles(palette=(R1A, None, R1B), discard=(F1,)).clear_palette()
    assert after.palette == (None, None, None)
    assert after.discard == (F1, R1A, R1B)


def test_the_foundation_deck_is_reshuffled_from_its_discards_when_it_runs_out() -> None:
    # Four players prime 24 tiles in rounds 1 and 2 each: round 3 finds the deck empty.
    state = new_game(default_content(), players=4, seed=13)
    state = keep_nothing(apply(take_and_discard_round(state), ScoreRound()))
    assert len(state.piles.deck(TileKind.FOUNDATION)) == 0
    state = apply(take_and_discard_round(state), ScoreRound())
    # Round 1's canvases are in the central discard; round 2's go there when the round resets.
    discarded = [t for t in state.piles.discard if t.kind is TileKind.FOUNDATION]
    on_canvases = [placed.tile for p in state.players for placed in p.canvas.spaces if placed]
    assert len(discarded) == len(on_canvases) == 24
    shuffles = state.piles.shuffles
    state = keep_nothing(state)
    assert state.round == 3
    assert state.piles.shuffles == shuffles + 1
    primed = [placed.tile for p in state.players for placed in p.canvas.spaces if placed]
    assert len(primed) == 24
    reformed = [*primed, *state.piles.deck(TileKind.FOUNDATION)]
    assert Counter(reformed) == Counter([*discarded, *on_canvases])
    assert not any(t.kind is TileKind.FOUNDATION for t in state.piles.discard)


def round_1_tiles_to_draw(state: GameState) -> Counter[Tile]:
    """Round 1 tiles the Palette and deck hold or can get back from the central discard."""
    return Counter(
        [
            *state.piles.deck(TileKind.ROUND1),
            *[t for t in state.piles.palette if t is not None],
            *[t for t in state.piles.discard if t.kind is TileKind.ROUND1],
        ]
    )


def test_a_round_deck_is_re_formed_from_its_discards_when_it_runs_out() -> None:
    state = new_game(default_content(), players=2, seed=4)
    reforms = 0
    # Refreshing every turn and drawing from the deck uses 4 tiles a turn: 21 run out fast.
    while state.phase is Phase.PLAYING:
        assert state.turn is not None
        seat = state.turn.seat
        before = round_1_tiles_to_draw(state)
        after = apply(state, RefreshPalette(seat))
        if after.piles.shuffles > state.piles.shuffles:
            reforms += 1
            assert len(state.piles.deck(TileKind.ROUND1)) < 3  # too few to refill: re-formed
            assert not any(t.kind is TileKind.ROUND1 for t in after.piles.discard)
            drawable = [*after.piles.palette, *after.piles.deck(TileKind.ROUND1)]
            assert Counter(drawable) == before
        state = play(after, TakeFromDeck(seat), Discard(seat))
    assert reforms >= 1


def short_of_tiles() -> GameState:
    """Round 1 has 3 tiles for 2 players: the Palette is all there is."""
    state = new_game(plain_content(per_round=3), players=2, seed=6, canvases=["bare-1", "bare-2"])
    assert state.piles.deck(TileKind.ROUND1) == ()
    return state


def test_an_empty_palette_slot_cannot_be_taken() -> None:
    state = play(short_of_tiles(), TakeFromPalette(0, 0), Discard(0))
    assert state.piles.palette[0] is None
    error = refused(state, TakeFromPalette(1, 0), "palette")
    assert "Palette slot 0 is empty" in error.message


def test_pass_only_when_nothing_can_be_taken_and_it_counts_as_a_turn() -> None:
    state = short_of_tiles()
    refused(state, Pass(0), "deck-exhaustion")
    state = play(state, TakeFromPalette(0, 0), Discard(0), TakeFromPalette(1, 1), Discard(1))
    refused(state, Pass(0), "deck-exhaustion")
    state = play(state, TakeFromPalette(0, 2), Discard(0))
    assert state.piles.palette == (None, None, None)
    error = refused(state, TakeFromDeck(1), "deck-exhaustion")
    assert "the round 1 deck and its discards are empty" in error.message
    state = apply(state, Pass(1))
    assert [(len(p.card), p.passes, p.turns_taken) for p in state.players] == [(2, 0, 2), (1, 1, 2)]
    state = take_and_discard_round(state)
    assert state.phase is Phase.SCORING
    assert [(len(p.card), p.passes) for p in state.players] == [(2, 3), (1, 4)]
    # Round 2 has its own deck again.
    state = keep_nothing(apply(state, ScoreRound()))
    assert state.round == 2
    assert [t is not None for t in state.piles.palette] == [True, True, True]
    assert [p.passes for p in state.players] == [0, 0]


def test_a_pass_is_refused_while_holding_a_tile() -> None:
    state = apply(short_of_tiles(), TakeFromPalette(0, 1))
    refused(state, Pass(0), "deck-exhaustion")
