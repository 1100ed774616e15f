"""Past games: the finished tables as an archive, and simple stats by player across it.

Pure: a finished table's final state and its event log give its entry. Scores are never worked
out again here: a player's history is their total as the projection had it after each step of
the game (each banked round where rounds bank, each scan elsewhere), replayed through
``advance`` over the changes still in effect. Players are matched across tables by name,
ignoring case and surrounding spaces; seats and join tokens never appear.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.games.registry import games as registered
from companion.table.ending import decided_by, winners
from companion.table.events import CHANGES, ROUND_END, SCAN, Event
from companion.table.projection import BANKS_ROUNDS, TableState, advance, history, initial
from companion.words import plural

# What decided a game, in a player's words, given the winners' total (as the scoreboard says it).
DECIDED: Mapping[str, str] = MappingProxyType(
    {
        "points": "With the most points: {n}.",
        "patch bonus": "Tied on {n} points: the larger patch bonus breaks the tie.",
        "unused inspiration tokens": "Tied on {n} points and on the patch bonus: more unused "
        "Inspiration tokens break the tie.",
        "large pans pressed": "Tied on {n} points: more large pans pressed break the tie.",
        "inspiration tokens": "Tied on {n} points: more Inspiration tokens in hand break the tie.",
        "shared": "Tied on {n} points and on every tie-break the table knows.",
    }
)


def title_of(game: str) -> str:
    return registered()[game].title


@dataclass(frozen=True)
class PastPlayer:
    name: str
    colour: str
    total: int
    rank: int  # after the tie-breaks: 1 won
    history: tuple[int, ...]  # their total after each step of the game (``PastGame.steps``)

    def to_json(self, full: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "name": self.name,
            "colour": self.colour,
            "total": self.total,
            "rank": self.rank,
            "winner": self.rank == 1,
        }
        return body | ({"history": list(self.history)} if full else {})


@dataclass(frozen=True)
class PastGame:
    table: str
    game: str
    ended: float  # when the change that ended the game was written (seconds since the epoch)
    players: tuple[PastPlayer, ...]  # in final order, the winners first
    decided_by: str  # "points", a tie-break's name or "shared"
    rounds: int
    scans: int
    steps: tuple[str, ...]  # "Round 1"... where rounds bank, else "Scan 1"...

    @property
    def title(self) -> str:
        return title_of(self.game)

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if p.rank == 1)

    @property
    def result(self) -> str:
        """Who won, in words."""
        names = self.winners
        if len(names) == 1:
            return f"{names[0]} won"
        return f"{', '.join(names[:-1])} and {names[-1]} shared the win"

    @property
    def length(self) -> str:
        """How long the game was, in words."""
        return f"{plural(self.rounds, 'round')}, {plural(self.scans, 'scan')}"

    @property
    def decided(self) -> str:
        """What decided the game, in words."""
        best = self.players[0].total
        words = DECIDED.get(self.decided_by, "Decided by {by}.")
        return words.format(n=best, by=self.decided_by)

    def to_json(self, full: bool = False) -> dict[str, Any]:
        """The game as the archive lists it; ``full`` adds each player's history and the steps."""
        body: dict[str, Any] = {
            "table": self.table,
            "game": self.game,
            "title": self.title,
            "ended": round(self.ended, 3),
            "rounds": self.rounds,
            "scans": self.scans,
            "length": self.length,
            "winners": list(self.winners),
            "result": self.result,
            "decided_by": self.decided_by,
            "decided": self.decided,
            "players": [p.to_json(full) for p in self.players],
        }
        return body | ({"steps": list(self.steps)} if full else {})


@dataclass(frozen=True)
class GameTypeStats:
    game: str
    played: int
    wins: int
    average: float  # points per game, to one decimal
    best: int

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": title_of(self.game),
            "played": self.played,
            "wins": self.wins,
            "average": self.average,
            "best": self.best,
            "words": f"{title_of(self.game)}: {plural(self.played, 'game')}, "
            f"{plural(self.wins, 'win')}, average {_number(self.average)}, best {self.best}",
        }


@dataclass(frozen=True)
class PlayerStats:
    name: str  # as written in their latest game
    colour: str  # their colour in their latest game
    played: int
    wins: int
    games: tuple[GameTypeStats, ...]  # by game title

    @property
    def win_rate(self) -> float:
        return round(self.wins / self.played, 3)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "colour": self.colour,
            "played": self.played,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "record": f"{plural(self.wins, 'win')} in {plural(self.played, 'game')} "
            f"({round(100 * self.win_rate)}%)",
            "games": [g.to_json() for g in self.games],
        }


def past_game(state: TableState, events: Sequence[Event]) -> PastGame | None:
    """The archive's entry for a table (its final state and whole log), None while it is
    being played."""
    if not state.finished:
        return None
    setup = state.setup
    banks = setup.game in BANKS_ROUNDS
    changes = [e.event for e in history(setup, events) if not e.undone and e.event.kind in CHANGES]
    step_kind = ROUND_END if banks else SCAN
    replayed = initial(state.table, setup)
    ended: float | None = None
    after_steps: list[tuple[int, ...]] = []
    for event in changes:
        if event.kind == SCAN and not banks and after_steps:
            # A scan's step holds what followed it (its corrections, penalties) until the next.
            after_steps[-1] = replayed.totals()
        replayed = advance(replayed, event)
        if event.kind == step_kind:
            after_steps.append(replayed.totals())
        if ended is None and replayed.finished:
            ended = event.at
    if after_steps and not banks:
        after_steps[-1] = state.totals()
    assert ended is not None, "a finished table's log has the change that ended it"
    scans = sum(1 for e in changes if e.kind == SCAN)
    word = "Round" if banks else "Scan"
    steps = tuple(f"{word} {i}" for i in range(1, len(after_steps) + 1))
    standings = state.final_standings()
    order = {seat: i for i, seat in enumerate(setup.seats)}
    players = []
    for standing in standings:
        player = setup.player(standing.seat)
        assert player is not None
        column = order[standing.seat]
        players.append(
            PastPlayer(
                player.name,
                player.colour,
                state.total(standing.seat),
                standing.rank,
                tuple(totals[column] for totals in after_steps),
            )
        )
    assert winners(standings)  # a finished game always has its winners
    return PastGame(
        state.table,
        setup.game,
        ended,
        tuple(players),
        decided_by(standings),
        state.round,
        scans,
        steps,
    )


def newest_first(games: Iterable[PastGame]) -> tuple[PastGame, ...]:
    return tuple(sorted(games, key=lambda g: (-g.ended, g.table)))


def player_key(name: str) -> str:
    """Who a name is across tables: the same letters, whatever their case and spaces around."""
    return name.strip().casefold()


def player_stats(games: Iterable[PastGame]) -> tuple[PlayerStats, ...]:
    """Every player's games, wins and scores per game across ``games``; most wins first, then
    the better win rate, then by name."""
    by_player: dict[str, list[tuple[PastGame, PastPlayer]]] = {}
    for game in newest_first(games):
        for player in game.players:
            by_player.setdefault(player_key(player.name), []).append((game, player))
    stats = [_stats_of(played) for played in by_player.values()]
    return tuple(sorted(stats, key=lambda s: (-s.wins, -s.win_rate, player_key(s.name))))


def _stats_of(played: Sequence[tuple[PastGame, PastPlayer]]) -> PlayerStats:
    by_game: dict[str, list[PastPlayer]] = {}
    for game, player in played:
        by_game.setdefault(game.game, []).append(player)
    per_game = tuple(
        GameTypeStats(
            game,
            len(players),
            sum(1 for p in players if p.rank == 1),
            round(sum(p.total for p in players) / len(players), 1),
            max(p.total for p in players),
        )
        for game, players in sorted(by_game.items(), key=lambda item: title_of(item[0]))
    )
    latest = played[0][1]
    return PlayerStats(
        latest.name.strip(),
        latest.colour,
        len(played),
        sum(g.wins for g in per_game),
        per_game,
    )


def _number(value: float) -> str:
    """A number to one decimal as people write it: 28.5, and 34 rather than 34.0."""
    return f"{value:.1f}".removesuffix(".0")
