"""A round's life: priming and the Palette at its start; scoring, keeping, the reset at its end."""

from __future__ import annotations

from dataclasses import replace

from companion.games.colorfield.model import SPACES, Canvas, PlacedTile, Tile, TileKind
from companion.games.colorfield.piles import Piles
from companion.games.colorfield.scoring import CanvasScore, score_canvas
from companion.games.colorfield.standings import decide_winners, dense_positions, keep_allowance
from companion.games.colorfield.state import (
    ROUNDS,
    GameState,
    Phase,
    PlayerRoundScore,
    PlayerState,
    RoundScores,
    Turn,
)
from companion.games.colorfield.tools import ToolBonus


def _prime(piles: Piles, canvas: Canvas) -> tuple[Piles, Canvas]:
    """Fill empty spaces in order 1..6 with Foundation tiles, up-mark to the top."""
    for space in canvas.empty():
        piles, tile = piles.draw(TileKind.FOUNDATION)
        if tile is None:
            # new_game refuses catalogues too small for this, so it cannot happen in play.
            raise ValueError("the Foundation deck and its discards are empty")
        canvas = canvas.with_space(space, PlacedTile(tile, 0))
    return piles, canvas


def start_round(state: GameState) -> GameState:
    """Prime every canvas (seat order from the first player), fill the Palette, first turn."""
    piles = state.piles
    players: list[PlayerState] = []
    for player in state.players:
        piles, canvas = _prime(piles, player.canvas)
        # Per-round marks start afresh; tokens used carry over for the whole game.
        players.append(PlayerState(canvas=canvas, tokens_used=player.tokens_used))
    fresh = replace(state, players=tuple(players), phase=Phase.PLAYING, turn=Turn(0))
    return replace(fresh, piles=piles.fill_palette(fresh.round_kind))


def _bonus(state: GameState, seat: int, canvases: tuple[CanvasScore, ...]) -> ToolBonus:
    tool = state.tool
    if tool is None:
        return ToolBonus(0, "no Community Tools card this round")
    if state.players[seat].declined:
        return ToolBonus(0, f"{tool.card.name}: declined")
    return tool.bonus(seat, canvases)


def score_round(state: GameState) -> GameState:
    """Score every canvas and the card's bonus, rank players, then keep tiles or end the game."""
    canvases = tuple(score_canvas(player.canvas) for player in state.players)
    bonuses = tuple(_bonus(state, seat, canvases) for seat in range(len(state.players)))
    totals = tuple(
        before + canvas.total + bonus.points
        for before, canvas, bonus in zip(state.totals(), canvases, bonuses, strict=True)
    )
    positions = dense_positions(totals)
    players = len(state.players)
    round_scores = RoundScores(
        round=state.round,
        card=state.tool.card.id if state.tool is not None else None,
        players=tuple(
            PlayerRoundScore(canvas, bonus, total, position, keep_allowance(position, players))
            for canvas, bonus, total, position in zip(
                canvases, bonuses, totals, positions, strict=True
            )
        ),
    )
    scored = replace(state, scores=(*state.scores, round_scores), turn=None)
    if state.round == ROUNDS:
        outcome = decide_winners(
            totals,
            [canvas.patch.points for canvas in canvases],
            [state.tokens_left(seat) for seat in range(players)],
        )
        return replace(scored, phase=Phase.OVER, outcome=outcome)
    # A player allowed no tile has nothing to choose.
    choosing = tuple(
        replace(player, keep=() if score.keep_allowance == 0 else None)
        for player, score in zip(state.players, round_scores.players, strict=True)
    )
    return next_round_when_chosen(replace(scored, phase=Phase.KEEPING, players=choosing))


def next_round_when_chosen(state: GameState) -> GameState:
    """Once every player has chosen what to keep, reset the table and start the next round."""
    if any(player.keep is None for player in state.players):
        return state
    piles = state.piles
    players: list[PlayerState] = []
    for player in state.players:
        kept = player.keep or ()
        gone: list[Tile] = []
        canvas = player.canvas
        for space in SPACES:
            placed = canvas.at(space)
            if placed is not None and space not in kept:
                gone.append(placed.tile)
                canvas = canvas.with_space(space, None)
        piles = piles.to_discard((*gone, *player.card))
        players.append(replace(player, canvas=canvas, card=()))
    reset = replace(
        state, round=state.round + 1, players=tuple(players), piles=piles.clear_palette()
    )
    return start_round(reset)
