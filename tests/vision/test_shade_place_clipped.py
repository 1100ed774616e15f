"""Pixels at the sensor's limit are no evidence of bare board: a pale shade card blown out looks
like paper blown out, so a card place whose middle is mostly clipped is empty only when its
dark printed label shows; else it is refused, never read empty under a card."""

from __future__ import annotations

from functools import cache

from companion.observation import ComponentRead
from vision.benchmark import RenderedBoard, perturbed, render_board
from vision.perturb import FAMILIES
from vision.render.envelope import Difficulty
from vision.render.renderer import Renderer
from vision.scan.scanner import Scanner

BLOWN_OUT = "blown out by the light (at the sensor's limit)"


@cache
def tools() -> tuple[Renderer, Scanner]:
    scanner = Scanner()
    scanner.prepare()
    return Renderer(), scanner


def places(seed: int, family: str | None) -> tuple[RenderedBoard, dict[str, ComponentRead]]:
    renderer, scanner = tools()
    rendered = render_board(renderer, "pigments", Difficulty.HARD, seed)
    image = rendered.rendering.image
    if family is not None:
        image = perturbed(renderer, rendered, FAMILIES[family])[1]
    (board,) = scanner.scan(image, "pigments").boards
    return rendered, {c.component: c for c in board.components if c.component.startswith("shade")}


def test_a_pale_card_blown_out_under_a_cup_is_not_read_as_an_empty_place() -> None:
    # Validation seed 60009 at +1 EV: the sky card under the first medium pan lies half under a
    # white cup, its face clipped to white, its middle 94 % "paper". Its place's outline matched
    # 0.28 (0.48 once the label was printed dark), its label 0.50.
    rendered, read = places(60009, "ev:+1")
    assert rendered.position["pans"][1]["shade"] == "sky"
    place = read["shade medium-1"]
    assert place.value is None and place.problem is not None


def test_an_empty_place_blown_out_is_read_empty_where_its_label_shows() -> None:
    # Validation seeds 60010 and 60011 at +1 EV: the places' middles clipped, their labels in
    # view (the small place of 60010 lies under a hand). With the label printed pale, the first
    # medium place of 60011 was refused as blown out.
    rendered, read = places(60010, "ev:+1")
    assert [pan["shade"] for pan in rendered.position["pans"]] == [None] * 4
    for name in ("shade medium-1", "shade medium-2", "shade large"):
        assert (read[name].value, read[name].problem) == (None, None), name
    rendered, read = places(60011, "ev:+1")
    assert rendered.position["pans"][1]["shade"] is None
    assert (read["shade medium-1"].value, read["shade medium-1"].problem) == (None, None)


def test_a_place_whose_label_is_lost_in_the_paper_s_white_is_refused_as_blown_out() -> None:
    # Train seed 20197 at +1 EV: a palette far off and blurred, its empty places' labels too
    # thin there to stay below the sensor's limit. (With the label printed mid grey, train seed
    # 20032's glare did as much; printed in ink, it shows through.)
    rendered, read = places(20197, "ev:+1")
    assert [pan["shade"] for pan in rendered.position["pans"]] == ["cream", None, "salmon", None]
    for name in ("shade medium-1", "shade large"):
        assert read[name].problem == f"{name}: {BLOWN_OUT}", name
