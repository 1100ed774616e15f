"""Scripted games for the live demo: a short, legal sequence of turns of each game.

Each script plays the game through its rules (``protocol.GameRules``) with a simple player that
always makes the same choice, so every turn is one the rules accept, and records what a camera
over the table would see: the players' boards as position documents, before the first turn and
after each turn that changes them. Turns that leave the boards as they were (a Paintings card
taken into a hand) are played but not shown. Color Field's script lays printed tiles on canvases
without playing the game.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.content import colorfield
from companion.errors import IllegalActionError
from companion.games.colorfield.model import SPACES, TileKind
from companion.games.isle.actions import Fill, FillNothing, Roll
from companion.games.isle.codec import cells_to_json, conditions_to_json
from companion.games.isle.gain import GainTable
from companion.games.isle.game import Game
from companion.games.isle.model import Colour, Sheet, bits
from companion.games.isle.rules import IsleRules
from companion.games.paintings.advisor import advise, ribbons_won
from companion.games.paintings.model import ArtCard
from companion.games.paintings.rules import PaintingsRules
from companion.games.paintings.state import Action as PaintingsAction
from companion.games.paintings.state import CompletePainting, GameState, TakeCard
from companion.games.pigments.actions import Action as LabAction
from companion.games.pigments.actions import ClaimShade, Draft, EndTurn, Press
from companion.games.pigments.checker import Verdict, check_pan
from companion.games.pigments.model import BOARD, Chip
from companion.games.pigments.rules import PigmentsRules
from companion.games.pigments.state import BoardPan
from companion.games.pigments.state import GameState as LabState
from companion.games.protocol import GameRules, Setup

Boards = tuple[dict[str, Any], ...]

PAINTINGS: GameRules[GameState, PaintingsAction] = PaintingsRules()
ISLE = IsleRules()  # its own type: the script rolls the dice its setup's seed gives
LAB: GameRules[LabState, LabAction] = PigmentsRules()


@dataclass(frozen=True)
class Turn:
    """The boards after one turn, whose turn it was and which board they reached over."""

    boards: Boards  # each player's position document, seat order
    player: int  # index into ``boards``
    board: int  # the changed board's place among the table's boards (one per Paintings mat)


@dataclass(frozen=True)
class Script:
    game: str
    options: dict[str, Any]  # what the table needs to know that a camera cannot see
    opening: Boards  # the boards before the first turn shown
    turns: tuple[Turn, ...]


def colorfield_script(seed: int, players: int, turns: int) -> Script:
    """Canvases primed with distinct Foundation tiles, then ``turns`` turns of round 1, players
    in order, each laying one new tile of the Round 1 deck over a space, as a table judges them."""
    rng = random.Random(seed)
    content = colorfield.default_content()
    canvases = sorted(content.canvases)[:players]
    # Drawn last first: the turns' tiles below the primed ones, so pop() primes, then plays.
    drawn = rng.sample(sorted(t.id for t in content.deck(TileKind.ROUND1) if t.id), turns)
    primed = rng.sample(
        sorted(t.id for t in content.deck(TileKind.FOUNDATION) if t.id), len(SPACES) * players
    )
    pool = drawn + primed

    def laid(tile: str) -> dict[str, Any]:
        primed = content.tiles[tile].kind is TileKind.FOUNDATION
        return {"tile": tile, "rotation": 0 if primed else rng.randrange(4)}

    boards: list[dict[str, Any]] = [
        {"game": "colorfield", "canvas": canvas, "spaces": [laid(pool.pop()) for _ in SPACES]}
        for canvas in canvases
    ]
    opening = _copy(boards)
    shown = []
    for turn in range(turns):
        player = turn % players
        boards[player]["spaces"][rng.randrange(len(SPACES))] = laid(pool.pop())
        shown.append(Turn(_copy(boards), player, player))
    return Script("colorfield", {}, opening, tuple(shown))


def _copy(boards: list[dict[str, Any]]) -> Boards:
    return tuple({**b, "spaces": [dict(s) for s in b["spaces"]]} for b in boards)


def paintings_script(seed: int, players: int, turns: int) -> Script:
    """From the deal, each player takes the free card of the Art Row until they can paint, then
    paints the advisor's best three; shown from the moment every player has one painting."""
    state = PAINTINGS.new_game(Setup(players, seed))
    goals = [card.goal.value for card in state.scoring_cards]
    opening: Boards | None = None
    shown: list[Turn] = []
    while (player := PAINTINGS.whose_turn(state)) is not None and len(shown) < turns:
        legal = PAINTINGS.legal_actions(state)
        if not any(isinstance(action, CompletePainting) for action in legal):
            state = PAINTINGS.apply(state, TakeCard(0))
            continue
        me = state.players[player]
        won = ribbons_won(me.paintings, state.scoring_cards)
        order = advise(me.hand, state.scoring_cards, won).best.order
        state = PAINTINGS.apply(state, CompletePainting(order))
        boards = _paintings_boards(state, goals)
        if opening is None:
            if all(p.paintings for p in state.players):
                opening = boards
            continue
        mats = [len(p.paintings) for p in state.players]
        shown.append(Turn(boards, player, sum(mats[:player]) + mats[player] - 1))
    if opening is None:
        raise ValueError("the game ended before every player had painted")
    return Script("paintings", {"scoring_cards": goals}, opening, tuple(shown))


def _paintings_boards(state: GameState, goals: Sequence[str]) -> Boards:
    def card(art: ArtCard) -> dict[str, Any]:
        return {"card": art.id}

    return tuple(
        {
            "game": "paintings",
            "scoring_cards": list(goals),
            "paintings": [[card(c) for c in painting.cards] for painting in player.paintings],
        }
        for player in state.players
    )


def isle_script(seed: int, players: int, turns: int) -> Script:
    """A dealt game from blank sheets: each round one roll, then each player in turn colours in
    the compact group that scores most at once, in the colour that does."""
    setup = Setup(players, seed)
    game = ISLE.new_game(setup)
    rolls = ISLE.rolls(setup)
    conditions = conditions_to_json(game.conditions)
    opening = _isle_boards(game, conditions)
    shown: list[Turn] = []
    while not ISLE.over(game) and len(shown) < turns:
        game = ISLE.apply(game, Roll(next(rolls)))
        while (player := ISLE.whose_turn(game)) is not None:
            fill = _best_fill(game, player)
            if fill is None:
                game = ISLE.apply(game, FillNothing(player))
                continue
            colour, mask = fill
            game = ISLE.apply(game, Fill(player, colour, frozenset(game.island.cells_of(mask))))
            if len(shown) < turns:
                shown.append(Turn(_isle_boards(game, conditions), player, player))
    return Script("isle", {"conditions": conditions}, opening, tuple(shown))


def _best_fill(game: Game, player: int) -> tuple[Colour, int] | None:
    """The best fill among the compact ones: from each empty cell, the first cells a search
    outwards meets. (Every connected fill would be exact, but is seconds of work on an empty
    sheet.)"""
    state = game.players[player]
    sheet, size = state.sheet, game.roll
    assert size is not None
    table = GainTable(sheet, game.conditions)
    best: tuple[int, Colour, int] | None = None
    for start in bits(sheet.empty_mask):
        mask = _grown(sheet, start, size)
        if mask is None:
            continue
        for colour in sorted(state.hand, key=tuple(Colour).index):
            gain = table.gain(mask, colour)
            if best is None or gain > best[0]:
                best = (gain, colour, mask)
    return None if best is None else (best[1], best[2])


def _grown(sheet: Sheet, start: int, size: int) -> int | None:
    """``size`` empty cells met first by a breadth-first search from cell ``start``; None when
    its empty region is smaller."""
    neighbours = sheet.island.neighbours
    empty = sheet.empty_mask
    order, seen = [start], 1 << start
    for cell in order:
        if len(order) >= size:
            break
        for next_cell in neighbours[cell]:
            if empty >> next_cell & 1 and not seen >> next_cell & 1:
                seen |= 1 << next_cell
                order.append(next_cell)
    if len(order) < size:
        return None
    return sum(1 << cell for cell in order[:size])


def _isle_boards(game: Game, conditions: dict[str, str]) -> Boards:
    return tuple(
        {"game": "isle", "island": "default", "conditions": conditions, "cells": cells_to_json(p)}
        for p in (player.sheet for player in game.players)
    )


def pigments_script(seed: int, players: int, turns: int) -> Script:
    """A dealt game from empty palettes: each turn the player claims a shade for a pan when that
    helps, drafts the chips that bring their pans nearest their shades, and presses a pan whose
    mix matches its shade."""
    state = LAB.new_game(Setup(players, seed))
    opening = boards = _palettes(state)
    shown: list[Turn] = []
    while (player := LAB.whose_turn(state)) is not None and len(shown) < turns:
        state = _best_draft(state, player)
        for index, pan in enumerate(state.players[player].pans):
            if not pan.pressed and _presses(pan, state):
                state = LAB.apply(state, Press(index))
        before, boards = boards, _palettes(state)
        if boards != before:  # not when every chip went to the Spill Line
            shown.append(Turn(boards, player, player))
        state = LAB.apply(state, EndTurn())
    return Script("pigments", {}, opening, tuple(shown))


def _best_draft(state: LabState, player: int) -> LabState:
    """The draft of ``player``, whose turn it is (after a claim for the pan it goes into, when
    that helps), that brings their pans nearest pressing; the first such in a fixed order, so the
    same state always gets the same turn."""
    best: tuple[int, LabState] | None = None
    sources = (*state.crates, state.tray)
    for pan in range(len(BOARD)):
        for claimed in _claims(state, pan):
            for source, chips in enumerate(sources):
                crate = None if source == len(state.crates) else source
                for colour in sorted(set(chips), key=tuple(Chip).index):
                    try:
                        after = LAB.apply(claimed, Draft(colour, crate, pan))
                    except IllegalActionError:
                        continue  # a pressed or full pan
                    value = _palette_value(after, player)
                    if best is None or value > best[0]:
                        best = (value, after)
    if best is None:
        raise ValueError("no draft is open to the player")
    return best[1]


def _claims(state: LabState, pan: int) -> list[LabState]:
    """The state as it is, and after each claim of a Shade Row card that fits ``pan`` when it is
    empty."""
    found = [state]
    board_pan = state.player.pans[pan]
    if board_pan.shade is not None or board_pan.pan.chips:
        return found  # a card goes under a pan only as it is started
    for shade in state.shade_row:
        if len(shade.recipe) == board_pan.pan.size.windows:
            try:
                found.append(LAB.apply(state, ClaimShade(pan, shade.name)))
            except IllegalActionError:
                continue  # two shades held already
    return found


def _palette_value(state: LabState, player: int) -> int:
    """How near a player's pans are to pressing: a chip its pan's shade needs counts for it, a
    chip that keeps the pan from ever pressing (or one on the Spill Line) against it, and a pan
    that would press counts most."""
    me = state.players[player]
    return sum(_pan_value(pan, state) for pan in me.pans) - 2 * len(me.spill_line)


def _pan_value(pan: BoardPan, state: LabState) -> int:
    if pan.shade is None:
        return -2 * len(pan.pan.chips)
    if _presses(pan, state):
        return 10 * pan.pan.size.slots
    wanted = Counter(pan.shade.recipe)
    wanted[Chip.BINDER] = math.ceil(len(pan.shade.recipe) / 2)
    have = Counter(pan.pan.chips)
    fitting = sum(min(have[chip], count) for chip, count in wanted.items())
    return 3 * fitting - 10 * (len(pan.pan.chips) - fitting)


def _presses(pan: BoardPan, state: LabState) -> bool:
    return check_pan(pan.pan, pan.shade, state.catalogue).verdict is Verdict.PRESSED


def _palettes(state: LabState) -> Boards:
    return tuple(
        {
            "game": "pigments",
            "pans": [
                {
                    "pan": pan.pan.size.value,
                    "chips": [chip.value for chip in pan.pan.chips],
                    "shade": None if pan.shade is None else pan.shade.name,
                }
                for pan in player.pans
            ],
        }
        for player in state.players
    )


SCRIPTS: Mapping[str, Callable[[int, int, int], Script]] = MappingProxyType(
    {
        "colorfield": colorfield_script,
        "paintings": paintings_script,
        "isle": isle_script,
        "pigments": pigments_script,
    }
)
