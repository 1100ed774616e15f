"""The leaderboard's state alone: what each broker message changes, and what it must not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.broker.scoreboards import scoreboard
from web.broker.leaderboard import Leaderboard
from web.broker.protocol import (
    encode,
    event_payload,
    server_status_topic,
    state_payload,
    status_payload,
    table_events_topic,
    table_state_topic,
)


@pytest.fixture
def scores(tmp_path: Path) -> dict[str, Any]:
    return scoreboard(tmp_path / "t", "pigments", ["Ada", "Ben", "Cleo"], [12, 30, 7])


def _state(board: Leaderboard, scores: dict[str, Any], seq: int, table: str = "t1") -> bool:
    payload = state_payload("pi-1", table, seq, 100.0 + seq, scores)
    return board.apply(table_state_topic("hall", table), payload, 200.0 + seq)


def test_a_state_makes_a_table_with_its_players_best_first(scores: dict[str, Any]) -> None:
    board = Leaderboard()
    assert _state(board, scores, 5)
    table = board.table("hall", "t1")
    assert table is not None
    assert [(p.name, p.total, p.place) for p in table.players] == [
        ("Ben", 30, 1),
        ("Ada", 12, 2),
        ("Cleo", 7, 3),
    ]
    assert (table.game, table.round, table.seq, table.received) == ("pigments", 1, 5, 205.0)
    assert table.label == "Ada, Ben, Cleo"


def test_an_older_or_replayed_state_changes_nothing(scores: dict[str, Any]) -> None:
    board = Leaderboard()
    _state(board, scores, 5)
    version = board.version
    assert not _state(board, {**scores, "round": 9}, 5)
    assert not _state(board, {**scores, "round": 9}, 4)
    assert board.version == version
    table = board.table("hall", "t1")
    assert table is not None and table.round == 1


def test_events_are_taken_once_by_id(scores: dict[str, Any]) -> None:
    board = Leaderboard()
    _state(board, scores, 5)
    topic = table_events_topic("hall", "t1")
    assert board.apply(topic, event_payload("pi-1", "t1", 6, "scan", "Ada scanned", 1.0), 2.0)
    assert not board.apply(topic, event_payload("pi-1", "t1", 6, "scan", "Ada scanned", 1.0), 2.0)
    assert not board.apply(topic, event_payload("pi-1", "t1", 3, "scan", "old", 1.0), 2.0)
    table = board.table("hall", "t1")
    assert table is not None and (table.last, table.events) == ("Ada scanned", 1)


def test_a_server_is_online_only_while_its_status_says_so(scores: dict[str, Any]) -> None:
    board = Leaderboard()
    _state(board, scores, 5)
    table = board.table("hall", "t1")
    assert table is not None and not board.online(table)
    status = server_status_topic("hall", "pi-1")
    assert board.apply(status, status_payload("pi-1", True, 1.0), 1.0)
    assert board.online(table)
    assert board.apply(status, status_payload("pi-1", False, 0.5), 2.0)  # its last will
    assert not board.online(table)


def test_an_empty_retained_state_removes_the_table(scores: dict[str, Any]) -> None:
    board = Leaderboard()
    _state(board, scores, 5)
    assert board.apply(table_state_topic("hall", "t1"), b"", 3.0)
    assert board.tables() == [] and board.standings("pigments") == []


@pytest.mark.parametrize(
    "payload",
    [
        b"not json",
        b"[1, 2]",
        b'{"v": 99, "server": "pi-1"}',
        encode({"server": "pi-1", "table": "other", "seq": 9, "at": 1.0, "scores": {}}),
        encode({"server": "pi-1", "table": "t1", "seq": "9", "at": 1.0, "scores": {}}),
        encode({"server": "pi-1", "table": "t1", "seq": 9, "at": 1.0, "scores": {"game": 1}}),
    ],
)
def test_foreign_payloads_are_ignored(payload: bytes) -> None:
    board = Leaderboard()
    assert not board.apply(table_state_topic("hall", "t1"), payload, 1.0)
    assert not board.apply("atelier/hall/tables/t1/other", payload, 1.0)
    assert board.version == 0


def test_a_colour_that_is_not_a_colour_refuses_the_state(scores: dict[str, Any]) -> None:
    scores["players"][0]["colour"] = "red; background: url(x)"
    assert not _state(Leaderboard(), scores, 5)


def test_standings_rank_every_player_of_a_game_across_tables(tmp_path: Path) -> None:
    board = Leaderboard()
    first = scoreboard(tmp_path / "a", "pigments", ["Ada", "Ben"], [20, 31])
    second = scoreboard(tmp_path / "b", "pigments", ["Cleo", "Dev"], [31, 5])
    other = scoreboard(tmp_path / "c", "colorfield", ["Eli", "Fay"], [50, 60])
    _state(board, first, 1, "t1")
    _state(board, second, 2, "t2")
    _state(board, other, 3, "t3")
    placed = [(p.rank, p.player.name, p.table.table) for p in board.standings("pigments")]
    assert placed == [(1, "Ben", "t1"), (1, "Cleo", "t2"), (3, "Ada", "t1"), (4, "Dev", "t2")]
    assert board.games() == ["colorfield", "pigments"]
    version = board.version
    _state(board, {**first, "round": 2}, 4, "t1")
    tables, games = board.changed_since(version)
    assert [t.table for t in tables] == ["t1"] and games == ["pigments"]
