"""Paintings mats in hard photos, where markers are too blurred to decode or hidden: a marker is
named by its cells where the detector outlined it, a mat seen by one marker is placed by the mats
beside it on the same table, a card is named by a second look at its cells, and a painting whose
mat is never found is reported, never dropped."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from companion.observation import BoardObservation
from companion.samples import random_position
from vision.benchmark import TRUTH, hidden_components
from vision.draw import draw_layout
from vision.fiducials import ATELIER_DICTIONARY, Marker, MarkerDetector, predefined_dictionary
from vision.images import Image
from vision.layout.boards import painting_mat
from vision.layout.catalogue import layouts, marker_index
from vision.layout.model import Layout
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.readers.common import CERTAIN
from vision.scan.readers.second_look import Codes, Match, Rescue
from vision.scan.refine import refine, uncertainty_mm
from vision.scan.registration import Sighting
from vision.scan.scanner import RESCUED_KINDS, Scanner


def full_search(image: Image) -> list[Marker]:
    """The markers OpenCV's detector decodes searching the whole photo."""
    return MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY)).detect(image)


Scanned = tuple[BoardObservation, frozenset[str], frozenset[int]]
Hard = Callable[[int], Scanned]


@pytest.fixture(scope="module")
def hard() -> Hard:
    """A seeded random hard Paintings render scanned, every component it reads without a
    problem checked against the truth: the observation, the components the truth says are
    partly hidden, and the marker ids the detector decodes on its own."""
    renderer, scanner = Renderer(), Scanner()
    scanner.prepare()

    @cache
    def scanned(seed: int) -> Scanned:
        position = random_position("paintings", random.Random(seed))
        rendering = renderer.render(plan_table(position, "x"), RenderOptions(seed, Difficulty.HARD))
        observation = scanner.scan(rendering.image, "paintings")
        truth = TRUTH["paintings"](position)
        (board,) = observation.boards
        for read in board.components:
            if not read.problem:
                assert read.value == truth[read.component], read.component
        decoded = frozenset(m.id for m in full_search(rendering.image))
        return board, hidden_components(rendering.truth, "paintings"), decoded

    return scanned


def values(board: BoardObservation) -> dict[str, object]:
    return {c.component: c.value for c in board.components if not c.problem}


def marker_of(card: str) -> int:
    (marker,) = next(lay for lay in layouts("paintings") if lay.content.get("card") == card).markers
    return marker.id


def test_a_mat_none_of_whose_markers_decode_is_found_by_their_outlines(hard: Hard) -> None:
    board, _, decoded = hard(5031)
    # Mat 1's top-left marker lies under the hand; the detector decodes none of the other three,
    # nor the markers of the cards in its middle and top places.
    assert decoded.isdisjoint({16, 17, 18, 19, 305, 343})
    assert board.boards == ("paintings/mat/1", "paintings/mat/2")
    assert [card["card"] for card in board.position["paintings"][0]] == ["A-23", "A-16", "A-54"]
    assert board.problems == ()


def test_a_mat_seen_by_one_marker_is_placed_by_the_mat_beside_it(hard: Hard) -> None:
    board, hidden, decoded = hard(5142)
    # One corner marker of mat 1 is found, and one of its cards: not enough on their own to
    # tell which place the card lies on; mat 2, fixed by three markers, shows the table's plane.
    assert {16, 17, 18, 19} & decoded == {19}
    assert values(board)["painting 1 card middle"] == "A-14"
    assert board.problems == ("painting 1 card bottom: no card",)
    assert "painting 1 card bottom" in hidden


def test_cards_too_blurred_for_the_decoder_are_named_by_a_second_look(hard: Hard) -> None:
    board, _, decoded = hard(5037)
    cards = {read.component: read for read in board.components}
    # Named by the cells where the board puts the card: as sure as they match the code...
    for place, card, marker in (
        ("painting 1 card middle", "A-47", 336),
        ("painting 2 card bottom", "A-38", 327),
        ("painting 2 card top", "A-28", 317),
    ):
        read = cards[place]
        assert marker not in decoded
        assert (read.value, read.problem) == (card, None)
        assert 0.65 <= read.confidence < CERTAIN
    # ...or by the cells in the outline the detector found but could not decode.
    assert 340 not in decoded
    assert cards["painting 1 card bottom"].value == "A-51"
    assert board.problems == ()


@pytest.mark.parametrize(
    "seed, place, card",
    [(5251, "painting 3 card top", "A-20"), (8188, "painting 1 card bottom", "A-15")],
)
def test_a_card_whose_marker_is_blurred_to_cells_of_3_px_is_named(
    hard: Hard, seed: int, place: str, card: str
) -> None:
    # The card lies in plain view; its marker's cells are 3.4-3.9 px, blurred: the right code
    # correlates about 0.69-0.76 with them, and leads the next by 0.24-0.25.
    board, hidden, decoded = hard(seed)
    assert place not in hidden
    assert marker_of(card) not in decoded
    assert values(board)[place] == card
    assert board.problems == ()


def test_a_painting_whose_mat_is_not_found_is_reported_not_dropped(hard: Hard) -> None:
    board, hidden, _ = hard(81)
    # Mat 1 is too blurred to find at all; mats 2 and 3 are read.
    assert board.boards == ("paintings/mat/2", "paintings/mat/3")
    assert board.problems == ("painting 1: its mat is not in view",)
    assert len(board.position["paintings"]) == 2
    assert "painting 1" not in hidden


def blurred_marker(marker_id: int, cover: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A grey photo of one marker 40 px across with a thin white ring, blurred and noisy past
    what the decoder reads; and its outline (clockwise from its top-left). ``cover`` lays a
    dark disc over half of it."""
    drawn = predefined_dictionary(ATELIER_DICTIONARY).draw(marker_id, 40)
    photo = np.full((120, 120), 110, np.uint8)
    photo[37:83, 37:83] = 235
    photo[40:80, 40:80] = np.where(drawn > 127, 235, 25)
    if cover:
        cv2.circle(photo, (80, 60), 22, 90, -1)
    blurred = cv2.GaussianBlur(photo, (0, 0), 3.0)
    noise = np.random.default_rng(marker_id).normal(0.0, 6.0, photo.shape)
    seen = np.clip(blurred + noise, 0, 255).astype(np.uint8)
    outline = np.array([[40, 40], [80, 40], [80, 80], [40, 80]], np.float64) - 0.5
    return seen, outline


def test_a_marker_the_detector_outlines_but_cannot_decode_is_named_by_its_cells() -> None:
    detector = MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY))
    rescue = Rescue(RESCUED_KINDS)
    photo, outline = blurred_marker(17)
    for turns in range(4):
        # The photo turned a quarter anticlockwise at a time, and the outline with it.
        turned = np.ascontiguousarray(np.rot90(photo, turns))
        corners = outline.copy()
        for _ in range(turns):
            corners = np.stack([corners[:, 1], 119.0 - corners[:, 0]], axis=1)
        markers, outlines = detector.detect_with_rejected(turned)
        assert markers == []
        (found,) = rescue.markers(turned, outlines, decoded=set())
        assert found.id == 17
        # Heavy blur pulls the corners found a little inwards.
        assert np.abs(np.array(found.corners) - corners).max() < 3.0
        assert rescue.markers(turned, outlines, decoded={17}) == []


def test_outlines_that_name_no_marker_clearly_are_refused() -> None:
    rescue = Rescue(RESCUED_KINDS)
    half, outline = blurred_marker(17, cover=True)
    tile = next(i for i, o in marker_index().items() if o.layout.kind == "tile")
    other, _ = blurred_marker(tile)
    blank = np.full((120, 120), 200, np.uint8)
    for photo in (half, other, blank):
        assert rescue.markers(photo, [outline], decoded=set()) == []
    # One id in two places cannot both be the printed marker.
    photo, _ = blurred_marker(17)
    twice = np.hstack([photo, photo])
    moved = outline + np.array([120.0, 0.0])
    assert [m.id for m in rescue.markers(twice, [outline], decoded=set())] == [17]
    assert rescue.markers(twice, [outline, moved], decoded=set()) == []


def test_a_code_is_taken_only_when_its_score_and_lead_are_both_clear() -> None:
    codes = Codes.printed_on(lambda layout: layout.kind == "art-card")
    candidate = codes.candidates[0]
    quad = np.zeros((4, 2))

    def clear(score: float, margin: float) -> bool:
        return Match(candidate, quad, score, margin, candidate.code, np.zeros(28, np.float32)).clear

    # Small markers in plain view, blurred to cells of 3 px, are named...
    assert clear(0.69, 0.25) and clear(0.76, 0.2)
    # ...while a wrong code that leads as far scores less, or leads less at that score.
    assert not clear(0.64, 0.3)
    assert not clear(0.8, 0.19)
    assert not clear(0.67, 0.22)


def _seen_by_one_marker(layout: Layout, truth: np.ndarray) -> Sighting:
    """A board seen by its first marker through the homography ``truth`` (board mm to px), the
    corners found a little inside the marker, as blur leaves them."""
    marker = layout.markers[0]
    mm = np.array(marker.rect.corners(), np.float64)
    px = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), truth).reshape(-1, 2)
    inward = px.mean(axis=0) - px
    px += 0.8 * inward / np.linalg.norm(inward, axis=1, keepdims=True)
    h, _ = cv2.findHomography(mm, px, 0)
    return Sighting(layout, np.asarray(h, np.float64), (marker.id,), 0.0)


def test_a_board_seen_by_one_marker_is_refitted_with_the_boards_beside_it() -> None:
    mat, beside = painting_mat(1, 1), painting_mat(1, 2)
    truth = np.array([[2.0, 0.3, 500.0], [-0.2, 1.5, 250.0], [0.0005, 0.0025, 1.0]])
    seen = _seen_by_one_marker(mat, truth)
    # The second mat lies 120 mm further down the table, turned 3 degrees, seen by its four
    # markers.
    turn = np.radians(3.0)
    place = np.array(
        [[np.cos(turn), -np.sin(turn), 4.0], [np.sin(turn), np.cos(turn), 120.0], [0, 0, 1]]
    )
    ids = tuple(m.id for m in beside.markers)
    flat = Sighting(beside, truth @ place, ids, 0.5)
    far = (250.0, 90.0)

    def error_mm(sighting: Sighting) -> float:
        px = sighting.to_image(np.array([far]))
        back = cv2.perspectiveTransform(px.reshape(-1, 1, 2), np.linalg.inv(truth))
        return float(np.linalg.norm(back.reshape(2) - far))

    refined = refine(seen, [], [flat, seen])
    assert error_mm(seen) > 20.0
    assert error_mm(refined) < 0.5
    # What is left is the turn the one marker gives, known to a few millimetres there.
    assert uncertainty_mm(refined, far) < 6.0
    assert refined.marker_ids == seen.marker_ids
    # A board seen by two markers, or whose markers disagree, does not fix the plane.
    alone = refine(seen, [])
    assert uncertainty_mm(alone, far) > 100.0
    for other in (replace(flat, marker_ids=ids[:2]), replace(flat, error_px=3.5)):
        assert np.allclose(refine(seen, [], [other]).homography, alone.homography)


def test_undecoded_outlines_are_named_only_where_paintings_may_lie() -> None:
    scanner = Scanner()
    blurred, _ = blurred_marker(17)
    sheet = next(i for i, o in marker_index().items() if o.layout.game == "isle")
    clear = np.full((120, 120), 235, np.uint8)
    clear[30:90, 30:90] = predefined_dictionary(ATELIER_DICTIONARY).draw(sheet, 60)
    alone = cv2.cvtColor(blurred, cv2.COLOR_GRAY2BGR)
    beside_isle = cv2.cvtColor(np.hstack([blurred, clear]), cv2.COLOR_GRAY2BGR)

    def seen(image: np.ndarray, game: str | None) -> list[int]:
        return sorted(m.id for m in scanner.scan(image, game).markers)

    assert seen(alone, "paintings") == [17]
    assert seen(alone, None) == [17]
    assert seen(alone, "isle") == []
    # A table holds one game: beside a decoded Isle marker, no Paintings marker is looked for.
    assert seen(beside_isle, None) == [sheet]


def test_icons_of_a_mat_never_found_keep_the_players_paintings_from_being_scored(
    hard: Hard,
) -> None:
    board, _, decoded = hard(6018)
    # Mat 2 lies between a hand and a cup, blurred: neither its markers nor its cards' decode,
    # but its cards' icons show beside the cup.
    assert decoded.isdisjoint({20, 21, 22, 23})
    assert board.boards == ("paintings/mat/1",)
    (problem,) = board.problems
    assert problem.startswith("table: 7 art card icons lie on no board found")


PPM = 3.0
STRAY = "table: {n} art card icons lie on no board found"


def _paste(frame: np.ndarray, face: np.ndarray, at: tuple[int, int]) -> None:
    x, y = at
    frame[y : y + face.shape[0], x : x + face.shape[1]] = face


def _art_card() -> Layout:
    return next(lay for lay in layouts("paintings") if lay.kind == "art-card")


def _table(loose_card: str | None) -> np.ndarray:
    """Mat 1 of seat 1 flat on a wooden table, with nothing on it; ``loose_card``: "hidden" or
    "seen" lays an art card beside it, its marker covered or not."""
    frame = np.full((1080, 1920, 3), (60, 110, 160), np.uint8)
    _paste(frame, draw_layout(painting_mat(1, 1), PPM), (200, 300))
    if loose_card is not None:
        card = _art_card()
        face = draw_layout(card, PPM).copy()
        if loose_card == "hidden":
            quiet = card.markers[0].quiet
            x0, y0 = round(quiet.x * PPM), round(quiet.y * PPM)
            x1, y1 = round((quiet.x + quiet.w) * PPM), round((quiet.y + quiet.h) * PPM)
            face[y0:y1, x0:x1] = (120, 150, 200)  # a hand over its marker
        _paste(frame, face, (1300, 400))
    return frame


@pytest.mark.parametrize("loose_card", ["hidden", "seen"])
def test_a_card_lying_on_no_board_found_keeps_the_paintings_from_being_scored(
    loose_card: str,
) -> None:
    scanner = Scanner()
    (alone,) = scanner.scan(_table(None), "paintings").boards
    assert not any(p.startswith("table:") for p in alone.problems)
    (beside,) = scanner.scan(_table(loose_card), "paintings").boards
    (stray,) = [p for p in beside.problems if p.startswith("table:")]
    card = _art_card()
    icons = sum(len(slot) for slot in card.content["slots"])
    assert stray.startswith(STRAY.format(n=icons))
