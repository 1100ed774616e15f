"""Support for the Color Field game tests: small catalogues, drivers, a policy and invariants.

``plain_content`` builds a catalogue whose tiles are all lemon on every edge, so scores can be
worked out by hand: on a board whose every segment shows lemon, a primed canvas scores 24 edge
points (six perfect tiles of 4) plus a lemon patch of 6 tiles and 10 segments = 40; on a board
with no lemon anywhere it scores 14 edge points (corners 2, middles 3) plus a patch of 6 = 20.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from companion.content.colorfield import ColorFieldContent, ToolCard
from companion.games.colorfield.actions import (
    Action,
    Decline,
    Discard,
    Keep,
    Pass,
    Place,
    RefreshPalette,
    Rotate,
    ScoreRound,
    Swap,
    TakeFromDeck,
    TakeFromPalette,
)
from companion.games.colorfield.game import apply
from companion.games.colorfield.model import SPACES, Canvas, Colour, Edge, Tile, TileKind
from companion.games.colorfield.state import GameState, Phase
from tests.colorfield.builders import board

LEMON_BOARDS = {
    "lemon-1": board(
        "lemon/coral lemon/coral lemon/coral",
        "lemon/navy lemon/navy lemon/navy",
        "lemon/turquoise lemon/turquoise",
        "lemon/coral lemon/coral",
    ),
    "lemon-2": board(
        "coral/lemon coral/lemon coral/lemon",
        "navy/lemon navy/lemon navy/lemon",
        "turquoise/lemon turquoise/lemon",
        "coral/lemon coral/lemon",
    ),
}
BARE_BOARDS = {
    "bare-1": board(
        "navy/turquoise navy/turquoise navy/turquoise",
        "navy/turquoise navy/turquoise navy/turquoise",
        "navy/turquoise navy/turquoise",
        "navy/turquoise navy/turquoise",
    ),
    "bare-2": board(
        "turquoise/navy turquoise/navy turquoise/navy",
        "turquoise/navy turquoise/navy turquoise/navy",
        "turquoise/navy turquoise/navy",
        "turquoise/navy turquoise/navy",
    ),
}
PREFIXES = {
    TileKind.FOUNDATION: "F",
    TileKind.ROUND1: "R1",
    TileKind.ROUND2: "R2",
    TileKind.ROUND3: "R3",
}
LEMON = (Edge(Colour.LEMON),) * 4

MAHL_STICK = ToolCard(
    "mahl-stick", "Mahl Stick", "perfect-tiles-of-others", MappingProxyType({"points": 1}), ""
)
LOCAL_COLLECTIVE = ToolCard(
    "local-collective",
    "Local Collective",
    "inspiration-tokens",
    MappingProxyType({"tokens": 5}),
    "",
)


def plain_content(
    foundation: int = 48,
    per_round: int = 24,
    extra_tools: Sequence[ToolCard] = (),
) -> ColorFieldContent:
    """All-lemon tiles, the lemon and bare boards, and the two known cards plus ``extra_tools``."""
    tiles: dict[str, Tile] = {}
    for kind, count in (
        (TileKind.FOUNDATION, foundation),
        (TileKind.ROUND1, per_round),
        (TileKind.ROUND2, per_round),
        (TileKind.ROUND3, per_round),
    ):
        for number in range(1, count + 1):
            tile_id = f"{PREFIXES[kind]}-{number:02d}"
            tiles[tile_id] = Tile(LEMON, tile_id, kind)
    tools = {card.id: card for card in (MAHL_STICK, LOCAL_COLLECTIVE, *extra_tools)}
    return ColorFieldContent(
        name="plain",
        canvases=MappingProxyType({**LEMON_BOARDS, **BARE_BOARDS}),
        tiles=MappingProxyType(tiles),
        tools=MappingProxyType(tools),
    )


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


def take_and_discard_round(state: GameState) -> GameState:
    """Every remaining turn of the round: take the deck's top tile (or pass) and discard it."""
    while state.phase is Phase.PLAYING:
        assert state.turn is not None
        seat = state.turn.seat
        if state.piles.can_draw(state.round_kind):
            state = play(state, TakeFromDeck(seat), Discard(seat))
        else:
            state = apply(state, Pass(seat))
    return state


def keep_nothing(state: GameState) -> GameState:
    for seat, player in enumerate(state.players):
        if player.keep is None:
            state = apply(state, Keep(seat, ()))
    return state


def with_canvases(state: GameState, canvases: Sequence[Canvas]) -> GameState:
    """``state`` with the players' canvases replaced (tile conservation no longer holds)."""
    players = tuple(
        replace(player, canvas=canvas)
        for player, canvas in zip(state.players, canvases, strict=True)
    )
    return replace(state, players=players)


# The scripted policy ---------------------------------------------------------------------------


def _turn_action(state: GameState, rng: random.Random) -> Action:
    assert state.turn is not None
    seat, turn = state.turn.seat, state.turn
    if turn.held is not None:
        if rng.random() < 0.25:
            return Discard(seat)
        return Place(seat, rng.choice(SPACES), rng.randrange(4))
    if not turn.refreshed and state.players[seat].refresh_ok and rng.random() < 0.3:
        return RefreshPalette(seat)
    slots = [slot for slot, tile in enumerate(state.piles.palette) if tile is not None]
    if slots and rng.random() < 0.6:
        return TakeFromPalette(seat, rng.choice(slots))
    if state.piles.can_draw(state.round_kind):
        return TakeFromDeck(seat)
    if slots:
        return TakeFromPalette(seat, rng.choice(slots))
    return Pass(seat)


def _side_action(state: GameState, rng: random.Random) -> Action | None:
    """Now and then a player (any player) uses Inspiration or declines the card."""
    seat = rng.randrange(len(state.players))
    player = state.players[seat]
    roll = rng.random()
    if roll < 0.08 and state.tokens_left(seat) > 0:
        if rng.random() < 0.5:
            first, second = rng.sample(SPACES, 2)
            return Swap(seat, first, second)
        space = rng.choice(SPACES)
        placed = player.canvas.at(space)
        assert placed is not None
        return Rotate(seat, space, (placed.rotation + rng.randrange(1, 4)) % 4)
    if roll < 0.1 and state.tool is not None and not player.declined and not player.relied_on_tool:
        return Decline(seat)
    return None


def policy(state: GameState, rng: random.Random) -> Action:
    """A legal action for ``state`` chosen with ``rng``: a simple scripted player for all seats."""
    if state.phase is Phase.KEEPING:
        seat = next(s for s, p in enumerate(state.players) if p.keep is None)
        allowance = state.scores[-1].players[seat].keep_allowance
        return Keep(seat, tuple(rng.sample(SPACES, rng.randint(0, allowance))))
    side = _side_action(state, rng)
    if side is not None:
        return side
    if state.phase is Phase.SCORING:
        return ScoreRound()
    return _turn_action(state, rng)


# Invariants --------------------------------------------------------------------------------------


def tile_locations(state: GameState) -> Counter[str]:
    """How many times each tile id appears anywhere on the table."""
    found: list[Tile] = [tile for deck in state.piles.decks for tile in deck]
    found += [tile for tile in state.piles.palette if tile is not None]
    found += state.piles.discard
    if state.turn is not None and state.turn.held is not None:
        found.append(state.turn.held)
    for player in state.players:
        found += [placed.tile for placed in player.canvas.spaces if placed is not None]
        found += player.card
    return Counter(tile.id or "" for tile in found)


def check_invariants(
    state: GameState, content: ColorFieldContent, before: GameState | None = None
) -> None:
    """What must hold after every action, whatever was played."""
    assert tile_locations(state) == Counter(list(content.tiles)), "every tile in exactly one place"
    assert len(state.piles.palette) == 3
    turns = [player.turns_taken for player in state.players]
    if state.phase is Phase.PLAYING:
        assert state.turn is not None
        seat = state.turn.seat
        # Seat order from the first player: those before the current seat are one turn ahead.
        assert turns == [turns[seat] + (1 if s < seat else 0) for s in range(len(turns))]
        assert turns[seat] < state.turns_this_round
    if state.phase in (Phase.PLAYING, Phase.SCORING):
        assert all(p.canvas.empty() == () for p in state.players)
        assert len(state.scores) == state.round - 1
    if state.phase is Phase.SCORING:
        assert turns == [state.turns_this_round] * len(turns)
    if state.phase in (Phase.KEEPING, Phase.OVER):
        assert len(state.scores) == state.round
    for seat, player in enumerate(state.players):
        assert 0 <= player.tokens_used <= 5
        if before is not None:
            used_before = before.players[seat].tokens_used
            assert player.tokens_used - used_before in (0, 1)
            if player.tokens_used > used_before:
                assert player.tokens_used <= before.tokens_allowed(seat)
    for scored in state.scores:
        for player_score in scored.players:
            assert player_score.total == player_score.canvas.total + player_score.tool.points
    if state.scores:
        totals = [sum(r.players[s].total for r in state.scores) for s in range(len(turns))]
        assert list(state.totals()) == totals


def play_out(
    state: GameState, content: ColorFieldContent, rng: random.Random, limit: int = 2000
) -> tuple[GameState, list[Action]]:
    """Drive the game to its end with ``policy``, checking invariants after every action."""
    actions: list[Action] = []
    check_invariants(state, content)
    while state.phase is not Phase.OVER:
        assert len(actions) < limit, "the game does not end"
        action = policy(state, rng)
        after = apply(state, action)
        check_invariants(after, content, state)
        actions.append(action)
        state = after
    return state, actions
