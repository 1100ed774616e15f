"""Pigment Lab palettes in hard photos: each pan is lined up with its print, chips are read
against the light on their own well, shade cards are known by their face when their marker is
too blurred to read, and whatever lies over a slot or a place is refused, never guessed."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import cv2
import numpy as np
import pytest

from companion.samples import random_position
from vision.benchmark import TRUTH
from vision.draw import draw_layout
from vision.layout.catalogue import layouts
from vision.layout.geometry import Circle
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.colours import WhiteBalance
from vision.scan.context import BoardContext
from vision.scan.readers.pigments import PigmentsReader
from vision.scan.rectify import Rectified
from vision.scan.registration import Sighting
from vision.scan.scanner import Observation, Scanner

PPM = 2.5
CHIPS = {
    "small window 1": "TiO2",
    "medium-1 window 1": "Fe2O3",
    "medium-1 window 2": "FeO(OH)",
    "medium-1 binder 1": "binder",
    "large window 2": "ultramarine",
    "large binder 1": "binder",
}

Scanned = tuple[dict[str, Any], Observation]


@pytest.fixture(scope="module")
def hard() -> Callable[[int], Scanned]:
    """The truth of a seeded random hard render and what the scanner saw in it (each seed
    rendered and scanned once)."""
    renderer, scanner = Renderer(), Scanner()
    scanner.prepare()

    @cache
    def scanned(seed: int) -> Scanned:
        position = random_position("pigments", random.Random(seed))
        options = RenderOptions(seed, Difficulty.HARD)
        rendering = renderer.render(plan_table(position, "x"), options)
        return TRUTH["pigments"](position), scanner.scan(rendering.image, "pigments")

    return scanned


def read(observation: Observation, component: str) -> tuple[object, str | None]:
    (board,) = observation.boards
    (found,) = [c for c in board.components if c.component == component]
    return found.value, found.problem


def palette() -> Layout:
    return next(lay for lay in layouts("pigments") if lay.kind == "palette")


def moved_palette(
    dx: float, dy: float, markers: tuple[int, ...] = (96, 97, 98, 99)
) -> BoardContext:
    """A palette's face with chips in some slots, every pixel moved by (dx, dy) mm from where
    the board's ``markers`` put it, as a registration from far-off markers would rectify it."""
    layout = palette()
    face = draw_layout(layout, PPM)
    for slot, chip in CHIPS.items():
        ring = layout.region(slot).shape
        assert isinstance(ring, Circle)
        r, g, b = INKS[chip]
        centre = (round(ring.cx * PPM), round(ring.cy * PPM))
        cv2.circle(face, centre, round(8.0 * PPM), (b, g, r), -1, cv2.LINE_AA)
    shift = np.array([[1.0, 0.0, dx * PPM], [0.0, 1.0, dy * PPM]])
    size = (face.shape[1], face.shape[0])
    moved = np.asarray(cv2.warpAffine(face, shift, size, borderMode=cv2.BORDER_REPLICATE), np.uint8)
    sighting = Sighting(layout, np.eye(3), markers, 0.0)
    return BoardContext(moved, sighting, Rectified(moved, None, PPM), WhiteBalance(), [], face)


def slots_read(ctx: BoardContext) -> dict[str, tuple[object, str | None]]:
    """What the reader says of every pan slot: (chip, problem)."""
    PigmentsReader().read(ctx)
    return {
        r.component: (r.value, r.problem) for r in ctx.reads if not r.component.startswith("shade")
    }


@pytest.mark.parametrize("dx, dy", [(0.0, 0.0), (4.0, -3.0), (-6.5, 8.0)])
def test_pans_are_lined_up_with_their_print_before_their_chips_are_read(
    dx: float, dy: float
) -> None:
    reads = slots_read(moved_palette(dx, dy))
    assert len(reads) == 13
    assert reads == {slot: (CHIPS.get(slot), None) for slot in reads}


@pytest.mark.parametrize("dx, dy", [(20.0, 0.0), (-25.0, 5.0), (0.0, 30.0), (50.0, 0.0)])
def test_a_palette_far_from_where_its_one_marker_puts_it_is_refused(dx: float, dy: float) -> None:
    # Seen by one marker, a board can be placed far off, beyond what lining up reaches, where a
    # pan's slots would match their neighbours' one pitch away: nothing is read.
    ctx = moved_palette(dx, dy, markers=(97,))
    reads = slots_read(ctx)
    assert len(reads) == 13
    assert reads == {
        slot: (None, f"{slot}: its pan cannot be lined up with the print") for slot in reads
    }
    places = [r for r in ctx.reads if r.component.startswith("shade")]
    assert [(r.value, r.problem) for r in places] == [
        (None, f"{r.component}: the board cannot be lined up with its print") for r in places
    ]
    assert len(places) == 4


def test_chips_in_a_cups_shadow_are_read_against_the_light_on_their_well(
    hard: Callable[[int], Scanned],
) -> None:
    truth, seen = hard(16)
    assert (truth["medium-1 window 1"], truth["medium-1 window 2"]) == ("ultramarine", "FeO(OH)")
    for slot in ("medium-1 window 1", "medium-1 window 2"):
        assert read(seen, slot) == (truth[slot], None)


def test_a_binder_chip_in_deep_shadow_is_not_taken_for_white(
    hard: Callable[[int], Scanned],
) -> None:
    truth, seen = hard(55)
    assert truth["large window 2"] == "binder"
    assert read(seen, "large window 2") == ("binder", None)


def test_an_empty_card_place_under_a_shadow_is_read_empty(hard: Callable[[int], Scanned]) -> None:
    truth, seen = hard(56)
    assert truth["shade medium-1"] is None
    assert read(seen, "shade medium-1") == (None, None)


@pytest.mark.parametrize(
    "seed, places",
    [(84, {"shade medium-1": "soot"}), (99, {"shade small": "shell", "shade medium-1": "ice"})],
)
def test_shade_cards_whose_marker_is_too_blurred_to_read_are_known_by_their_face(
    hard: Callable[[int], Scanned], seed: int, places: dict[str, str]
) -> None:
    truth, seen = hard(seed)
    cards = {str(c.content["shade"]): c for c in layouts("pigments") if c.kind == "shade"}
    decoded = {marker.id for marker in seen.markers}
    for place, shade in places.items():
        assert truth[place] == shade
        assert cards[shade].markers[0].id not in decoded  # no marker to go by
        assert read(seen, place) == (shade, None)


def test_a_cup_over_a_slot_is_refused_not_read_as_a_chip(hard: Callable[[int], Scanned]) -> None:
    # A red cup stands over the large pan's first binder slot, where a white chip lies.
    truth, seen = hard(43)
    assert truth["large binder 1"] == "TiO2"
    assert read(seen, "large binder 1") == (
        None,
        "large binder 1: covered (the well around it is hidden)",
    )
    # The rest of the pan, in plain view, is read.
    assert read(seen, "large window 1") == (truth["large window 1"], None)


@pytest.mark.parametrize("seed", [16, 43, 55, 56, 84, 99])
def test_nothing_is_read_wrong_on_hard_renders(hard: Callable[[int], Scanned], seed: int) -> None:
    truth, seen = hard(seed)
    (board,) = seen.boards
    sure = [c for c in board.components if not c.problem and c.component in truth]
    assert [c.component for c in sure if c.value != truth[c.component]] == []
