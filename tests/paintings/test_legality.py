"""Paintings legality between two scans: each rule proved, legal turns never warned about."""

from __future__ import annotations

import random
from typing import Any

from companion.games.paintings.legality import check
from companion.games.paintings.position import PaintingsPosition, position_to_json
from companion.games.paintings.rules import PaintingsRules
from companion.games.paintings.state import GameState
from companion.games.protocol import Setup

GOALS = ["variety", "repetition", "emphasis", "composition"]
INLINE = {"slots": [[], ["hue"], [], ["shape", "bonus-tone"], []]}
# The printed slots of catalogue card A-01, as an inline read shows them.
A01_SLOTS = [[], ["bonus-texture", "hue"], [], ["shape"], ["tone"]]


def board(*paintings: list[Any]) -> dict[str, Any]:
    """A position as the table holds it: each painting three card ids (or inline cards)."""
    return {
        "game": "paintings",
        "scoring_cards": GOALS,
        "paintings": [[c if isinstance(c, dict) else {"card": c} for c in p] for p in paintings],
    }


P1 = ["A-01", "A-02", "A-03"]
P2 = ["A-04", "A-05", "A-06"]
P3 = ["A-07", "A-08", "A-09"]


def rules(found: tuple[Any, ...]) -> list[str]:
    return [v.rule for v in found]


def test_a_take_turn_changes_nothing_and_a_completed_painting_is_legal() -> None:
    assert check(board(P1), board(P1)) == ()
    assert check(board(P1), board(P1, P2)) == ()
    assert check(board(P1, P2), board(P1, P2, P3)) == ()


def test_a_replaced_card_is_named_by_its_place() -> None:
    (found,) = check(board(P1, P2), board(P1, ["A-04", "A-10", "A-06"]))
    assert found.rule == "painting-changed"
    assert found.components == ("painting 2 card middle",)
    # A card is told by its icons in slot order (A-05, then A-10), never by its id.
    assert found.message == (
        "a completed painting never changes, but painting 2 did: the middle card was the card "
        "with texture bonus, tone, hue and shape, now the card with tone bonus, shape and texture"
    )


def test_reordered_cards_are_a_change() -> None:
    (found,) = check(board(P1), board(["A-03", "A-02", "A-01"]))
    assert found.rule == "painting-changed"
    assert found.components == ("painting 1 card bottom", "painting 1 card top")
    assert "another order" in found.message


def test_an_inline_read_of_the_same_card_is_not_a_change() -> None:
    inline = {"slots": A01_SLOTS}
    assert check(board(P1), board([inline, "A-02", "A-03"])) == ()
    assert check(board([inline, "A-02", "A-03"]), board(P1)) == ()
    # Different printed slots prove another card, id or not.
    (found,) = check(board(P1), board([INLINE, "A-02", "A-03"]))
    assert found.rule == "painting-changed"
    assert found.components == ("painting 1 card bottom",)


def test_a_painting_taken_back() -> None:
    (found,) = check(board(P1, P2), board(P1))
    assert found.rule == "painting-removed"
    assert found.components == tuple(f"painting 2 card {p}" for p in ("bottom", "middle", "top"))
    assert "never taken back" in found.message and "painting 2" in found.message


def test_two_paintings_in_one_turn() -> None:
    (found,) = check(board(P1), board(P1, P2, P3))
    assert found.rule == "one-painting-per-turn"
    assert found.components[0] == "painting 2 card bottom"
    assert found.components[-1] == "painting 3 card top"
    assert "2 new paintings" in found.message


def test_a_card_twice_on_one_board() -> None:
    (found,) = check(None, board(P1, ["A-04", "A-01", "A-06"]))
    assert found.rule == "card-twice"
    assert found.components == ("painting 1 card bottom", "painting 2 card middle")
    assert found.message == (
        "the deck holds each card once, but the card with texture bonus, hue, shape and tone "
        "is the bottom card of painting 1 and the middle card of painting 2"
    )


def test_a_card_on_another_players_board() -> None:
    (found,) = check(board(P1), board(P1, P2), others=[board(["A-05", "A-11", "A-12"])])
    assert found.rule == "card-twice"
    assert found.components == ("painting 2 card middle",)
    assert found.message == (
        "the deck holds each card once, but the card with texture bonus, tone, hue and shape, "
        "the middle card of painting 2, is also on another player's board"
    )
    assert check(board(P1), board(P1, P2), others=[board(P3)]) == ()


def test_inline_cards_are_never_called_twice() -> None:
    assert check(None, board([INLINE, INLINE, "A-01"])) == ()


def test_without_an_earlier_scan_only_card_twice_applies() -> None:
    assert check(None, board(P1, P2, P3)) == ()


def test_a_position_that_does_not_parse_proves_nothing() -> None:
    assert check(board(P1, P2), {"game": "paintings", "paintings": [["A-01"]]}) == ()
    assert check({"game": "paintings"}, board(P1)) == ()
    assert check(board(P1, P2), board(P1), others=[{"game": "paintings"}]) != ()


def test_violations_serialise() -> None:
    (found,) = check(board(P1, P2), board(P1))
    assert found.to_json()["rule"] == "painting-removed"


def _position(state: GameState, seat: int) -> dict[str, Any] | None:
    paintings = state.players[seat].paintings
    if not paintings:
        return None  # no painting yet: the table holds no position that parses
    json = position_to_json(PaintingsPosition(state.scoring_cards, paintings))
    return {**json, "scoring_cards": GOALS}


def test_random_legal_games_never_warn() -> None:
    game = PaintingsRules()
    rng = random.Random(11)
    for seed in range(6):
        state = game.new_game(Setup(players=2 + seed % 4, seed=seed, options={}))
        while not game.over(state):
            seat = game.whose_turn(state)
            assert seat is not None
            before = _position(state, seat)
            state = game.apply(state, rng.choice(game.legal_actions(state)))
            after = _position(state, seat)
            others = [
                p
                for s in range(len(state.players))
                if s != seat and (p := _position(state, s)) is not None
            ]
            if after is not None:
                assert check(before, after, others) == ()
