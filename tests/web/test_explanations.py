"""The explanation for people: each game's score as sections of lines with their points, whether
they scored and the pieces they are about, on the rulebook examples; and on a seat's page in a
real browser at a phone's size, linked both ways to the board picture's marks."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Page, expect

from companion.errors import FieldError
from companion.fields import Field
from companion.games.pigments.model import Chip
from companion.observation import BoardObservation, ComponentRead, GameOptions
from companion.positions import evaluate_document
from companion.samples import random_position
from companion.table.explanations import Line, Section, explanation_lines
from companion.table.overlay import marks
from companion.table.penalties import SeatPenalties
from companion.table.readings import correct, read_board
from companion.table.store import BoardView
from tests.web.test_game_end import CARDS, Table
from tests.web.test_picker import misread
from tests.web.test_scoreboard import PHONE, Server, no_missing_values

EXAMPLES = Path(__file__).parents[2] / "companion" / "content" / "examples"


def explained(example: str, penalties: SeatPenalties | None = None) -> tuple[Section, ...]:
    """An example scored as a table scores it (face down) and explained."""
    document = json.loads((EXAMPLES / f"{example}.json").read_text())
    score = evaluate_document(document, example, face_down=True).data
    return explanation_lines(document["game"], score, penalties)


def outline(sections: tuple[Section, ...]) -> list[tuple[str, int | None, list[Any]]]:
    return [(s.title, s.points, [(line.text, line.points) for line in s.lines]) for s in sections]


def test_color_field_tiles_by_their_colours_and_the_patch_with_its_spaces() -> None:
    sections = explained("colorfield-rulebook")
    assert outline(sections) == [
        (
            "Tiles",
            30,
            [
                ("Space 1 · lemon/coral/navy tile: 2 edges matched", 2),
                ("Space 2 · navy/turquoise/coral tile: all 4 edges matched, perfect", 6),
                ("Space 3 · turquoise/coral/navy tile: all 4 edges matched, perfect", 6),
                ("Space 4 · navy/coral/turquoise tile: 3 edges matched", 5),
                ("Space 5 · turquoise/coral/lemon tile: all 4 edges matched, perfect", 5),
                ("Space 6 · coral/lemon/navy tile: all 4 edges matched, perfect", 6),
            ],
        ),
        ("Largest patch", 5, [("Coral patch of 5: 4 tiles and 1 border segment", 5)]),
    ]
    assert sections[0].lines[0].marks == ("space 1",)
    patch = sections[1].lines[0]
    assert patch.marks == ("space 3", "space 4", "space 5", "space 6") and patch.good


def test_paintings_ribbons_by_scoring_card_with_the_cards_they_came_from() -> None:
    sections = explained("paintings")
    assert [(s.title, s.points) for s in sections] == [
        ("Variety: 1 ribbon", 4),
        ("Repetition: 3 ribbons", 11),
        ("Emphasis: 1 ribbon", 1),
        ("Composition: 3 ribbons", 9),
        ("Silver: 2 ribbons", 4),
    ]
    assert sections[1].lines[0] == Line(
        "Painting 1: shapes in slots 3, 4 (bottom and top cards)",
        None,
        True,
        ("painting 1 card bottom", "painting 1 card top"),
    )
    assert sections[2].lines[0] == Line(
        "Painting 1: 2 hue icons are visible, not exactly 1", None, False
    )
    assert [(line.text, line.good, line.marks) for line in sections[4].lines] == [
        (
            "Painting 1: tone bonus in slot 4 (bottom card): 0 ribbons",
            False,
            ("painting 1 card bottom",),
        ),
        (
            "Painting 2: texture bonus in slot 2 (top card): 0 ribbons",
            False,
            ("painting 2 card top",),
        ),
        (
            "Painting 3: shape bonus in slot 1 (top card): 2 ribbons",
            True,
            ("painting 3 card middle", "painting 3 card top"),
        ),
    ]


def mats(cards: dict[int, tuple[str | None, ...]], problems: tuple[str, ...]) -> BoardObservation:
    """A player's Paintings mats as the scanner merges them: by printed number, each painting's
    cards bottom first with an unread card left out, every place a component."""
    components = tuple(
        ComponentRead(f"painting {n} card {place}", card, 0.99 if card else 0.0)
        for n, placed in cards.items()
        for place, card in zip(("bottom", "middle", "top"), placed, strict=True)
    )
    position = {
        "game": "paintings",
        "paintings": [[{"card": c} for c in placed if c] for placed in cards.values()],
    }
    return BoardObservation(
        "paintings", 1, ("paintings/mat/1",), position, 0.9, problems, components
    )


def test_paintings_marks_name_the_mats_and_places_the_board_has() -> None:
    """The marks and lines number paintings as the position lists them, cards bottom first: a
    board is scored only when every mat up to the last is in view with its three cards, so the
    N-th painting is mat N and a card's index its place."""
    options = GameOptions(scoring_cards=tuple(CARDS), face_down=True)
    unread = mats(
        {1: (None, "A-02", "A-03"), 2: ("A-04", "A-05", "A-06")},
        ("painting 1 card bottom: no card",),
    )
    reading = read_board(unread, 1, options, None)
    assert reading.scored.score is None
    # Two cards make no painting: the missing card cannot be corrected away.
    with pytest.raises(FieldError, match="expected 3 entries, got 2"):
        correct(reading, "painting 1 card bottom", Field(None), options)
    fixed = correct(reading, "painting 1 card bottom", Field("A-01"), options)
    assert fixed.scored.position["paintings"][0] == [{"card": c} for c in ("A-01", "A-02", "A-03")]
    names = {c.component for c in fixed.components}
    assert set(marks("paintings", fixed.scored.score)) == {
        "painting 1 card top",
        "painting 2 card top",
    }
    lines = explanation_lines("paintings", fixed.scored.score)
    assert {m for s in lines for line in s.lines for m in line.marks} <= names
    # A mat missing before the last: never scored, whatever is corrected.
    gap = mats(
        {1: ("A-01", "A-02", "A-03"), 3: (None, "A-08", "A-09")},
        ("painting 2: its mat is not in view", "painting 3 card bottom: no card"),
    )
    corrected = correct(
        read_board(gap, 1, options, None), "painting 3 card bottom", Field("A-07"), options
    )
    assert corrected.scored.score is None
    assert corrected.scored.problems == ("painting 2: its mat is not in view",)


def test_isle_of_colors_each_condition_with_the_cells_that_met_it() -> None:
    sections = explained("isle")
    assert outline(sections)[2:] == [
        ("Brown · caves", 12, [("4 brown cells in a straight line (east-west)", 12)]),
        (
            "Red · town",
            12,
            [
                ("Red group of 2 at distance 4 from the nearest red group", 4),
                ("Red group of 1 at distance 3 from the nearest red group", 4),
                ("Red group of 2 at distance 3 from the nearest red group", 4),
            ],
        ),
    ]
    assert sections[3].lines[0].marks == ("cell (4,1)", "cell (4,2)")
    unmet = {
        "game": "isle",
        "total": 0,
        "colors": {"red": {"condition": "town", "points": 0, "scored": [], "note": "no red group"}},
    }
    assert explanation_lines("isle", unmet) == (
        Section("Red · town", 0, (Line("Not met: no red group", 0, False),)),
    )


def test_pigment_lab_pans_in_words_against_the_cards_face_and_the_penalties() -> None:
    penalties = SeatPenalties(spills=((1, 4),), diagnoses=((2, False), (3, True)))
    sections = explained("pigments-palette", penalties)
    assert outline(sections) == [
        (
            "Pans",
            2,
            [
                ("Small pan · white: pressed", 2),
                ("Medium pan 1: not full, 1 of 3 slots filled", 0),
                ("Medium pan 2: not full, 0 of 3 slots filled", 0),
                ("Large pan · mint: too light, makes sage: nothing happens", 0),
            ],
        ),
        (
            "Penalties",
            -5,
            [
                ("Round 1 Spill Line: 4 chips", -4),
                ("Round 2 Fault diagnosis: wrong", -1),
                ("Round 3 Fault diagnosis: right", 0),
            ],
        ),
    ]
    assert sections[0].lines[3].marks == (
        "large window 1",
        "large window 2",
        "large window 3",
        "large binder 1",
        "large binder 2",
        "shade large",
    )
    # The lines never name a chip: a card's recipe cannot slip into them.
    text = " ".join(line.text for section in sections for line in section.lines)
    assert not [chip for chip in Chip if chip.value in text]


def test_every_pan_verdict_in_words_on_the_lines_and_the_picture() -> None:
    def palette(large: list[str]) -> dict[str, Any]:
        pans = [
            {"pan": "small", "chips": ["TiO2", "TiO2"], "shade": "white"},
            {"pan": "medium", "chips": ["Fe2O3", "FeO(OH)", "binder"], "shade": None},
            {"pan": "medium", "chips": ["Fe2O3", "Fe2O3", "binder"], "shade": "coral"},
            {"pan": "large", "chips": [*large, "binder", "binder"], "shade": "cream"},
        ]
        return evaluate_document({"game": "pigments", "pans": pans}, "test", face_down=True).data

    dark = palette(["FeO(OH)", "FeO(OH)", "TiO2"])
    assert [line.text for line in explanation_lines("pigments", dark)[0].lines] == [
        "Small pan · white: not sound: not enough binder",
        "Medium pan 1: full, no shade card claimed",
        "Medium pan 2 · coral: another recipe, makes coral: nothing happens",
        "Large pan · cream: too dark, makes apricot: nothing happens",
    ]
    assert [mark["text"] for mark in marks("pigments", dark).values()] == [
        "not sound",
        "no shade card",
        "another recipe",
        "too dark",
    ]
    other = palette(["ultramarine", "TiO2", "TiO2"])
    assert explanation_lines("pigments", other)[0].lines[3].text == (
        "Large pan · cream: wrong colour, makes ice: nothing happens"
    )


def test_a_seat_board_carries_its_lines_for_people(tmp_path: Path) -> None:
    table = Table(tmp_path, "pigments")
    palette = json.loads((EXAMPLES / "pigments-palette.json").read_text())
    assert table.scan({1: palette}).status_code == 201
    spill = {"seat": 1, "chips": 2}
    answer = table.client.post(f"/api/tables/{table.id}/spills", json=spill, headers=table.headers)
    assert answer.status_code == 201, answer.json
    board = table.client.get(f"/api/tables/{table.id}/seats/1").json
    assert [(s["title"], s["points"]) for s in board["explanation_lines"]] == [
        ("Pans", 2),
        ("Penalties", -1),
    ]
    assert board["explanation_lines"][1]["lines"] == [
        {"text": "Round 1 Spill Line: 2 chips", "points": -1, "good": False, "marks": []}
    ]
    assert board["total"] == 1
    assert table.client.get(f"/api/tables/{table.id}/seats/2").json["explanation_lines"] == []


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    yield running
    running.close()


def canvas_view() -> BoardView:
    """A plain picture of a canvas, its six spaces in two rows of three."""
    _, jpeg = cv2.imencode(".jpg", np.full((400, 600, 3), 180, np.uint8))
    corners = ((0, 0), (200, 0), (200, 200), (0, 200))
    regions = {
        f"space {3 * row + column + 1}": [[200 * column + x, 200 * row + y] for x, y in corners]
        for row in range(2)
        for column in range(3)
    }
    return BoardView(jpeg.tobytes(), {"width": 600, "height": 400, "regions": regions})


def overlapping(page: Page) -> list[str]:
    """Boxes of the explanation that overlap or spill past the screen's width: the headings and
    lines with each other, and within each the sign, text and points."""
    found: list[str] = page.evaluate(
        """() => {
            const box = (node) => node.getBoundingClientRect();
            const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
            const found = [];
            const check = (nodes, what) => {
                for (let i = 0; i < nodes.length; i++) {
                    if (box(nodes[i]).right > window.innerWidth) found.push(`${what} ${i} spills`);
                    for (let j = i + 1; j < nodes.length; j++)
                        if (hit(box(nodes[i]), box(nodes[j]))) found.push(`${what}: ${i} / ${j}`);
                }
            };
            const rows = [
                ...document.querySelectorAll("#explanation h3, #explanation .explain-line"),
            ];
            check(rows, "rows");
            rows.forEach((row, i) => check([...row.children], `row ${i}`));
            return found;
        }"""
    )
    return found


def test_the_seat_page_explains_the_score_linked_to_the_picture(
    browser: Browser, server: Server
) -> None:
    position = random_position("colorfield", random.Random(11))
    right = position["spaces"][0]
    board = misread("colorfield", position, "space 1", right["tile"], "edge N looks navy")
    table, headers = server.table("colorfield")
    server.show(table, headers, [board], {board.boards: canvas_view()})
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/t/{table}/seat/1?token={headers['X-Table-Token']}")
    expect(page.locator("#board polygon.region")).to_have_count(6)
    expect(page.locator("#explain")).to_be_hidden()  # no score while a piece needs a look

    # A misread piece on the picture opens the picker; corrected, the board scores.
    page.locator('#board [data-component="space 1"]').click()
    expect(page.locator("#fix-title")).to_have_text("Ana's board · space 1")
    for _ in range(right["rotation"]):
        page.locator("#fix-rotate").click()
    page.locator("#fix-save").click()
    lines = page.locator("#explanation .explain-line")
    expect(lines.locator(".text")).to_have_text(
        [
            "Space 1 · turquoise/navy tile: 2 edges matched",
            "Space 2 · turquoise/coral/lemon tile: 1 edge matched",
            "Space 3 · navy/coral tile: no edge matched",
            "Space 4 · navy/lemon/turquoise tile: 1 edge matched",
            "Space 5 · navy/turquoise/lemon/coral tile: 1 edge matched",
            "Space 6 · turquoise/lemon/coral tile: 1 edge matched",
            "Lemon patch of 2: 1 tile and 1 border segment (a patch scores from 3)",
        ]
    )
    expect(lines.locator(".pts")).to_have_text(["+5", "+1", "0", "+2", "+1", "+2", "0"])
    expect(lines.locator(".sign")).to_have_text(["✓", "✓", "✗", "✓", "✓", "✓", "✗"])
    expect(page.locator("#explanation h3")).to_have_text(["Tiles+11", "Largest patch0"])
    expect(page.locator("#total")).to_have_text("11")

    # A line tapped lights its piece on the picture.
    lines.nth(1).click()
    expect(page.locator("#board .region.lit")).to_have_count(1)
    expect(page.locator('#board [data-component="space 2"]')).to_have_class(re.compile(r"\blit\b"))
    expect(lines.nth(1)).to_have_attribute("aria-pressed", "true")
    # A piece tapped lights its lines, scrolled into view: space 5's tile and the patch.
    page.locator('#board [data-component="space 5"]').click()
    expect(page.locator("#explanation .explain-line.lit .text")).to_have_text(
        [re.compile("^Space 5 "), re.compile("^Lemon patch ")]
    )
    expect(lines.nth(4)).to_be_in_viewport()
    expect(lines.nth(1)).to_have_attribute("aria-pressed", "false")
    no_missing_values(page)
    assert overlapping(page) == []
