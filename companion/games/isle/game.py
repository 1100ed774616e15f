"""The game of Isle of Colors as a state machine, for two players or one (solo).

A ``Game`` is an immutable value: each action returns the next state or raises
``IllegalActionError`` naming the rule it breaks. A round: one shared d6 roll (given, or drawn
from a ``random.Random`` the caller seeds), then every player fills a connected group of exactly
that many empty cells with one colour they hold, or fills nothing when no such group fits (which
triggers the end). The 6th use of one colour by a player triggers the end too. When every player
has acted, the colours used are swapped; after the round of the first trigger one final round is
played, then the sheets are scored and the best total wins, ties shared.

Solo (a natural extension of the two-player rules): the two colours not dealt form a reserve
queue; the colour used goes to the back of the queue and the player receives its front.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.errors import IllegalActionError
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import CONDITIONS, Colour, Conditions, Island, Sheet
from companion.games.isle.placements import can_fill, is_connected
from companion.games.isle.scoring import SheetScore, score_sheet

PLAYER_COUNTS = (1, 2)
HAND_SIZE = 2
USES_TO_END = 6
DIE_FACES = 6


class Trigger(StrEnum):
    NO_ROOM = "no-room"
    SIXTH_USE = "sixth-use"


@dataclass(frozen=True)
class EndTrigger:
    """What triggered the end of the game: when, by whom, and why."""

    round: int
    player: int
    reason: Trigger
    colour: Colour | None = None


@dataclass(frozen=True)
class Move:
    """One fill: a colour and the connected empty cells it goes into."""

    colour: Colour
    cells: frozenset[Cell]


@dataclass(frozen=True)
class Turn:
    """A player's action this round: a move, or ``None`` when nothing could be filled."""

    move: Move | None


@dataclass(frozen=True)
class PlayerState:
    hand: tuple[Colour, ...]
    sheet: Sheet
    uses: tuple[int, ...]  # per colour, in Colour order

    def used(self, colour: Colour) -> int:
        return self.uses[list(Colour).index(colour)]


@dataclass(frozen=True)
class GameResult:
    scores: tuple[SheetScore, ...]
    winners: tuple[int, ...]  # every player with the best total: ties are shared


def roll_die(rng: random.Random) -> int:
    return rng.randint(1, DIE_FACES)


def deal(island: Island, players: int, rng: random.Random) -> Game:
    """Setup: one random condition per colour, two random colours for each player."""
    conditions = Conditions.from_mapping({c: rng.choice(CONDITIONS[c]) for c in Colour})
    colours = list(Colour)
    rng.shuffle(colours)
    hands = [tuple(colours[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(players)]
    return Game.start(island, conditions, hands, reserve=tuple(colours[players * HAND_SIZE :]))


@dataclass(frozen=True)
class Game:
    conditions: Conditions
    players: tuple[PlayerState, ...]
    reserve: tuple[Colour, ...]
    round: int = 1
    roll: int | None = None
    turns: tuple[Turn | None, ...] = ()  # this round's, per player; None: not acted yet
    final_round: int | None = None
    triggers: tuple[EndTrigger, ...] = ()
    over: bool = False

    @staticmethod
    def start(
        island: Island,
        conditions: Conditions,
        hands: Iterable[tuple[Colour, ...]],
        reserve: tuple[Colour, ...] = (),
    ) -> Game:
        """A new game with the hands dealt (and, solo, the reserve queue of the other colours)."""
        dealt = [tuple(hand) for hand in hands]
        if len(dealt) not in PLAYER_COUNTS:
            raise ValueError(f"Isle of Colors is for 1 or 2 players, not {len(dealt)}")
        every = [c for hand in dealt for c in hand] + list(reserve)
        if any(len(hand) != HAND_SIZE for hand in dealt) or sorted(every) != sorted(Colour):
            raise ValueError("each player holds 2 colours and each colour is held or reserved once")
        if len(dealt) > 1 and reserve:
            raise ValueError("only a solo game keeps a reserve of colours")
        players = tuple(
            PlayerState(hand, Sheet.empty(island), (0,) * len(Colour)) for hand in dealt
        )
        return Game(conditions, players, tuple(reserve), turns=(None,) * len(players))

    @property
    def island(self) -> Island:
        return self.players[0].sheet.island

    @property
    def is_final_round(self) -> bool:
        return self.final_round == self.round

    def rolled(self, value: int) -> Game:
        """The round's shared die roll (read off a real die, or from ``roll_die``)."""
        if self.over:
            raise IllegalActionError("game-over", "the game is over")
        if self.roll is not None:
            raise IllegalActionError("one-roll", f"round {self.round} is already rolled")
        if not 1 <= value <= DIE_FACES:
            raise IllegalActionError("die", f"a d6 shows 1 to 6, not {value}")
        return replace(self, roll=value)

    def can_fill(self, player: int) -> bool:
        """Can this player still fill a connected group of the rolled size?"""
        sheet = self._player(player).sheet
        return can_fill(sheet.island, sheet.empty_mask, self._rolled())

    def fill(self, player: int, colour: Colour, cells: Iterable[Cell]) -> Game:
        state = self._acting(player)
        size = self._rolled()
        chosen = list(cells)
        if colour not in state.hand:
            held = " and ".join(state.hand)
            message = f"player {player} holds {held}, not {colour}"
            raise IllegalActionError("colour-not-held", message)
        repeated = next((c for i, c in enumerate(chosen) if c in chosen[:i]), None)
        if repeated is not None:
            raise IllegalActionError("wrong-size", f"cell {repeated} is named twice")
        if len(chosen) != size:
            raise IllegalActionError(
                "wrong-size", f"the roll is {size}: fill exactly {size} cells, not {len(chosen)}"
            )
        sheet = state.sheet
        for cell in chosen:
            if cell not in sheet.island:
                raise IllegalActionError("off-island", f"cell {cell} is not on the island")
            taken = sheet.at(cell)
            if taken is not None:
                raise IllegalActionError("cell-taken", f"cell {cell} is already {taken}")
        mask = sheet.island.mask_of(chosen)
        if not is_connected(sheet.island, mask):
            raise IllegalActionError("not-connected", "the cells filled must form one group")
        index = list(Colour).index(colour)
        uses = tuple(n + 1 if i == index else n for i, n in enumerate(state.uses))
        after = replace(state, sheet=sheet.with_fill(mask, colour), uses=uses)
        game = self._with_player(player, after)
        if uses[index] == USES_TO_END:
            game = game._triggered(EndTrigger(self.round, player, Trigger.SIXTH_USE, colour))
        return game._acted(player, Turn(Move(colour, frozenset(chosen))))

    def fill_nothing(self, player: int) -> Game:
        """The player has no room for the roll: nothing is filled and the end is triggered."""
        self._acting(player)
        if self.can_fill(player):
            raise IllegalActionError(
                "must-fill", f"player {player} has room for {self.roll} cells and must fill them"
            )
        game = self._triggered(EndTrigger(self.round, player, Trigger.NO_ROOM))
        return game._acted(player, Turn(None))

    def result(self) -> GameResult:
        """The scores of every sheet as it stands, and who leads (who won, once over)."""
        scores = tuple(score_sheet(p.sheet, self.conditions) for p in self.players)
        best = max(s.total for s in scores)
        return GameResult(scores, tuple(i for i, s in enumerate(scores) if s.total == best))

    def _player(self, player: int) -> PlayerState:
        if not 0 <= player < len(self.players):
            raise IllegalActionError("no-such-player", f"there is no player {player}")
        return self.players[player]

    def _rolled(self) -> int:
        if self.roll is None:
            raise IllegalActionError("roll-first", f"round {self.round} is not rolled yet")
        return self.roll

    def _acting(self, player: int) -> PlayerState:
        if self.over:
            raise IllegalActionError("game-over", "the game is over")
        state = self._player(player)
        self._rolled()
        if self.turns[player] is not None:
            raise IllegalActionError(
                "one-fill-per-round", f"player {player} has already acted in round {self.round}"
            )
        return state

    def _with_player(self, player: int, state: PlayerState) -> Game:
        players = tuple(state if i == player else p for i, p in enumerate(self.players))
        return replace(self, players=players)

    def _triggered(self, trigger: EndTrigger) -> Game:
        final = self.final_round if self.final_round is not None else self.round + 1
        return replace(self, final_round=final, triggers=(*self.triggers, trigger))

    def _acted(self, player: int, turn: Turn) -> Game:
        turns = tuple(turn if i == player else t for i, t in enumerate(self.turns))
        game = replace(self, turns=turns)
        if any(t is None for t in turns):
            return game
        if game.is_final_round:
            return replace(game, over=True)
        return game._swapped()._next_round()

    def _swapped(self) -> Game:
        """Hand over the colours used this round; a round in which someone filled nothing swaps
        nothing, since that player used no colour to give."""
        moves = [t.move for t in self.turns if t is not None]
        if any(m is None for m in moves):
            return self
        used = [m.colour for m in moves if m is not None]
        if len(self.players) == 1:
            incoming, reserve = self.reserve[0], (*self.reserve[1:], used[0])
            hand = _exchange(self.players[0].hand, used[0], incoming)
            return replace(self, players=(replace(self.players[0], hand=hand),), reserve=reserve)
        first, second = self.players
        return replace(
            self,
            players=(
                replace(first, hand=_exchange(first.hand, used[0], used[1])),
                replace(second, hand=_exchange(second.hand, used[1], used[0])),
            ),
        )

    def _next_round(self) -> Game:
        return replace(self, round=self.round + 1, roll=None, turns=(None,) * len(self.players))


def _exchange(hand: tuple[Colour, ...], given: Colour, received: Colour) -> tuple[Colour, ...]:
    return tuple(received if c is given else c for c in hand)
