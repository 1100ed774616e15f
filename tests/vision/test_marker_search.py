"""The scan's marker search: quick searches of the whole frame, then OpenCV's full detector in
pieces around what they find, must give what the full detector gives on the whole frame."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from companion.samples import random_position
from vision.fiducials import ATELIER_DICTIONARY, Marker, MarkerDetector, predefined_dictionary
from vision.images import Image, read_image, to_gray
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.marker_search import MarkerSearch, Piece, _joined
from vision.scan.scanner import Scanner

REAL = Path(__file__).parents[1] / "data/realdata"


def outline_keys(outlines: list[NDArray[np.float64]], least_side: float) -> set[bytes]:
    kept = set()
    for quad in outlines:
        if np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min() >= least_side:
            kept.add(np.round(quad, 3).tobytes())
    return kept


def assert_same_markers(ours: list[Marker], reference: list[Marker]) -> None:
    assert [m.id for m in ours] == [m.id for m in reference]
    for mine, theirs in zip(ours, reference, strict=True):
        assert mine.corners == theirs.corners  # to the bit


def noisy_table(rng: np.random.Generator) -> tuple[Image, list[int]]:
    """A grey 1280x720 photo of markers of many sizes, turned, blurred and grainy; one marker
    runs off the frame's edge, one sits against it, and one has its cells scrambled so that
    it can only be outlined."""
    family = predefined_dictionary(ATELIER_DICTIONARY)
    photo: NDArray[np.float64] = np.full((720, 1280), 190.0)
    ids = [3, 41, 77, 150, 222, 301, 404, 512]
    places = [(60, 60), (300, 200), (640, 360), (1000, 150), (200, 600), (900, 600), (1250, 400)]
    places.append((640, 8))
    for k, (marker_id, (cx, cy)) in enumerate(zip(ids, places, strict=True)):
        side = int(rng.integers(34, 96))
        drawn_marker = family.draw(marker_id, side).astype(np.float64)
        face = np.pad(drawn_marker, side // 4, constant_values=255.0)
        if k == 5:
            cells = face[side // 4 + side // 8 : side // 4 + side - side // 8]
            face[side // 4 + side // 8 : side // 4 + side - side // 8] = cells[::-1]
        h = face.shape[0]
        angle = float(rng.uniform(0, 90))
        turn = cv2.getRotationMatrix2D((h / 2, h / 2), angle, 1.0)
        turn[:, 2] += (cx - h / 2, cy - h / 2)
        mask = cv2.warpAffine(np.ones_like(face), turn, (1280, 720))
        drawn = cv2.warpAffine(face, turn, (1280, 720))
        photo = photo * (1 - mask) + (drawn * 0.7 + 30) * mask
    grainy = np.asarray(cv2.GaussianBlur(photo, (0, 0), 1.2), np.float64)
    grainy += rng.normal(0, 9, photo.shape)
    return np.clip(grainy, 0, 255).astype(np.uint8), ids


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_search_finds_the_markers_and_outlines_a_search_of_the_whole_frame_finds(
    seed: int,
) -> None:
    photo, _ = noisy_table(np.random.default_rng(seed))
    family = predefined_dictionary(ATELIER_DICTIONARY)
    reference, reference_outlines = MarkerDetector(family).detect_with_rejected(photo)
    ours, outlines = MarkerSearch(family).detect_with_rejected(photo)
    assert len(reference) >= 5
    assert_same_markers(ours, reference)
    # Every outline of a size that could be named as a marker, at the very same corners.
    assert outline_keys(reference_outlines, 16.0) <= outline_keys(outlines, 0.0)


@pytest.mark.parametrize("photo", ["singlemarkersoriginal.jpg", "choriginal.jpg"])
def test_on_real_photos_the_search_finds_what_the_full_detector_finds(photo: str) -> None:
    gray = read_image(REAL / photo, grayscale=True)
    family = predefined_dictionary("DICT_6X6_250")
    reference = MarkerDetector(family).detect(gray)
    ours, _ = MarkerSearch(family).detect_with_rejected(gray)
    assert len(reference) >= 6
    assert_same_markers(ours, reference)


class WholeFrame:
    """A stand-in for the scan's search that runs OpenCV's detector on the whole frame."""

    def __init__(self) -> None:
        self.detector = MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY))

    def detect_with_rejected(self, gray: Image, then: Any = None) -> Any:
        return self.detector.detect_with_rejected(gray)


@pytest.fixture(scope="module")
def scanners() -> tuple[Renderer, Scanner, Scanner]:
    reference = Scanner()
    reference.search = WholeFrame()  # type: ignore[assignment]
    return Renderer(), Scanner(), reference


# Hard renders where the quick search and the pieces around what it finds miss a marker the full
# detector finds, and the scan finds it where what was found says it lies: a mat's corner marker
# (its mat placed by two others), a card's marker named by its cells once its mat is named the
# same way, a tile's marker in its canvas space, a sheet's corner marker far from where the one
# marker seen places it, and a card's marker beside another card on a mat never found. And a
# mat whose only marker in view is found.
@pytest.mark.parametrize(
    ("game", "seed", "marker_id", "found_first"),
    [
        ("paintings", 5084, 21, False),
        ("paintings", 5031, 305, False),
        ("colorfield", 5045, 140, False),
        ("isle", 6111, 83, False),
        ("paintings", 6263, 301, False),
        ("paintings", 5364, 21, True),
    ],
)
def test_a_scan_finds_the_markers_a_search_of_the_whole_frame_finds(
    scanners: tuple[Renderer, Scanner, Scanner],
    game: str,
    seed: int,
    marker_id: int,
    found_first: bool,
) -> None:
    renderer, scanner, reference = scanners
    position = random_position(game, random.Random(seed))
    image = renderer.render(
        plan_table(position, f"random {game}"), RenderOptions(seed, Difficulty.HARD)
    ).image
    first, _ = scanner.search.detect_with_rejected(to_gray(image))
    assert (marker_id in {m.id for m in first}) == found_first
    ours = list(scanner.scan(image, game).markers)
    assert marker_id in {m.id for m in ours}
    assert_same_markers(ours, list(reference.scan(image, game).markers))


def test_pieces_that_overlap_are_searched_as_one_where_that_is_no_larger() -> None:
    a, b = Piece(0, 0, 100, 100), Piece(50, 0, 150, 100)
    assert _joined([a, b]) == [Piece(0, 0, 150, 100)]
    # Two pieces touching at a corner would make one far larger than both: kept apart.
    c = Piece(90, 90, 190, 190)
    assert _joined([a, c]) == [a, c]
    # A piece joined may then reach another.
    assert _joined([a, Piece(200, 0, 300, 100), Piece(100, 0, 200, 100)]) == [Piece(0, 0, 300, 100)]
