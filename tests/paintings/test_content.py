"""The default art deck is balanced as documented; content files are validated when loaded."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.content.paintings import DEFAULT_PATH, content_for, default_content
from companion.errors import SourceError
from companion.games.paintings.model import BONUSES, ELEMENTS, SLOTS, Goal


def test_default_deck_has_sixty_cards_with_unique_ids() -> None:
    deck = default_content().deck()
    assert len(deck) == 60
    assert len({c.id for c in deck}) == 60


def test_every_element_appears_eight_times_in_every_slot() -> None:
    per_slot = Counter(
        (icon, slot)
        for card in default_content().deck()
        for slot, icons in zip(SLOTS, card.slots, strict=True)
        for icon in icons
    )
    for slot in SLOTS:
        for element in ELEMENTS:
            assert per_slot[(element, slot)] == 8
        for bonus in BONUSES:
            assert per_slot[(bonus, slot)] == 1


def test_icon_counts_per_card_and_bonus_spread() -> None:
    deck = default_content().deck()
    assert Counter(card.icon_count for card in deck) == {2: 15, 3: 30, 4: 15}
    doubles = [s for c in deck for s in c.slots if len(s) == 2]
    assert len(doubles) == 21
    assert sum(1 for s in doubles if s[0] is s[1]) == 7
    bonus_per_card = [sum(1 for s in c.slots for i in s if i.is_bonus) for c in deck]
    assert max(bonus_per_card) == 1
    assert sum(bonus_per_card) == 20
    for c in deck:
        icons = [i for s in c.slots for i in s]
        for bonus in (i for i in icons if i.is_bonus):
            assert len(icons) >= 3 and bonus.element not in icons, c.id
    holding = Counter(i for c in deck for i in {i for s in c.slots for i in s} if not i.is_bonus)
    assert set(holding.values()) == {33}


def test_all_twelve_scoring_cards_are_loaded() -> None:
    assert list(default_content().scoring_cards) == list(Goal)


def _default() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DEFAULT_PATH.read_text())
    return data


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data))
    return path


def test_user_deck_keeps_default_tracks_it_does_not_list(tmp_path: Path) -> None:
    data = {
        "format": 1,
        "game": "paintings",
        "cards": [{"id": "X-1", "slots": [["hue"], [], [], [], []]}],
        "scoring_cards": [{"id": "style", "track": [5, 11, 20]}],
    }
    content = content_for(_write(tmp_path, data))
    assert list(content.cards) == ["X-1"]
    assert content.scoring_cards[Goal.STYLE].track == (5, 11, 20)
    assert content.scoring_cards[Goal.VARIETY].track == (4, 8, 13)


BAD = [
    (lambda d: d["cards"][3]["slots"][1].append("pink"), "cards[3].slots[1][0]: unknown icon"),
    (
        lambda d: d["cards"][0]["slots"].__setitem__(0, ["hue", "hue", "tone"]),
        "cards[0].slots[0]: expected at most 2 entries",
    ),
    (lambda d: d["cards"][5]["slots"].pop(), "cards[5].slots: expected 5 entries"),
    (lambda d: d["cards"][7].__setitem__("id", "A-01"), "cards[7].id: duplicate art card id"),
    (lambda d: d["cards"][2].__setitem__("colour", 1), "cards[2].colour: unknown key"),
    (lambda d: d.__setitem__("game", "colorfield"), "game: this is not a Paintings catalogue"),
    (
        lambda d: d["scoring_cards"][0].__setitem__("id", "harmony"),
        "scoring_cards[0].id: unknown scoring card 'harmony'",
    ),
    (
        lambda d: d["scoring_cards"][1].__setitem__("track", [3, 2]),
        "scoring_cards[1].track: a track never goes down",
    ),
    (
        lambda d: d["scoring_cards"].append({"id": "style", "track": [1]}),
        "scoring_cards[12].id: duplicate scoring card 'style'",
    ),
    (lambda d: d.__setitem__("cards", []), "cards: expected at least 1 entries"),
]


@pytest.mark.parametrize(("spoil", "message"), BAD)
def test_bad_content_names_file_and_field(tmp_path: Path, spoil: Any, message: str) -> None:
    data = _default()
    spoil(data)
    path = _write(tmp_path, data)
    with pytest.raises(SourceError) as caught:
        content_for(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)
