"""The convention leaderboard as the hub knows it: every table it heard of on the broker, and
the standings per game across them. Pure state, fed one broker message at a time
(``apply(topic, payload)``); no network, no threads.

Anyone on the broker may publish, and the broker redelivers: a payload that is not ours, a state
older than (or as old as) the one known, and an event already seen all change nothing. A table's
server is online only while its retained status says so (its last will says otherwise).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from web.broker.protocol import decode, parse_topic

HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
TEXT_MAX = 200  # a name or a summary longer than this is cut: the page is a leaderboard
PLAYERS_MAX = 12  # more seats than any game has: a payload with more is not a table's


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    colour: str
    total: int
    place: int


@dataclass(frozen=True)
class Table:
    """One table as its last state said, with its last event and whether its server is up."""

    site: str
    table: str
    server: str
    game: str
    round: int
    over: bool
    winners: tuple[str, ...]  # names, once the game is over
    players: tuple[Player, ...]  # best first
    label: str  # how people tell tables apart: by who plays there (ids are random letters)
    seq: int  # the last event the state counts
    at: float  # when the table published it (its clock)
    received: float  # when the hub took it (the hub's clock)
    last: str  # the last event's summary ("" before one arrives)
    last_seq: int  # that event's seq: replays of it and older ones are ignored
    events: int  # distinct events taken
    version: int  # the leaderboard's version when this table last changed

    @property
    def key(self) -> tuple[str, str]:
        return (self.site, self.table)


@dataclass(frozen=True)
class Placed:
    """A player in the standings of a game across tables."""

    rank: int  # shared by equal totals: 1, 1, 3
    player: Player
    table: Table


class Leaderboard:
    """What the hub shows, from what the broker delivered. ``version`` grows with each change."""

    def __init__(self) -> None:
        self.version = 0
        self._tables: dict[tuple[str, str], Table] = {}
        self._online: dict[tuple[str, str], bool] = {}  # (site, server): its last status
        self._games: dict[str, int] = {}  # game: the version its standings last changed

    def apply(self, topic: str, payload: bytes, now: float) -> bool:
        """Take one message received at ``now``; whether anything shown changed."""
        found = parse_topic(topic)
        if found is None:
            return False
        if found.kind == "state" and payload == b"":
            return self._remove((found.site, found.name))
        body = decode(payload)
        if body is None:
            return False
        if found.kind == "status":
            return self._status(found.site, found.name, body)
        if found.kind == "state":
            return self._state(found.site, found.name, body, now)
        return self._event(found.site, found.name, body)

    def tables(self) -> list[Table]:
        """Every table, grouped by site and game, each game's by their players' names."""
        return sorted(self._tables.values(), key=lambda t: (t.site, t.game, t.label, t.table))

    def table(self, site: str, table: str) -> Table | None:
        return self._tables.get((site, table))

    def online(self, table: Table) -> bool:
        return self._online.get((table.site, table.server), False)

    def games(self) -> list[str]:
        return sorted({t.game for t in self._tables.values()})

    def standings(self, game: str) -> list[Placed]:
        """Every player of every table of ``game``, best total first."""
        return standings(self._tables.values(), game)

    def snapshot(self) -> tuple[list[Table], dict[tuple[str, str], bool]]:
        """Every table and every server's status as they stand: values that never change, for
        a reader to work on without holding up what the broker delivers."""
        return self.tables(), dict(self._online)

    def changed_since(self, version: int) -> tuple[list[Table], list[str]]:
        """The tables and the games whose standings changed after ``version``."""
        tables = [t for t in self.tables() if t.version > version]
        games = sorted(g for g, v in self._games.items() if v > version)
        return tables, games

    def _bump(self, *games: str) -> None:
        self.version += 1
        for game in games:
            self._games[game] = self.version

    def _status(self, site: str, server: str, body: dict[str, Any]) -> bool:
        online = body.get("online")
        if not isinstance(online, bool) or self._online.get((site, server)) is online:
            return False
        self._online[(site, server)] = online
        affected = [t for t in self._tables.values() if (t.site, t.server) == (site, server)]
        self._bump(*{t.game for t in affected})
        for table in affected:
            self._tables[table.key] = replace(table, version=self.version)
        return True

    def _state(self, site: str, name: str, body: dict[str, Any], now: float) -> bool:
        parsed = _parse_state(site, name, body, now)
        if parsed is None:
            return False
        known = self._tables.get(parsed.key)
        if known is not None and parsed.seq <= known.seq:
            return False  # a replay, or an older state delivered late
        if known is not None:
            parsed = replace(parsed, last=known.last, last_seq=known.last_seq, events=known.events)
            if known.game != parsed.game:
                self._games[known.game] = self.version + 1
        self._bump(parsed.game)
        self._tables[parsed.key] = replace(parsed, version=self.version)
        return True

    def _event(self, site: str, name: str, body: dict[str, Any]) -> bool:
        known = self._tables.get((site, name))
        seq, summary = body.get("seq"), body.get("summary")
        if (
            known is None  # its state comes with it (retained): the summary waits for the next
            or not _whole(seq)
            or not isinstance(summary, str)
            or body.get("id") != f"{name}/{seq}"
            or seq <= known.last_seq
        ):
            return False
        self._bump()
        self._tables[known.key] = replace(
            known,
            last=summary[:TEXT_MAX],
            last_seq=seq,
            events=known.events + 1,
            version=self.version,
        )
        return True

    def _remove(self, key: tuple[str, str]) -> bool:
        gone = self._tables.pop(key, None)
        if gone is None:
            return False
        self._bump(gone.game)
        return True


def standings(tables: Iterable[Table], game: str) -> list[Placed]:
    """Every player of every one of ``tables`` playing ``game``, best total first."""
    entries = [
        (player, table) for table in tables if table.game == game for player in table.players
    ]
    entries.sort(key=lambda e: (-e[0].total, e[0].name.casefold(), e[1].label))
    placed: list[Placed] = []
    for index, (player, table) in enumerate(entries):
        tied = placed and placed[-1].player.total == player.total
        placed.append(Placed(placed[-1].rank if tied else index + 1, player, table))
    return placed


def _label(players: Iterable[Player]) -> str:
    names = [p.name for p in sorted(players, key=lambda p: p.seat)]
    return ", ".join(names) if names else "No players yet"


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _parse_state(site: str, name: str, body: dict[str, Any], now: float) -> Table | None:
    """The table a state payload describes; None when it is not one a table would send."""
    scores, server, seq, at = (
        body.get("scores"),
        body.get("server"),
        body.get("seq"),
        body.get("at"),
    )
    if (
        body.get("table") != name
        or not isinstance(server, str)
        or not _whole(seq)
        or not _number(at)
        or not isinstance(scores, dict)
    ):
        return None
    game, round_, over = scores.get("game"), scores.get("round"), scores.get("over")
    raw_players = scores.get("players")
    if (
        not isinstance(game, str)
        or not _whole(round_)
        or not isinstance(over, bool)
        or not isinstance(raw_players, list)
        or len(raw_players) > PLAYERS_MAX
    ):
        return None
    players = [_parse_player(p) for p in raw_players]
    if any(p is None for p in players):
        return None
    ranked = sorted((p for p in players if p is not None), key=lambda p: (p.place, p.seat))
    by_seat = {p.seat: p.name for p in ranked}
    winner_seats = scores.get("winner") if over else []
    winners = tuple(by_seat[s] for s in winner_seats or [] if s in by_seat)
    return Table(
        site=site,
        table=name,
        server=server[:TEXT_MAX],
        game=game[:TEXT_MAX],
        round=round_,
        over=over,
        winners=winners,
        players=tuple(ranked),
        label=_label(ranked),
        seq=seq,
        at=float(at),
        received=now,
        last="",
        last_seq=0,
        events=0,
        version=0,
    )


def _parse_player(raw: object) -> Player | None:
    if not isinstance(raw, dict):
        return None
    seat, name, colour = raw.get("seat"), raw.get("name"), raw.get("colour")
    total, place = raw.get("total"), raw.get("place")
    if (
        not _whole(seat)
        or not isinstance(name, str)
        or not isinstance(colour, str)
        or not HEX_COLOUR.fullmatch(colour)  # it is drawn as a colour: nothing else gets in
        or not isinstance(total, int)
        or isinstance(total, bool)
        or not _whole(place)
    ):
        return None
    return Player(seat, name[:TEXT_MAX], colour, total, place)
