"""Pigment Lab's Spill Lines and Fault diagnoses, entered at the table through the API: they
count in every total, the standings and the winner, undo takes them back, and the table refuses
bad fields, other games and a game that is over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.test_game_end import CARDS, CONDITIONS, OVER, Table, pigments_board

ANA, BEN = 1, 2


def enter(table: Table, path: str, body: dict[str, Any]) -> Any:
    return table.client.post(f"/api/tables/{table.id}/{path}", json=body, headers=table.headers)


def player(table: Table, seat: int) -> Any:
    return next(p for p in table.state()["players"] if p["seat"] == seat)


def test_spills_and_a_wrong_diagnosis_come_off_the_total_with_their_arithmetic(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, "pigments")
    assert table.scan({ANA: pigments_board(("small", "large"))}).status_code == 201
    assert player(table, ANA)["total"] == 11
    spilled = enter(table, "spills", {"seat": ANA, "chips": 4})
    assert spilled.status_code == 201
    assert spilled.json["scores"]["players"][0]["total"] == 7  # 11 + (0 - 1 - 1 - 2)
    assert enter(table, "diagnoses", {"seat": ANA, "right": False}).status_code == 201
    assert enter(table, "diagnoses", {"seat": BEN, "right": True}).status_code == 201
    ana, ben = player(table, ANA), player(table, BEN)
    assert (ana["total"], ana["penalty"], ben["total"], ben["penalty"]) == (6, -5, 0, 0)
    assert ana["penalties"] == [
        {
            "kind": "spill",
            "round": 1,
            "points": -4,
            "explanation": "Round 1 Spill Line, 4 chips: +0 -1 -1 -2 = -4",
        },
        {
            "kind": "diagnosis",
            "round": 1,
            "points": -1,
            "explanation": "Round 1 Fault diagnosis wrong, -1",
        },
    ]
    assert ben["penalties"][0]["explanation"] == "Round 1 Fault diagnosis right, no penalty"
    # Each round's Spill Line is scored on its own: the first chip of round 2 is free again.
    assert table.post("rounds").status_code == 201
    assert enter(table, "spills", {"seat": ANA, "chips": 9}).status_code == 201
    assert player(table, ANA)["total"] == 6 - 18  # 0 -1 -1 -2 -2 -3 -3 -3 -3
    # The scoreboard's lines, in words and round by round.
    assert player(table, ANA)["penalty_lines"] == [
        "Round 1 Spill Line: 4 chips, -4 points",
        "Round 1 Fault diagnosis: wrong, -1 point",
        "Round 2 Spill Line: 9 chips, -18 points",
    ]
    assert player(table, BEN)["penalty_lines"] == ["Round 1 Fault diagnosis: right, 0 points"]
    summaries = [
        e["summary"] for e in table.client.get(f"/api/tables/{table.id}/history").json["history"]
    ]
    assert summaries[0] == "Spill Line: Ana 9 chips in round 2, -18 points"
    assert "Fault diagnosis: Ana wrong, -1 point" in summaries


def test_penalties_change_the_winner(tmp_path: Path) -> None:
    table = Table(tmp_path, "pigments")
    # Ana presses 11 points of pans, Ben 10: without penalties Ana wins.
    ana, ben = pigments_board(("small", "large")), pigments_board(("medium",))
    assert table.scan({ANA: ana, BEN: ben}).status_code == 201
    for _ in range(4):
        assert enter(table, "spills", {"seat": BEN, "chips": 1}).status_code == 201
        assert table.post("rounds").status_code == 201
    assert enter(table, "spills", {"seat": ANA, "chips": 4}).status_code == 201  # -4
    assert enter(table, "diagnoses", {"seat": ANA, "right": False}).status_code == 201  # -1
    assert [(p["total"], p["place"]) for p in table.state()["players"]] == [(6, 2), (10, 1)]
    ended = table.post("rounds")
    assert ended.status_code == 201
    state = table.state()
    assert (state["over"], state["winner"], state["decided_by"]) == (True, [BEN], "points")
    assert [(s["seat"], s["total"]) for s in state["standings"]] == [(BEN, 10), (ANA, 6)]
    for path, body in (
        ("spills", {"seat": BEN, "chips": 2}),
        ("diagnoses", {"seat": BEN, "right": False}),
    ):
        answer = enter(table, path, body)
        assert (answer.status_code, answer.json) == (409, {"error": OVER})
    # Undo of the round's end reopens the game; without the diagnosis and with her count
    # entered again as 2 chips (-1), Ana ties Ben at 10 and her large pan wins.
    assert table.post("undo").json["scores"]["over"] is False
    assert table.post("undo").status_code == 201
    assert enter(table, "spills", {"seat": ANA, "chips": 2}).status_code == 201
    assert table.post("rounds").json["scores"]["winner"] == [ANA]
    assert table.state()["decided_by"] == "large pans pressed"


def test_a_count_entered_again_replaces_the_first_and_undo_brings_it_back(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, "pigments")
    assert enter(table, "spills", {"seat": ANA, "chips": 2}).status_code == 201
    assert player(table, ANA)["total"] == -1
    assert enter(table, "spills", {"seat": ANA, "chips": 5}).status_code == 201
    assert player(table, ANA)["total"] == -6  # the last count for the round counts
    assert len(player(table, ANA)["penalties"]) == 1
    undone = table.post("undo")
    assert undone.status_code == 201
    assert undone.json["scores"]["players"][0]["total"] == -1
    assert table.post("undo").json["scores"]["players"][0]["penalties"] == []
    # A past round's count can be fixed after the round ended, a future one cannot be entered.
    assert table.post("rounds").status_code == 201
    assert enter(table, "spills", {"seat": BEN, "chips": 2, "round": 1}).status_code == 201
    assert player(table, BEN)["penalties"][0]["round"] == 1
    late = enter(table, "spills", {"seat": BEN, "chips": 2, "round": 3})
    assert (late.status_code, late.json) == (400, {"error": "round: 3 is out of range (1..2)"})


@pytest.mark.parametrize(
    ("path", "body", "error"),
    [
        ("spills", {"seat": 3, "chips": 1}, "seat: no player sits at seat 3"),
        ("spills", {"seat": 1, "chips": -1}, "chips: -1 is out of range (0..80)"),
        ("spills", {"seat": 1, "chips": 500}, "chips: 500 is out of range (0..80)"),
        ("spills", {"seat": 1, "chips": "4"}, "chips: expected a whole number, got a string"),
        ("spills", {"seat": 1}, "chips: missing"),
        ("diagnoses", {"seat": 0, "right": True}, "seat: 0 is out of range (>= 1)"),
        ("diagnoses", {"seat": 1, "right": "no"}, "right: expected true or false, got a string"),
        (
            "diagnoses",
            {"seat": 1, "right": True, "cause": "x"},
            "cause: unknown key (expected one of: right, seat)",
        ),
    ],
)
def test_bad_fields_are_a_one_line_400_and_change_nothing(
    tmp_path: Path, path: str, body: dict[str, Any], error: str
) -> None:
    table = Table(tmp_path, "pigments")
    answer = enter(table, path, body)
    assert (answer.status_code, answer.json) == (400, {"error": error})
    assert table.state()["last_event"] == 0


def test_penalties_need_the_token(tmp_path: Path) -> None:
    table = Table(tmp_path, "pigments")
    for path, body in (
        ("spills", {"seat": 1, "chips": 2}),
        ("diagnoses", {"seat": 1, "right": False}),
    ):
        answer = table.client.post(f"/api/tables/{table.id}/{path}", json=body)
        assert answer.status_code == 403
    assert table.state()["last_event"] == 0


@pytest.mark.parametrize("game", ["colorfield", "paintings", "isle"])
def test_other_games_refuse_penalties(tmp_path: Path, game: str) -> None:
    options: dict[str, dict[str, Any]] = {
        "paintings": {"scoring_cards": CARDS},
        "isle": {"conditions": CONDITIONS},
    }
    table = Table(tmp_path, game, **options.get(game, {}))
    title = {"colorfield": "Color Field", "paintings": "Paintings", "isle": "Isle of Colors"}[game]
    error = f"Spill Lines and Fault diagnoses are Pigment Lab's: this table plays {title}"
    for path, body in (
        ("spills", {"seat": 1, "chips": 2}),
        ("diagnoses", {"seat": 1, "right": False}),
    ):
        answer = enter(table, path, body)
        assert (answer.status_code, answer.json) == (409, {"error": error})


def test_the_scoreboard_offers_the_penalty_controls_only_to_pigment_lab_players(
    tmp_path: Path,
) -> None:
    lab = Table(tmp_path / "lab", "pigments")
    field = Table(tmp_path / "field", "colorfield")
    token = {"token": lab.headers["X-Table-Token"]}
    assert b'id="penalties"' in lab.client.get(f"/t/{lab.id}", query_string=token).data
    assert b'id="penalties"' not in lab.client.get(f"/t/{lab.id}").data
    token = {"token": field.headers["X-Table-Token"]}
    assert b'id="penalties"' not in field.client.get(f"/t/{field.id}", query_string=token).data


def test_a_pigment_lab_table_never_names_a_shade_cards_recipe(tmp_path: Path) -> None:
    """The recipe is on the card's back: the players' boards are scored as they see the card."""
    table = Table(tmp_path, "pigments")
    large = ["ultramarine", "FeO(OH)", "TiO2", "binder", "binder"]
    palette = {
        "game": "pigments",
        "pans": [
            {"pan": "small", "chips": [], "shade": None},
            {"pan": "medium", "chips": [], "shade": None},
            {"pan": "medium", "chips": [], "shade": None},
            {"pan": "large", "chips": large, "shade": "mint"},
        ],
    }
    scanned = table.scan({1: palette})
    assert scanned.status_code == 201
    board = scanned.json["boards"][0]
    pan = board["score"]["pans"][3]
    assert (pan["verdict"], pan["shade"]) == ("nothing-happens", {"name": "mint"})
    assert "shade_recipe" not in pan["colour"]
    assert "mint is" not in board["explanation"]
    assert (
        "The pan holds FeO(OH) + ultramarine + TiO2, which makes sage: the same bands as mint, "
        "but lighter than the card."
    ) in board["explanation"]
