"""Color Field's Community Tools entered at the table through the API: Mahl Stick's points banked
with the round, Local Collective's tokens allowed, a player's decline, undo, and refusals."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.samples import random_position
from tests.web.test_game_end import OVER, Table
from tests.web.test_round_start import PRIMED, board

ANA, BEN = 1, 2
KNOWN = "known: local-collective, mahl-stick"
SEGMENT = ["lemon", "coral"]
# Every tile lemon all round, every border segment showing lemon: six perfect tiles.
ALL_PERFECT = {
    "game": "colorfield",
    "canvas": {"top": [SEGMENT] * 3, "bottom": [SEGMENT] * 3, "left": [SEGMENT] * 2,
               "right": [SEGMENT] * 2},
    "spaces": [{"edges": [["lemon", 1]] * 4, "rotation": 0}] * 6,
}  # fmt: skip
ONE_PERFECT = random_position("colorfield", random.Random(27))  # its space 6 is perfect


def tools(table: Table, body: Any, token: bool = True) -> Any:
    headers = table.headers if token else {}
    return table.client.post(f"/api/tables/{table.id}/tools", json=body, headers=headers)


def player(table: Table, seat: int) -> Any:
    return next(p for p in table.state()["players"] if p["seat"] == seat)


def test_mahl_stick_banks_a_point_per_perfect_tile_on_the_other_canvases(tmp_path: Path) -> None:
    table = Table(tmp_path, "colorfield", community_tools=True)
    entered = tools(table, {"card": "mahl-stick"})
    assert entered.status_code == 201
    assert entered.json["scores"]["tools"] == {"card": "mahl-stick", "declined": []}
    assert table.scan({ANA: ONE_PERFECT, BEN: ALL_PERFECT}).status_code == 201
    ana, ben = player(table, ANA), player(table, BEN)
    assert ana["board"]["score"]["perfect_tiles"] == 1
    assert ben["board"]["score"]["perfect_tiles"] == 6
    canvases = (ana["board"]["score"]["total"], ben["board"]["score"]["total"])
    assert (ana["total"], ben["total"]) == canvases  # the card scores at the round's end
    ended = table.post("rounds")
    assert ended.status_code == 201
    ana, ben = player(table, ANA), player(table, BEN)
    assert ana["round_scores"] == [canvases[0] + 6]
    assert ben["round_scores"] == [canvases[1] + 1]
    assert ana["tool_points"] == [
        {
            "round": 1,
            "seat": ANA,
            "card": "mahl-stick",
            "points": 6,
            "explanation": "Mahl Stick: 6 perfect tiles on the other canvases x 1 = 6",
        }
    ]
    assert ben["tool_points"][0]["points"] == 1
    assert ana["penalty_lines"] == [
        "Round 1 Mahl Stick: 6 perfect tiles on the other canvases x 1 = 6, +6 points"
    ]
    history = table.client.get(f"/api/tables/{table.id}/history").json["history"]
    assert "Ana Mahl Stick: 6 perfect tiles" in history[0]["summary"]
    assert history[-1]["summary"] == "Community Tools: Mahl Stick in round 1"
    # The next round has no card until one is entered.
    assert table.state()["tools"] == {"card": None, "declined": []}


def test_a_declined_card_gives_nothing_and_undo_takes_the_decline_back(tmp_path: Path) -> None:
    table = Table(tmp_path, "colorfield", community_tools=True)
    assert tools(table, {"card": "mahl-stick"}).status_code == 201
    declined = tools(table, {"seat": ANA, "declined": True})
    assert declined.status_code == 201
    assert declined.json["scores"]["tools"] == {"card": "mahl-stick", "declined": [ANA]}
    assert table.post("undo").json["scores"]["tools"]["declined"] == []
    assert tools(table, {"seat": ANA, "declined": True}).status_code == 201
    assert table.scan({ANA: ONE_PERFECT, BEN: ALL_PERFECT}).status_code == 201
    assert table.post("rounds").status_code == 201
    ana = player(table, ANA)
    assert ana["round_scores"] == [ana["board"]["score"]["total"]]
    assert [(p["points"], p["explanation"]) for p in ana["tool_points"]] == [
        (0, "Mahl Stick: declined")
    ]
    assert player(table, BEN)["tool_points"][0]["points"] == 1


def turns(table: Table, rotations: int) -> list[list[str]]:
    """Ana primes and takes a turn, then turns one more Foundation tile at each scan."""
    spaces: list[Any] = [*PRIMED[:5], ("R1-05", 2)]
    found = [[w["rule"] for w in table.scan({ANA: board(*spaces)}).json["boards"][0]["warnings"]]]
    for space in range(rotations):
        spaces[space] = (PRIMED[space], 1)
        answer = table.scan({ANA: board(*spaces)})
        found.append([w["rule"] for w in answer.json["boards"][0]["warnings"]])
    return found


def test_local_collective_pays_a_fourth_and_fifth_token_unless_declined(tmp_path: Path) -> None:
    table = Table(tmp_path / "card", "colorfield", community_tools=True)
    assert tools(table, {"card": "local-collective"}).status_code == 201
    assert turns(table, 5) == [[], [], [], [], [], []]
    assert table.state()["standings"][0]["tie_breaks"][1]["value"] == 0  # 5 of 5 used
    late = tools(table, {"seat": ANA, "declined": True})
    assert (late.status_code, late.json["error"]) == (
        409,
        "seat 1 has used 5 Inspiration tokens, more than the 3 without Local Collective: "
        "the card can no longer be declined",
    )
    plain = Table(tmp_path / "plain", "colorfield", community_tools=True)
    assert turns(plain, 4) == [[], [], [], [], ["unpaid-rotation"]]
    declined = Table(tmp_path / "declined", "colorfield", community_tools=True)
    assert tools(declined, {"card": "local-collective"}).status_code == 201
    assert tools(declined, {"seat": ANA, "declined": True}).status_code == 201
    assert turns(declined, 4)[-1] == ["unpaid-rotation"]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"card": "easel"}, f"card: unknown Community Tools card 'easel' ({KNOWN})"),
        ({"card": 3}, "card: expected a string, got a number"),
        ({"seat": 3, "declined": True}, "seat: no player sits at seat 3"),
        ({"seat": ANA, "declined": "yes"}, "declined: expected true or false, got a string"),
        ({"seat": ANA}, "declined: missing"),
        ({}, "give card, or seat and declined"),
        ({"card": None, "seat": ANA}, "give either card, or seat and declined"),
        ({"card": None, "why": 1}, "why: unknown key (expected one of: card, declined, seat)"),
    ],
)
def test_bad_fields_are_a_one_line_400_and_change_nothing(
    tmp_path: Path, body: dict[str, Any], error: str
) -> None:
    table = Table(tmp_path, "colorfield", community_tools=True)
    assert tools(table, {"card": "mahl-stick"}).status_code == 201
    answer = tools(table, body)
    assert (answer.status_code, answer.json) == (400, {"error": error})
    assert table.state()["last_event"] == 1


def test_refusals_without_the_card_the_option_the_game_or_the_token(tmp_path: Path) -> None:
    table = Table(tmp_path / "tools", "colorfield", community_tools=True)
    early = tools(table, {"seat": ANA, "declined": True})
    assert (early.status_code, early.json) == (
        409,
        {"error": "no Community Tools card is entered for round 1"},
    )
    assert tools(table, {"card": "mahl-stick"}, token=False).status_code == 403
    assert tools(table, {"card": None}).status_code == 201
    assert table.state()["tools"] == {"card": None, "declined": []}
    without = Table(tmp_path / "without", "colorfield")
    refused = tools(without, {"card": "mahl-stick"})
    assert (refused.status_code, refused.json) == (
        409,
        {"error": "this table plays without Community Tools (options.community_tools)"},
    )
    assert without.state()["tools"] is None
    lab = Table(tmp_path / "lab", "pigments")
    other = tools(lab, {"card": "mahl-stick"})
    assert (other.status_code, other.json) == (
        409,
        {"error": "Community Tools are Color Field's: this table plays Pigment Lab"},
    )


def test_no_card_is_entered_once_the_game_is_over(tmp_path: Path) -> None:
    table = Table(tmp_path, "colorfield", community_tools=True)
    for _ in range(3):
        assert table.post("rounds").status_code == 201
    for body in ({"card": "mahl-stick"}, {"seat": ANA, "declined": True}):
        answer = tools(table, body)
        assert (answer.status_code, answer.json) == (409, {"error": OVER})


def test_the_scoreboard_offers_the_tools_control_only_where_they_are_played(
    tmp_path: Path,
) -> None:
    field = Table(tmp_path / "tools", "colorfield", community_tools=True)
    plain = Table(tmp_path / "plain", "colorfield")
    for table, shown in ((field, True), (plain, False)):
        token = {"token": table.headers["X-Table-Token"]}
        page = table.client.get(f"/t/{table.id}", query_string=token).data
        assert (b'id="tools"' in page) is shown
    assert b'id="tools"' not in field.client.get(f"/t/{field.id}").data
    token = {"token": field.headers["X-Table-Token"]}
    page = field.client.get(f"/t/{field.id}", query_string=token).data
    assert b'<option value="mahl-stick">Mahl Stick</option>' in page
