"""``atelier score`` on paintings files through the real console script."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli import assert_user_error, atelier_main

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "companion/content/examples/paintings.json"
DEFAULT_DECK = ROOT / "companion/content/paintings.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def write(tmp_path: Path, data: object, name: str = "paintings.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_score_prints_the_ruled_json_keys() -> None:
    run = atelier_main("score", EXAMPLE)
    assert run.status == 0, run.stderr
    assert run.stderr == ""
    data = json.loads(run.stdout)
    assert data["game"] == "paintings"
    assert data["total"] == 29
    assert data["ribbons"] == {"variety": 1, "repetition": 3, "emphasis": 1, "composition": 3}
    assert data["silver"] == 2
    assert data["points"]["silver"] == 4
    assert sum(data["points"].values()) == data["total"]
    assert [p["silver"] for p in data["paintings"]] == [0, 0, 2]
    assert all({"visible", "ribbons", "silver"} <= set(p) for p in data["paintings"])


def test_explain_shows_each_ribbon_with_its_slots() -> None:
    run = atelier_main("score", "--explain", EXAMPLE)
    assert run.status == 0
    text = run.stderr
    assert text.startswith(
        "Paintings: 29 points (variety 4 + repetition 11 + emphasis 1 + composition 9 + silver 4)"
    )
    assert (
        "ribbon: shapes in slots 3, 5: shape in slot 3 (card 3), shape in slot 5 (card 2)" in text
    )
    assert "silver: bonus-shape in slot 1 (card 3): 2 ribbons (shape in slots 3, 5)" in text
    assert "repetition: 3 ribbons -> 11 points (track 3, 7, 11, 16)" in text


def test_a_users_deck_changes_tracks_and_cards(tmp_path: Path) -> None:
    deck = json.loads(DEFAULT_DECK.read_text())
    deck["scoring_cards"] = [{"id": "repetition", "track": [1, 2, 3, 4]}]
    run = atelier_main("score", "--deck", write(tmp_path, deck, "deck.json"), EXAMPLE)
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["points"]["repetition"] == 3
    assert data["total"] == 29 - 11 + 3


def _spoiled(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(example())
    change(data)
    return data


BAD = [
    (
        lambda d: d["paintings"][0][1]["slots"][2].__setitem__(0, "pink"),
        "paintings[0][1].slots[2][0]: unknown icon 'pink'",
    ),
    (
        lambda d: d["paintings"][0][0]["slots"].append([]),
        "paintings[0][0].slots: expected 5 entries, got 6",
    ),
    (
        lambda d: d["paintings"][0][0]["slots"][0].extend(["hue", "hue", "hue"]),
        "paintings[0][0].slots[0]: expected at most 2 entries",
    ),
    (lambda d: d["paintings"][1].pop(), "paintings[1]: expected 3 entries, got 2"),
    (
        lambda d: d["paintings"].append(d["paintings"][0]),
        "paintings: expected at most 3 entries, got 4",
    ),
    (lambda d: d.__setitem__("paintings", []), "paintings: expected at least 1 entries"),
    (lambda d: d["scoring_cards"].pop(), "scoring_cards: expected 4 entries, got 3"),
    (
        lambda d: d["scoring_cards"].__setitem__(3, "variety"),
        "scoring_cards[3]: scoring card 'variety' is listed twice",
    ),
    (
        lambda d: d["scoring_cards"].__setitem__(0, "harmony"),
        "scoring_cards[0]: unknown scoring card 'harmony'",
    ),
    (
        lambda d: d["paintings"][1].__setitem__(0, {"card": "Z-99"}),
        "paintings[1][0].card: unknown art card 'Z-99'",
    ),
    (
        lambda d: d["paintings"][1].__setitem__(0, {"card": "A-03", "slots": [[], [], [], [], []]}),
        "paintings[1][0].slots: do not match catalogue card 'A-03'",
    ),
    (lambda d: d["paintings"][0].__setitem__(2, {}), "paintings[0][2]: an art card needs"),
    (lambda d: d.__setitem__("player", 1), "player: unknown key"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_bad_paintings_file_exits_2_naming_file_and_field(
    tmp_path: Path, change: Any, message: str
) -> None:
    path = write(tmp_path, _spoiled(change))
    assert_user_error(atelier_main("score", path), str(path), message)


def test_bad_deck_file_is_named(tmp_path: Path) -> None:
    deck = json.loads(DEFAULT_DECK.read_text())
    deck["cards"][0]["slots"][4] = ["glitter"]
    path = write(tmp_path, deck, "deck.json")
    assert_user_error(
        atelier_main("score", "--deck", path, EXAMPLE),
        str(path),
        "cards[0].slots[4][0]: unknown icon",
    )
