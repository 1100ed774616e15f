"""Setting up a game of Color Field: players, canvases, priming, the Palette, seeded shuffles."""

from __future__ import annotations

import doctest
from dataclasses import replace
from types import MappingProxyType

import pytest

import companion.games.colorfield.game as game_module
from companion.content.colorfield import ToolCard, default_content
from companion.errors import AtelierError
from companion.games.colorfield.game import new_game
from companion.games.colorfield.model import TileKind
from companion.games.colorfield.piles import new_piles
from companion.games.colorfield.state import Phase, Turn
from tests.colorfield.game_support import plain_content


@pytest.mark.parametrize("players", [2, 3, 4])
def test_set_up_for_two_to_four_players(players: int) -> None:
    state = new_game(default_content(), players=players, seed=1)
    assert len(state.players) == players
    assert state.round == 1
    assert state.phase is Phase.PLAYING
    assert state.turn == Turn(0)
    assert [state.tokens_left(seat) for seat in range(players)] == [3] * players
    assert state.scores == ()
    assert state.outcome is None
    assert state.tool is None


@pytest.mark.parametrize("players", [0, 1, 5])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(AtelierError, match=f"Color Field is for 2 to 4 players, not {players}"):
        new_game(default_content(), players=players, seed=1)


def test_each_player_gets_a_different_random_canvas_board() -> None:
    content = default_content()
    boards = {
        seed: [p.canvas.board for p in new_game(content, players=4, seed=seed).players]
        for seed in range(6)
    }
    for dealt in boards.values():
        assert len({board.id for board in dealt}) == 4
        assert all(board == content.canvases[board.id or ""] for board in dealt)
    # The deal depends on the seed: six seeds do not all give the same order.
    assert len({tuple(board.id for board in dealt) for dealt in boards.values()}) > 1


def test_canvases_can_be_chosen() -> None:
    content = default_content()
    state = new_game(content, players=2, seed=1, canvases=["canvas-4", "canvas-2"])
    assert [p.canvas.board for p in state.players] == [
        content.canvases["canvas-4"],
        content.canvases["canvas-2"],
    ]


@pytest.mark.parametrize(
    ("canvases", "message"),
    [
        (["canvas-1"], "1 canvas boards chosen for 2 players"),
        (["canvas-1", "canvas-9"], "unknown canvas board 'canvas-9'"),
        (["canvas-1", "canvas-1"], "each player needs a different canvas board"),
    ],
)
def test_bad_canvas_choices_are_refused(canvases: list[str], message: str) -> None:
    with pytest.raises(AtelierError, match=message):
        new_game(default_content(), players=2, seed=1, canvases=canvases)


def test_a_catalogue_with_too_few_boards_for_a_random_deal_is_refused() -> None:
    content = plain_content()
    small = replace(content, canvases=MappingProxyType(dict(list(content.canvases.items())[:2])))
    assert len(new_game(small, players=2, seed=3).players) == 2
    with pytest.raises(AtelierError, match="has 2 canvas boards for 3 players"):
        new_game(small, players=3, seed=3)


def test_a_catalogue_too_small_to_prime_every_canvas_is_refused() -> None:
    assert len(new_game(plain_content(foundation=18), players=3, seed=1).players) == 3
    with pytest.raises(AtelierError, match="has 17 Foundation tiles; priming 3 canvases needs 18"):
        new_game(plain_content(foundation=17), players=3, seed=1)


def test_priming_deals_the_foundation_deck_in_seat_order_into_spaces_1_to_6_up_mark_up() -> None:
    content = default_content()
    deck = new_piles(11, content.tiles.values()).deck(TileKind.FOUNDATION)
    state = new_game(content, players=3, seed=11)
    for seat, player in enumerate(state.players):
        assert [placed.tile for placed in player.canvas.spaces if placed] == list(
            deck[6 * seat : 6 * seat + 6]
        )
        assert all(placed is not None and placed.rotation == 0 for placed in player.canvas.spaces)
        assert all(placed is not None and placed.tile.up_mark for placed in player.canvas.spaces)
    assert state.piles.deck(TileKind.FOUNDATION) == deck[18:]


def test_the_palette_shows_the_top_three_tiles_of_the_round_1_deck() -> None:
    content = default_content()
    deck = new_piles(5, content.tiles.values()).deck(TileKind.ROUND1)
    state = new_game(content, players=2, seed=5)
    assert state.piles.palette == deck[:3]
    assert state.piles.deck(TileKind.ROUND1) == deck[3:]
    assert state.piles.deck(TileKind.ROUND2) == new_piles(5, content.tiles.values()).deck(
        TileKind.ROUND2
    )
    assert state.piles.discard == ()


def test_decks_are_shuffled_from_the_seed() -> None:
    content = default_content()
    one, same, other = (
        new_piles(seed, content.tiles.values()).deck(TileKind.ROUND3) for seed in (4, 4, 5)
    )
    assert one == same
    assert one != other
    assert sorted(t.id or "" for t in one) == [f"R3-{n:02d}" for n in range(1, 25)]


def test_setup_is_a_pure_function_of_its_inputs() -> None:
    content = default_content()
    tools = ["mahl-stick", "local-collective"]
    first = new_game(content, players=4, seed=99, community_tools=tools)
    again = new_game(content, players=4, seed=99, community_tools=tools)
    assert first == again
    assert first != new_game(content, players=4, seed=100, community_tools=tools)


def test_one_card_per_round_and_none_once_the_tool_deck_is_used_up() -> None:
    state = new_game(default_content(), players=2, seed=2, community_tools=["local-collective"])
    assert [tool.card.id for tool in state.tool_deck] == ["local-collective"]
    assert state.tool is not None
    assert state.tool.card.id == "local-collective"
    assert replace(state, round=2).tool is None
    assert replace(state, round=3).tool is None


def test_the_tool_deck_is_shuffled_from_the_seed() -> None:
    orders = {
        tuple(
            tool.card.id
            for tool in new_game(
                default_content(),
                players=2,
                seed=seed,
                community_tools=["mahl-stick", "local-collective"],
            ).tool_deck
        )
        for seed in range(8)
    }
    assert orders == {("mahl-stick", "local-collective"), ("local-collective", "mahl-stick")}


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (
            ["easel"],
            r"unknown Community Tools card 'easel' \(known: local-collective, mahl-stick\)",
        ),
        (["mahl-stick", "mahl-stick"], "Community Tools card 'mahl-stick' is chosen twice"),
    ],
)
def test_bad_card_choices_are_refused(cards: list[str], message: str) -> None:
    with pytest.raises(AtelierError, match=message):
        new_game(default_content(), players=2, seed=1, community_tools=cards)


def test_an_unknown_effect_is_refused_at_set_up() -> None:
    easel = ToolCard("easel", "Easel", "paint-twice", MappingProxyType({}), "")
    content = plain_content(extra_tools=[easel])
    with pytest.raises(
        AtelierError,
        match=r"card 'easel': unknown effect 'paint-twice' \(known effects: "
        r"inspiration-tokens, perfect-tiles-of-others\)",
    ):
        new_game(content, players=2, seed=1, community_tools=["mahl-stick", "easel"])


def test_a_card_missing_its_effect_params_is_refused_at_set_up() -> None:
    bare = ToolCard(
        "palette-knife", "Palette Knife", "inspiration-tokens", MappingProxyType({}), ""
    )
    content = plain_content(extra_tools=[bare])
    with pytest.raises(
        AtelierError, match="'palette-knife': effect 'inspiration-tokens' needs params tokens"
    ):
        new_game(content, players=2, seed=1, community_tools=["palette-knife"])


def test_the_module_documentation_example_runs() -> None:
    result = doctest.testmod(game_module)
    assert result.attempted >= 10
    assert result.failed == 0
