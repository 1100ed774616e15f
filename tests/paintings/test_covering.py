"""The covering rule: the topmost card with an icon in a slot shows all of its icons there."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.paintings.covering import visible_icons
from companion.games.paintings.model import SLOTS, ArtCard, Icon, Painting
from tests.paintings.builders import card, painting

ICONS = st.sampled_from(list(Icon))
CARDS = st.builds(
    lambda slots: ArtCard(tuple(tuple(s) for s in slots)),
    st.lists(st.lists(ICONS, max_size=2), min_size=5, max_size=5),
)


def test_rulebook_example_order_decides_which_right_symbol_is_lost() -> None:
    a = "- | - | tone | - | hue"  # centre and right symbols
    b = "- | - | - | - | shape"  # right symbol
    c = "texture | - | - | - | -"  # left symbol
    a_over_b = visible_icons(painting(b, a, c))
    b_over_a = visible_icons(painting(a, b, c))
    assert a_over_b.to_json() == [["texture"], [], ["tone"], [], ["hue"]]
    assert b_over_a.to_json() == [["texture"], [], ["tone"], [], ["shape"]]
    # Card C's symbol and card A's centre symbol are never covered.
    assert a_over_b.source_cards() == (2, None, 1, None, 1)
    assert b_over_a.source_cards() == (2, None, 0, None, 1)


def test_a_one_icon_top_slot_hides_both_icons_below() -> None:
    visible = visible_icons(
        painting("hue shape | - | - | - | -", "-|-|-|-|-", "tone | - | - | - | -")
    )
    assert visible.to_json()[0] == ["tone"]
    assert [(v.icon, v.card, v.slot) for v in visible.in_slot(1)] == [(Icon.TONE, 2, 1)]


def test_an_empty_top_slot_lets_the_slot_below_show_through() -> None:
    visible = visible_icons(
        painting("hue | - | - | - | -", "- | - | - | - | -", "- | tone | - | - | -")
    )
    assert visible.to_json() == [["hue"], ["tone"], [], [], []]
    assert visible.source_cards() == (0, 2, None, None, None)


def test_the_middle_card_covers_the_bottom_but_not_the_top() -> None:
    visible = visible_icons(
        painting(
            "hue | hue | hue | - | -", "shape shape | shape | - | - | -", "texture | - | - | - | -"
        )
    )
    assert visible.to_json() == [["texture"], ["shape"], ["hue"], [], []]
    assert visible.source_cards() == (2, 1, 0, None, None)


def test_same_icon_twice_in_a_slot_stays_twice() -> None:
    visible = visible_icons(
        painting("- | - | - | - | -", "- | - | - | - | -", "shape shape|-|-|-|-")
    )
    assert visible.count(Icon.SHAPE) == 2


@settings(max_examples=150, deadline=None)
@given(CARDS, CARDS, CARDS)
def test_each_slot_shows_exactly_the_topmost_card_with_icons_there(
    bottom: ArtCard, middle: ArtCard, top: ArtCard
) -> None:
    cards = (bottom, middle, top)
    visible = visible_icons(Painting(cards))
    for slot in SLOTS:
        owners = [i for i, c in enumerate(cards) if c.slots[slot - 1]]
        shown = visible.in_slot(slot)
        if not owners:
            assert shown == ()
            continue
        owner = owners[-1]
        assert tuple(v.icon for v in shown) == cards[owner].slots[slot - 1]
        assert all(v.card == owner and v.slot == slot for v in shown)


def test_card_builder_reads_its_own_spec() -> None:
    assert card("hue | - | shape tone | - | bonus-hue").slots == (
        (Icon.HUE,),
        (),
        (Icon.SHAPE, Icon.TONE),
        (),
        (Icon.BONUS_HUE,),
    )
