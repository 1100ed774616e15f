"""Color Field as a state machine: ``new_game`` sets up a table, ``apply`` plays one action.

Public surface:

- ``new_game(content, players, seed, community_tools=None, canvases=None, effects=...)`` gives
  the ``GameState`` at the start of round 1 (``state.py``); every shuffle and the canvas deal
  come from the seed, so a game is a pure function of its inputs and its actions.
- ``apply(state, action) -> GameState`` with the actions of ``actions.py``; an illegal action
  raises ``IllegalActionError`` whose ``rule`` is one of ``actions.Rule``.
- The state answers: ``phase`` (playing, scoring, keeping, over), ``turn`` (seat, tile held),
  ``players[seat]`` (canvas, player card, tokens used), ``piles`` (decks, Palette, central
  discard), ``tool`` (this round's Community Tools card), ``tokens_left(seat)``, ``totals()``,
  ``scores`` (per round and player: the ``CanvasScore`` with every point explained, the card's
  ``ToolBonus`` with its reason, the cumulative total, position and keep allowance) and, at the
  end, ``outcome`` (winner seats and the criterion that decided).

Worked example (seat 0 holds the First Player marker)::

    >>> from companion.content.colorfield import default_content
    >>> from companion.games.colorfield.actions import (
    ...     Discard, Place, Rotate, ScoreRound, TakeFromDeck, TakeFromPalette)
    >>> state = new_game(default_content(), players=2, seed=7, community_tools=["mahl-stick"])
    >>> state.phase.value, state.turn.seat, state.tool.card.name
    ('playing', 0, 'Mahl Stick')
    >>> [tile.id for tile in state.piles.palette]
    ['R1-15', 'R1-16', 'R1-24']
    >>> state = apply(state, TakeFromPalette(player=0, slot=1))
    >>> state = apply(state, Place(player=0, space=5, rotation=2))
    >>> [tile.id for tile in state.players[0].card], state.turn.seat
    (['F-26'], 1)
    >>> state = apply(state, Rotate(player=1, space=1, rotation=3))  # Inspiration: not a turn
    >>> state.tokens_left(1)
    2
    >>> apply(state, TakeFromDeck(player=0))
    Traceback (most recent call last):
    companion.errors.IllegalActionError: it is player 1's turn, not player 0's (rule: not-your-turn)
    >>> while state.phase.value == "playing":
    ...     seat = state.turn.seat
    ...     state = apply(apply(state, TakeFromDeck(seat)), Discard(seat))
    >>> state = apply(state, ScoreRound())
    >>> [(p.canvas.total, p.tool.points, p.cumulative, p.position, p.keep_allowance)
    ...  for p in state.scores[0].players]
    [(17, 0, 17, 1, 1), (13, 1, 14, 2, 2)]
    >>> state.scores[0].players[1].tool.reason
    'Mahl Stick: 1 perfect tile on the other canvases x 1 = 1'

Rulings where the rules are silent:

- Priming deals each player's Foundation tiles in seat order from the first player; the first
  tile dealt goes to the first empty space. A catalogue with fewer than 6 Foundation tiles per
  player is refused at set-up, since priming could otherwise run dry.
- The Palette refresh is allowed once per turn, before taking, if no Palette tile was taken
  since the player's last turn; the Palette laid out at the start of a round counts as every
  player's last turn. The Palette is not refilled after the round's last turn.
- A deck that runs out is re-formed by shuffling that deck's tiles from the central discard.
  When neither the Palette nor the round deck (with its discards) can give a tile, the player
  must ``Pass``: the turn is forfeited and still counts, so the round ends. ``Pass`` is refused
  at any other time.
- Inspiration is allowed from the start of a round until ``ScoreRound``, to any player, during
  anyone's turn; a rotation must change the tile's rotation and a swap needs two tiles.
- Inspiration tokens count over the whole game. A card such as Local Collective raises the
  number a player may have used in total while its round lasts (5 instead of 3); tokens used
  stay used, so a player who used 5 has none left in later rounds. Declining a card is refused
  once the player has spent a token that only the card allowed. The unused tokens of the
  tie-break are those still allowed after round 3 (with round 3's card unless declined).
- ``ScoreRound`` is an action of the table rather than of a player. Players whose position
  allows no tile keep nothing without being asked; the next round starts once every other
  player has chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import assert_never

from companion.content.colorfield import ColorFieldContent
from companion.errors import AtelierError, IllegalActionError
from companion.games.colorfield.actions import (
    Action,
    Decline,
    Discard,
    Keep,
    Pass,
    Place,
    RefreshPalette,
    Rotate,
    Rule,
    ScoreRound,
    Swap,
    TakeFromDeck,
    TakeFromPalette,
)
from companion.games.colorfield.model import SPACES, Canvas, CanvasBoard, PlacedTile, TileKind
from companion.games.colorfield.piles import PALETTE_SIZE, new_piles
from companion.games.colorfield.rounds import next_round_when_chosen, score_round, start_round
from companion.games.colorfield.state import (
    INSPIRATION_TOKENS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameState,
    Phase,
    PlayerState,
    Turn,
)
from companion.games.colorfield.tools import DEFAULT_EFFECTS, Effect, resolve_tools


def new_game(
    content: ColorFieldContent,
    players: int,
    seed: int,
    community_tools: Sequence[str] | None = None,
    canvases: Sequence[str] | None = None,
    effects: Mapping[str, Effect] = DEFAULT_EFFECTS,
) -> GameState:
    """Set up a table and start round 1 (cards revealed, canvases primed, Palette filled).

    ``community_tools`` are card ids from ``content.tools`` for Advanced Play, shuffled into the
    Community Tools deck; round r reveals the r-th card, so with fewer cards than rounds the
    later rounds have none. ``canvases`` are board ids in seat order; by default each player
    gets a random board. Bad choices raise ``AtelierError`` naming the mistake.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise AtelierError(
            f"Color Field is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    tools = resolve_tools(community_tools or (), content.tools, effects)
    foundation = len(content.deck(TileKind.FOUNDATION))
    if foundation < len(SPACES) * players:
        raise AtelierError(
            f"catalogue {content.name!r} has {foundation} Foundation tiles; priming "
            f"{players} canvases needs {len(SPACES) * players}"
        )
    piles = new_piles(seed, content.tiles.values())
    if canvases is None:
        if len(content.canvases) < players:
            raise AtelierError(
                f"catalogue {content.name!r} has {len(content.canvases)} canvas boards "
                f"for {players} players"
            )
        piles, shuffled = piles.shuffled(list(content.canvases.values()))
        boards: tuple[CanvasBoard, ...] = shuffled[:players]
    else:
        boards = _chosen_boards(content, players, canvases)
    piles, tool_deck = piles.shuffled(tools)
    empty = (None,) * len(SPACES)
    state = GameState(
        round=1,
        phase=Phase.PLAYING,
        players=tuple(PlayerState(Canvas(board, empty)) for board in boards),
        piles=piles,
        turn=None,
        tool_deck=tool_deck,
    )
    return start_round(state)


def _chosen_boards(
    content: ColorFieldContent, players: int, canvases: Sequence[str]
) -> tuple[CanvasBoard, ...]:
    if len(canvases) != players:
        raise AtelierError(f"{len(canvases)} canvas boards chosen for {players} players")
    for board_id in canvases:
        if board_id not in content.canvases:
            known = ", ".join(content.canvases)
            raise AtelierError(f"unknown canvas board {board_id!r} (known: {known})")
    if len(set(canvases)) != len(canvases):
        raise AtelierError("each player needs a different canvas board")
    return tuple(content.canvases[board_id] for board_id in canvases)


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; an illegal one raises ``IllegalActionError`` naming its rule."""
    if state.phase is Phase.OVER:
        raise IllegalActionError(Rule.GAME_OVER, "the game is over")
    if not isinstance(action, ScoreRound) and not 0 <= action.player < len(state.players):
        raise IllegalActionError(
            Rule.PLAYERS,
            f"there is no player {action.player} in a {len(state.players)}-player game",
        )
    match action:
        case RefreshPalette():
            return _refresh(state, action)
        case TakeFromPalette():
            return _take_from_palette(state, action)
        case TakeFromDeck():
            return _take_from_deck(state, action)
        case Place():
            return _place(state, action)
        case Discard():
            return _discard(state, action)
        case Pass():
            return _pass(state, action)
        case Rotate():
            return _rotate(state, action)
        case Swap():
            return _swap(state, action)
        case Decline():
            return _decline(state, action)
        case ScoreRound():
            return _score(state)
        case Keep():
            return _keep(state, action)
        case _:
            assert_never(action)


# Turns ----------------------------------------------------------------------------------------


def _turn_of(state: GameState, seat: int) -> Turn:
    """The turn in progress, if it is ``seat``'s."""
    if state.phase is Phase.SCORING:
        raise IllegalActionError(
            Rule.TURNS_PER_ROUND,
            f"every player has taken their {state.turns_this_round} turns this round",
        )
    if state.phase is not Phase.PLAYING or state.turn is None:
        raise IllegalActionError(Rule.BETWEEN_ROUNDS, "the round is over; no turns until the next")
    if state.turn.seat != seat:
        raise IllegalActionError(
            Rule.NOT_YOUR_TURN, f"it is player {state.turn.seat}'s turn, not player {seat}'s"
        )
    return state.turn


def _with_player(state: GameState, seat: int, player: PlayerState) -> GameState:
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players))


def _check_space(space: int) -> None:
    if space not in SPACES:
        raise IllegalActionError(Rule.CANVAS_SPACES, f"a canvas has spaces 1..6, not {space}")


def _check_rotation(rotation: int) -> None:
    if rotation not in range(4):
        raise IllegalActionError(Rule.ROTATION, f"rotation is 0..3 quarter turns, not {rotation}")


def _refresh(state: GameState, action: RefreshPalette) -> GameState:
    turn = _turn_of(state, action.player)
    if turn.held is not None:
        raise IllegalActionError(Rule.PALETTE_REFRESH, "the Palette is refreshed before taking")
    if turn.refreshed:
        raise IllegalActionError(Rule.PALETTE_REFRESH, "the Palette is refreshed once per turn")
    if not state.players[action.player].refresh_ok:
        raise IllegalActionError(
            Rule.PALETTE_REFRESH, "a Palette tile was taken since this player's last turn"
        )
    piles = state.piles.clear_palette().fill_palette(state.round_kind)
    return replace(state, piles=piles, turn=replace(turn, refreshed=True))


def _take_from_palette(state: GameState, action: TakeFromPalette) -> GameState:
    turn = _turn_of(state, action.player)
    if turn.held is not None:
        raise IllegalActionError(Rule.ONE_TILE_PER_TURN, "a tile was already taken this turn")
    if action.slot not in range(PALETTE_SIZE):
        raise IllegalActionError(
            Rule.PALETTE, f"the Palette has slots 0..{PALETTE_SIZE - 1}, not {action.slot}"
        )
    piles, tile = state.piles.take_from_palette(action.slot)
    if tile is None:
        raise IllegalActionError(Rule.PALETTE, f"Palette slot {action.slot} is empty")
    # A Palette take denies the refresh to everyone until their own next turn is over.
    players = tuple(replace(player, refresh_ok=False) for player in state.players)
    return replace(state, piles=piles, players=players, turn=replace(turn, held=tile))


def _take_from_deck(state: GameState, action: TakeFromDeck) -> GameState:
    turn = _turn_of(state, action.player)
    if turn.held is not None:
        raise IllegalActionError(Rule.ONE_TILE_PER_TURN, "a tile was already taken this turn")
    piles, tile = state.piles.draw(state.round_kind)
    if tile is None:
        raise IllegalActionError(
            Rule.DECK_EXHAUSTION, f"the round {state.round} deck and its discards are empty"
        )
    return replace(state, piles=piles, turn=replace(turn, held=tile))


def _place(state: GameState, action: Place) -> GameState:
    turn = _turn_of(state, action.player)
    if turn.held is None:
        raise IllegalActionError(Rule.TAKE_BEFORE_PLACING, "take a tile before placing one")
    _check_space(action.space)
    _check_rotation(action.rotation)
    player = state.players[action.player]
    # Priming filled every space, so placing always replaces a tile (and so counts the turn).
    old = player.canvas.at(action.space)
    card = player.card if old is None else (*player.card, old.tile)
    canvas = player.canvas.with_space(action.space, PlacedTile(turn.held, action.rotation))
    return _end_turn(state, action.player, replace(player, canvas=canvas, card=card))


def _discard(state: GameState, action: Discard) -> GameState:
    turn = _turn_of(state, action.player)
    if turn.held is None:
        raise IllegalActionError(Rule.TAKE_BEFORE_PLACING, "take a tile before discarding one")
    player = state.players[action.player]
    return _end_turn(state, action.player, replace(player, card=(*player.card, turn.held)))


def _pass(state: GameState, action: Pass) -> GameState:
    turn = _turn_of(state, action.player)
    if turn.held is not None:
        raise IllegalActionError(Rule.DECK_EXHAUSTION, "a tile was taken: place or discard it")
    if any(tile is not None for tile in state.piles.palette) or state.piles.can_draw(
        state.round_kind
    ):
        raise IllegalActionError(
            Rule.DECK_EXHAUSTION, "a player may pass only when no tile can be taken"
        )
    player = state.players[action.player]
    return _end_turn(state, action.player, replace(player, passes=player.passes + 1))


def _end_turn(state: GameState, seat: int, player: PlayerState) -> GameState:
    ended = _with_player(state, seat, replace(player, refresh_ok=True))
    if all(p.turns_taken >= ended.turns_this_round for p in ended.players):
        # No refill after the round's last turn: the Palette is about to be cleared.
        return replace(ended, phase=Phase.SCORING, turn=None)
    next_seat = (seat + 1) % len(ended.players)
    return replace(ended, piles=ended.piles.fill_palette(ended.round_kind), turn=Turn(next_seat))


# Inspiration and Community Tools -------------------------------------------------------------


def _pay_token(state: GameState, seat: int) -> PlayerState:
    """The player after spending one Inspiration token, if they may."""
    if state.phase not in (Phase.PLAYING, Phase.SCORING):
        raise IllegalActionError(
            Rule.INSPIRATION, "Inspiration is used during a round, before it is scored"
        )
    player = state.players[seat]
    allowed = state.tokens_allowed(seat)
    if player.tokens_used >= allowed:
        raise IllegalActionError(
            Rule.INSPIRATION_TOKENS,
            f"player {seat} has used {player.tokens_used} of {allowed} Inspiration tokens",
        )
    beyond_base = player.tokens_used >= INSPIRATION_TOKENS
    return replace(
        player,
        tokens_used=player.tokens_used + 1,
        relied_on_tool=player.relied_on_tool or beyond_base,
    )


def _rotate(state: GameState, action: Rotate) -> GameState:
    _check_space(action.space)
    _check_rotation(action.rotation)
    player = _pay_token(state, action.player)
    placed = player.canvas.at(action.space)
    if placed is None:
        raise IllegalActionError(Rule.INSPIRATION, f"space {action.space} is empty")
    if placed.rotation == action.rotation:
        raise IllegalActionError(
            Rule.INSPIRATION, f"the tile in space {action.space} already has that rotation"
        )
    canvas = player.canvas.with_space(action.space, PlacedTile(placed.tile, action.rotation))
    return _with_player(state, action.player, replace(player, canvas=canvas))


def _swap(state: GameState, action: Swap) -> GameState:
    _check_space(action.first)
    _check_space(action.second)
    if action.first == action.second:
        raise IllegalActionError(Rule.INSPIRATION, "a swap needs two different spaces")
    player = _pay_token(state, action.player)
    first, second = player.canvas.at(action.first), player.canvas.at(action.second)
    if first is None or second is None:
        raise IllegalActionError(Rule.INSPIRATION, "a swap needs a tile in both spaces")
    canvas = player.canvas.with_space(action.first, second).with_space(action.second, first)
    return _with_player(state, action.player, replace(player, canvas=canvas))


def _decline(state: GameState, action: Decline) -> GameState:
    if state.phase not in (Phase.PLAYING, Phase.SCORING):
        raise IllegalActionError(
            Rule.COMMUNITY_TOOLS, "a card is declined during its round, before it is scored"
        )
    tool = state.tool
    if tool is None:
        raise IllegalActionError(Rule.COMMUNITY_TOOLS, "there is no card this round")
    player = state.players[action.player]
    if player.declined:
        raise IllegalActionError(
            Rule.COMMUNITY_TOOLS, f"player {action.player} has already declined {tool.card.name}"
        )
    if player.relied_on_tool:
        raise IllegalActionError(
            Rule.COMMUNITY_TOOLS,
            f"player {action.player} has already used {tool.card.name} this round",
        )
    return _with_player(state, action.player, replace(player, declined=True))


# Between rounds -------------------------------------------------------------------------------


def _score(state: GameState) -> GameState:
    if state.phase is Phase.PLAYING:
        left = sum(state.turns_this_round - p.turns_taken for p in state.players)
        raise IllegalActionError(
            Rule.TURNS_PER_ROUND, f"{left} turns remain before round {state.round} is scored"
        )
    if state.phase is not Phase.SCORING:
        raise IllegalActionError(Rule.BETWEEN_ROUNDS, f"round {state.round} is already scored")
    return score_round(state)


def _keep(state: GameState, action: Keep) -> GameState:
    if state.phase is not Phase.KEEPING:
        raise IllegalActionError(
            Rule.BETWEEN_ROUNDS, "tiles are kept after a round is scored, before the next"
        )
    player = state.players[action.player]
    allowance = state.scores[-1].players[action.player].keep_allowance
    if player.keep is not None:
        raise IllegalActionError(
            Rule.KEEP_ALLOWANCE, f"player {action.player} has already chosen what to keep"
        )
    for space in action.spaces:
        _check_space(space)
    if len(set(action.spaces)) != len(action.spaces):
        raise IllegalActionError(Rule.KEEP_ALLOWANCE, "each space can be kept once")
    if len(action.spaces) > allowance:
        raise IllegalActionError(
            Rule.KEEP_ALLOWANCE,
            f"player {action.player} may keep {allowance} tiles, not {len(action.spaces)}",
        )
    chosen = _with_player(state, action.player, replace(player, keep=tuple(action.spaces)))
    return next_round_when_chosen(chosen)
