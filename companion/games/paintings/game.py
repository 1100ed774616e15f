"""The Paintings game as a pure state machine: setup, legal actions, moves, and the final result.

Setup is the only step that shuffles, and it draws from a ``random.Random`` built from the seed it
is given, so a seed and a list of actions replay a game exactly. Every refused action raises
``IllegalActionError`` naming the rule it breaks.

Ruling where the rules are silent: a player who is not done but can neither take a card (the Art
Row is empty) nor paint (fewer than 3 cards) is passed over, and when no player can act the game
ends. With the default 60-card deck this cannot happen: a player takes at most 11 cards (9
painted, at most 2 left over after the third painting), so 5 players need at most 55.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.errors import IllegalActionError
from companion.games.paintings.model import CARDS_PER_PAINTING, ArtCard, Goal, Painting, ScoringCard
from companion.games.paintings.scoring import SCORING_CARDS_IN_PLAY, PlayerScore, score_player
from companion.games.paintings.state import (
    ART_ROW_SIZE,
    HAND_LIMIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    CompletePainting,
    GameState,
    PlayerState,
    RowCard,
    TakeCard,
)


def new_game(
    players: int,
    seed: int,
    deck: Sequence[ArtCard],
    scoring_pool: Sequence[ScoringCard],
    goals: Sequence[Goal] | None = None,
) -> GameState:
    """Shuffle the deck, deal the Art Row, and put 4 scoring cards in play.

    The 4 cards are ``goals`` when given, else drawn at random from ``scoring_pool``.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalActionError(
            "player-count",
            f"Paintings is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}",
        )
    rng = random.Random(seed)
    if goals is None:
        if len(scoring_pool) < SCORING_CARDS_IN_PLAY:
            raise ValueError(f"need {SCORING_CARDS_IN_PLAY} scoring cards to choose from")
        in_play = tuple(rng.sample(list(scoring_pool), SCORING_CARDS_IN_PLAY))
    else:
        by_goal = {card.goal: card for card in scoring_pool}
        if len(set(goals)) != SCORING_CARDS_IN_PLAY or not set(goals) <= set(by_goal):
            raise ValueError(
                f"choose {SCORING_CARDS_IN_PLAY} different scoring cards from the pool"
            )
        in_play = tuple(by_goal[goal] for goal in goals)
    pile = list(deck)
    rng.shuffle(pile)
    return GameState(
        scoring_cards=in_play,
        players=tuple(PlayerState() for _ in range(players)),
        row=tuple(RowCard(card) for card in pile[:ART_ROW_SIZE]),
        deck=tuple(pile[ART_ROW_SIZE:]),
        current=0,
    )


def can_take(state: GameState, player: PlayerState) -> bool:
    return bool(state.row) and len(player.hand) < HAND_LIMIT


def can_paint(player: PlayerState) -> bool:
    return len(player.hand) >= CARDS_PER_PAINTING


def can_act(state: GameState, player: PlayerState) -> bool:
    return not player.done and (can_take(state, player) or can_paint(player))


def check(state: GameState, player: int, action: Action) -> None:
    """Raise ``IllegalActionError`` unless ``player`` may do ``action`` now."""
    if state.current is None:
        raise IllegalActionError("game-over", "the game is over")
    if player != state.current:
        raise IllegalActionError(
            "turn-order", f"it is player {state.current + 1}'s turn, not player {player + 1}'s"
        )
    me = state.players[player]
    if isinstance(action, TakeCard):
        _check_take(state, me, action.index)
    else:
        _check_paint(me, action.order)


def _check_take(state: GameState, me: PlayerState, index: int) -> None:
    if len(me.hand) >= HAND_LIMIT:
        raise IllegalActionError(
            "hand-limit", f"a player holding {HAND_LIMIT} cards must complete a painting"
        )
    if not 0 <= index < len(state.row):
        raise IllegalActionError(
            "art-row", f"the Art Row has cards at 0..{len(state.row) - 1}, not at {index}"
        )
    if me.tokens < index:
        raise IllegalActionError(
            "inspiration-cost",
            f"taking card {index} costs {index} Inspiration tokens; the player has {me.tokens}",
        )


def _check_paint(me: PlayerState, order: tuple[int, ...]) -> None:
    if len(me.hand) < CARDS_PER_PAINTING:
        raise IllegalActionError(
            "painting-needs-three-cards",
            f"completing a painting needs {CARDS_PER_PAINTING} cards in hand; "
            f"the player has {len(me.hand)}",
        )
    if len(order) != CARDS_PER_PAINTING or len(set(order)) != CARDS_PER_PAINTING:
        raise IllegalActionError(
            "painting-cards", f"a painting is {CARDS_PER_PAINTING} different cards from the hand"
        )
    if any(not 0 <= i < len(me.hand) for i in order):
        raise IllegalActionError(
            "painting-cards", f"the hand holds cards 0..{len(me.hand) - 1}, not {list(order)}"
        )


def _take(state: GameState, me: PlayerState, index: int) -> tuple[GameState, PlayerState]:
    taken = state.row[index]
    # One token on each card before the taken one; the cards after it slide down, and the
    # card nearest the deck is refilled from the pile.
    paid = tuple(RowCard(rc.card, rc.tokens + 1) for rc in state.row[:index])
    row = paid + state.row[index + 1 :] + tuple(RowCard(c) for c in state.deck[:1])
    player = replace(me, hand=(*me.hand, taken.card), tokens=me.tokens - index + taken.tokens)
    return replace(state, row=row, deck=state.deck[1:]), player


def _paint(me: PlayerState, order: tuple[int, ...]) -> PlayerState:
    bottom, middle, top = (me.hand[i] for i in order)
    hand = tuple(card for i, card in enumerate(me.hand) if i not in order)
    return replace(me, hand=hand, paintings=(*me.paintings, Painting((bottom, middle, top))))


def _next_player(state: GameState, after: int) -> int | None:
    count = len(state.players)
    for step in range(1, count + 1):
        candidate = (after + step) % count
        if can_act(state, state.players[candidate]):
            return candidate
    return None


def play(state: GameState, player: int, action: Action) -> GameState:
    """The state after ``player`` does ``action``; an illegal action is refused."""
    check(state, player, action)
    me = state.players[player]
    if isinstance(action, TakeCard):
        state, me = _take(state, me, action.index)
    else:
        me = _paint(me, action.order)
    players = (*state.players[:player], me, *state.players[player + 1 :])
    state = replace(state, players=players)
    return replace(state, current=_next_player(state, player))


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the current player may take: each takeable card, each painting order."""
    if state.current is None:
        return ()
    me = state.players[state.current]
    actions: list[Action] = []
    if can_take(state, me):
        actions.extend(TakeCard(i) for i in range(min(len(state.row), me.tokens + 1)))
    if can_paint(me):
        hand = range(len(me.hand))
        actions.extend(
            CompletePainting((a, b, c))
            for a in hand
            for b in hand
            for c in hand
            if len({a, b, c}) == CARDS_PER_PAINTING
        )
    return tuple(actions)


@dataclass(frozen=True)
class Standing:
    """A player's final place: rank 1 wins; equal points and tokens share a rank."""

    player: int
    score: PlayerScore
    tokens: int
    rank: int


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players by place: most points first, ties broken by more Inspiration tokens, else shared."""
    scored = [
        (i, score_player(p.paintings, state.scoring_cards), p.tokens)
        for i, p in enumerate(state.players)
    ]
    keys = [(score.total, tokens) for _, score, tokens in scored]
    result = [
        Standing(i, score, tokens, 1 + sum(1 for k in keys if k > (score.total, tokens)))
        for i, score, tokens in scored
    ]
    return tuple(sorted(result, key=lambda s: (s.rank, s.player)))


def winners(state: GameState) -> tuple[int, ...]:
    return tuple(s.player for s in standings(state) if s.rank == 1)
