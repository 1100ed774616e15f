"""Color Field tiles and Paintings cards on hard photos: shadows, tiles lying over their
neighbours, markers too blurred to decode, boards seen by one marker, white cards under bright
light. Each case read right where the photo allows it, and refused where it does not."""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from companion.observation import BoardObservation, ComponentRead
from companion.samples import random_position
from vision.benchmark import TRUTH, hidden_components
from vision.draw import draw_layout
from vision.fiducials import ATELIER_DICTIONARY, Marker, MarkerDetector, predefined_dictionary
from vision.images import Image
from vision.layout.catalogue import layouts
from vision.layout.geometry import bounds
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.readers.colorfield import EdgeLook, EdgePaints
from vision.scan.readers.second_look import UNPLACED
from vision.scan.refine import refine, uncertainty_mm
from vision.scan.registration import Sighting
from vision.scan.scanner import Scanner


def full_search(image: Image) -> list[Marker]:
    """The markers OpenCV's detector decodes searching the whole photo."""
    return MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY)).detect(image)


@dataclass(frozen=True)
class Scan:
    board: BoardObservation
    truth: dict[str, object]
    hidden: frozenset[str]
    decoded: frozenset[str]  # the pieces whose markers the detector decoded on its own

    def read(self, component: str) -> ComponentRead:
        (found,) = [c for c in self.board.components if c.component == component]
        return found


@pytest.fixture(scope="module")
def tools() -> tuple[Renderer, Scanner]:
    return Renderer(), Scanner()


def hard_scan(tools: tuple[Renderer, Scanner], game: str, seed: int) -> Scan:
    renderer, scanner = tools
    position = random_position(game, random.Random(seed))
    rendering = renderer.render(
        plan_table(position, f"random {game}"), RenderOptions(seed, Difficulty.HARD)
    )
    observation = scanner.scan(rendering.image, game)
    decoded = frozenset(
        scanner.index[m.id].layout.key.rsplit("/", 1)[1]
        for m in full_search(rendering.image)
        if m.id in scanner.index
    )
    return Scan(
        observation.boards[0],
        TRUTH[game](position),
        hidden_components(rendering.truth, game),
        decoded,
    )


def assert_nothing_misread(scan: Scan) -> None:
    for read in scan.board.components:
        if not read.problem:
            value = read.value
            if isinstance(value, dict):
                value = {"tile": value["tile"], "rotation": value["rotation"]}
            assert value == scan.truth[read.component], read.component


@pytest.mark.parametrize(
    "game, seed, places",
    [
        ("paintings", 8857, ("painting 1 card middle", "painting 1 card top")),
        ("colorfield", 8032, ("space 3", "space 6")),
    ],
)
def test_a_place_too_unsure_to_look_at_says_so_rather_than_that_it_holds_nothing(
    tools: tuple[Renderer, Scanner], game: str, seed: int, places: tuple[str, ...]
) -> None:
    # The board is seen by too few of its markers to tell these places from the next ones, and
    # no piece's marker is decoded on them (a hand or a cup lies over them).
    scan = hard_scan(tools, game, seed)
    for place in places:
        assert place in scan.hidden
        assert scan.read(place).problem == f"{place}: {UNPLACED}"
    assert_nothing_misread(scan)


def test_a_card_whose_marker_is_too_blurred_to_decode_is_named_by_its_cells(
    tools: tuple[Renderer, Scanner],
) -> None:
    scan = hard_scan(tools, "paintings", 11)
    top = scan.read("painting 3 card top")
    assert "A-40" not in scan.decoded
    # The detector outlines the marker: its cells, compared with every card's code, name it.
    assert (top.value, top.problem) == ("A-40", None)
    assert top.confidence > 0.5
    assert scan.board.problems == ()
    assert_nothing_misread(scan)


def test_cards_under_a_hand_and_a_cup_are_refused_and_a_board_seen_by_one_marker_places_its_card(
    tools: tuple[Renderer, Scanner],
) -> None:
    scan = hard_scan(tools, "paintings", 36)
    # One corner marker of the mat is seen; its other three lie under the hand and the cup.
    assert scan.read("painting 1 card middle").value == "A-33"
    for place in ("painting 1 card bottom", "painting 1 card top"):
        assert place in scan.hidden
        assert scan.read(place).problem == f"{place}: no card"
    assert_nothing_misread(scan)


def test_white_cards_under_bright_light_do_not_make_a_mat_overexposed(
    tools: tuple[Renderer, Scanner],
) -> None:
    scan = hard_scan(tools, "paintings", 17)
    assert not any("overexposed" in p for p in scan.board.problems)
    assert scan.read("painting 2 card middle").value == "A-35"
    assert {p.split(": ")[0] for p in scan.board.problems} <= scan.hidden
    assert_nothing_misread(scan)


def test_tiles_whose_markers_are_too_blurred_to_decode_are_named_by_their_cells(
    tools: tuple[Renderer, Scanner],
) -> None:
    scan = hard_scan(tools, "colorfield", 70)
    assert {"F-38", "R2-18", "R1-10", "F-18"}.isdisjoint(scan.decoded)
    assert scan.board.problems == ()
    assert_nothing_misread(scan)


@pytest.mark.parametrize(
    ("seed", "space", "tile"),
    [
        (31, "space 1", "R1-13"),  # in the shadow of a hand
        (76, "space 2", "R1-02"),  # its east edge under the next tile
        # In the light, while the board's corner marker nearest it lies in a cup's shadow.
        (5026, "space 2", "R1-18"),
        # A small board 80 cm away, blurred: its navy edge shows lit and softened at once.
        (6157, "space 1", "R1-10"),
    ],
)
def test_tile_edges_in_shadow_or_under_a_neighbour_still_bear_out_the_marker(
    tools: tuple[Renderer, Scanner], seed: int, space: str, tile: str
) -> None:
    scan = hard_scan(tools, "colorfield", seed)
    read = scan.read(space)
    assert read.problem is None and isinstance(read.value, dict) and read.value["tile"] == tile
    assert {p.split(": ")[0] for p in scan.board.problems} <= scan.hidden
    assert_nothing_misread(scan)


PPM = 2.5


def flat_canvas(edge_ink: str | None) -> tuple[Image, Layout, Layout]:
    """Canvas board 1 flat and sharp, one tile on space 2; ``edge_ink`` repaints the band of
    the tile's east edge."""
    found = layouts("colorfield")
    board, tile = found[0], [lay for lay in found if lay.kind == "tile"][9]
    face = draw_layout(board, PPM).copy()
    drawn = draw_layout(tile, PPM).copy()
    if edge_ink is not None:
        r, g, b = INKS[edge_ink]
        size = drawn.shape[1]
        cv2.rectangle(drawn, (size - 15, 30), (size - 2, size - 30), (b, g, r), -1)
    region = bounds(board.region("space 2").shape)
    y, x = round(region.y * PPM), round(region.x * PPM)
    face[y : y + drawn.shape[0], x : x + drawn.shape[1]] = drawn
    frame = np.full((1080, 1920, 3), (90, 110, 130), np.uint8)
    frame[200 : 200 + face.shape[0], 500 : 500 + face.shape[1]] = face
    return frame, board, tile


def test_a_tile_edge_of_the_wrong_paint_is_refused() -> None:
    frame, _, tile = flat_canvas(None)
    printed = tile.region("edge E").info["color"]
    other = next(p for p in ("lemon", "coral", "navy", "turquoise") if p != printed)
    (seen,) = Scanner().scan(flat_canvas(other)[0]).boards
    tile_id = tile.content["tile"]
    assert f"space 2: tile {tile_id} edge E should be {printed} but looks {other}" in seen.problems
    (clean,) = Scanner().scan(frame).boards
    assert not any(p.startswith("space 2:") for p in clean.problems)


def bgr(rgb: tuple[int, int, int], light: float = 1.0) -> np.ndarray:
    linear = (np.array(rgb[::-1], np.float64) / 255.0) ** 2.2 * light
    return np.full((50, 3), np.clip(linear ** (1 / 2.2) * 255, 0, 255), np.float32)


def softened(name: str, light: float, white: float) -> np.ndarray:
    """Patches of a paint in ``light``, blurred ``white`` of the way into the ring's white."""

    def linear(rgb: tuple[int, int, int]) -> np.ndarray:
        return (np.array(rgb[::-1], np.float64) / 255.0) ** 2.2

    mixed = (1 - white) * light * linear(INKS[name]) + white * linear((245, 245, 245))
    return np.full((50, 3), np.clip(mixed ** (1 / 2.2) * 255, 0, 255), np.float32)


def test_edge_paints_are_named_in_shade_and_nothing_else_is() -> None:
    paints = EdgePaints()
    inks = ("lemon", "coral", "navy", "turquoise")
    for light in (1.0, 0.4, 1.4):
        looks = paints.looks([bgr(INKS[name], light=light) for name in inks])
        assert looks == [EdgeLook(name, name) for name in inks]
    skin, grey = bgr((200, 150, 120)), bgr((128, 128, 128))
    nothing = EdgeLook(None, None)
    assert paints.looks([skin, grey, np.zeros((0, 3), np.float32)]) == [nothing] * 3


def test_edge_paints_in_shade_and_blurred_at_once_only_bear_a_tile_out() -> None:
    # Lemon and coral darkened and softened towards the ring: near their own looks only when
    # light and blur act together, which may only confirm a tile's edge.
    looks = EdgePaints().looks([softened("lemon", 0.5, 0.1), softened("coral", 0.5, 0.1)])
    assert looks == [EdgeLook(None, "lemon"), EdgeLook(None, "coral")]


def _board_seen_by_one_marker() -> tuple[Sighting, list[Sighting], np.ndarray]:
    """A canvas seen in steep perspective by one corner marker, with tiles on it: the sightings
    (homographies fitted to corners found as a blurred photo gives them: a little inside the
    marker, and noisy) and the true homography."""
    found = layouts("colorfield")
    board, tiles = found[0], [lay for lay in found if lay.kind == "tile"][:4]
    truth = np.array([[2.2, 0.4, 600.0], [-0.3, 1.6, 300.0], [0.0006, 0.0022, 1.0]])
    rng = np.random.default_rng(3)

    def to_image(points: np.ndarray) -> np.ndarray:
        px = np.asarray(cv2.perspectiveTransform(points.reshape(-1, 1, 2), truth)).reshape(-1, 2)
        inward = px.mean(axis=0) - px
        inward /= np.linalg.norm(inward, axis=1, keepdims=True)
        return np.asarray(px + 0.8 * inward + rng.normal(0.0, 0.3, px.shape), np.float64)

    def fit(layout: Layout, mm: np.ndarray, px: np.ndarray, ids: tuple[int, ...]) -> Sighting:
        h, _ = cv2.findHomography(mm, px, 0)
        return Sighting(layout, np.asarray(h, np.float64), ids, 0.0)

    marker = board.markers[0]
    corners = np.array(marker.rect.corners(), np.float64)
    seen = fit(board, corners, to_image(corners), (marker.id,))
    pieces = []
    for number, tile in enumerate(tiles, 2):
        place = bounds(board.region(f"space {number}").shape)
        own = np.array(tile.markers[0].rect.corners(), np.float64)
        pieces.append(
            fit(tile, own, to_image(own + np.array([place.x, place.y])), (tile.markers[0].id,))
        )
    return seen, pieces, truth


def test_a_board_seen_by_one_marker_is_refitted_with_the_pieces_on_it() -> None:
    seen, pieces, truth = _board_seen_by_one_marker()
    far = np.array([[170.0, 140.0]])  # the board corner furthest from the marker seen

    def error_mm(sighting: Sighting) -> float:
        px = sighting.to_image(far)
        back = cv2.perspectiveTransform(px.reshape(-1, 1, 2), np.linalg.inv(truth))
        return float(np.linalg.norm(back.reshape(2) - far[0]))

    refined = refine(seen, pieces)
    assert error_mm(seen) > 20.0
    assert error_mm(refined) < 4.0
    assert refined.marker_ids == seen.marker_ids and refined.covariance is not None
    # Without pieces the fit stays, and it says how little it knows of the far corner.
    alone = refine(seen, [])
    assert np.allclose(alone.homography, seen.homography)
    assert uncertainty_mm(alone, (170.0, 140.0)) > 5 * uncertainty_mm(refined, (170.0, 140.0))
    assert uncertainty_mm(seen, (170.0, 140.0)) == 0.0  # not worked out


def art_row_scene(cover_mm: float) -> Image:
    """The Art Row flat and sharp with two cards, A-05 on row 0 and A-10 on row 2, each
    marker's left border streaked pale so that the decoder cannot close its outline; a disc of
    skin ``cover_mm`` wide lies over the middle of A-05's marker's right edge."""
    (board,) = [lay for lay in layouts("paintings") if lay.kind == "art-row"]
    cards = {lay.content["card"]: lay for lay in layouts("paintings") if lay.kind == "art-card"}
    face = draw_layout(board, PPM).copy()
    for card, place in (("A-05", "row 0"), ("A-10", "row 2")):
        drawn = draw_layout(cards[card], PPM).copy()
        marker = cards[card].markers[0].rect
        for row in range(0, 8, 2):
            y = round((marker.y + 1.5 + 3 * row) * PPM)
            x0, x1 = round(marker.x * PPM) - 2, round((marker.x + 3) * PPM) + 1
            cv2.line(drawn, (x0, y), (x1, y), (180, 180, 180), 2)
        if card == "A-05" and cover_mm:
            edge = (round((marker.x + marker.w) * PPM), round((marker.y + marker.h / 2) * PPM))
            cv2.circle(drawn, edge, round(cover_mm / 2 * PPM), (120, 160, 215), -1)
        box = bounds(board.region(place).shape)
        y, x = round(box.y * PPM), round(box.x * PPM)
        face[y : y + drawn.shape[0], x : x + drawn.shape[1]] = drawn
    frame = np.full((1080, 1920, 3), (90, 110, 130), np.uint8)
    frame[200 : 200 + face.shape[0], 300 : 300 + face.shape[1]] = face
    return frame


def test_the_art_row_names_cards_the_decoder_cannot_read_but_not_one_half_covered() -> None:
    scanner = Scanner()
    observation = scanner.scan(art_row_scene(cover_mm=0.0))
    assert not [m for m in observation.markers if scanner.index[m.id].layout.kind == "art-card"]
    (row,) = [b for b in observation.boards if b.kind == "shared"]
    assert row.position["art_row"] == ["A-05", None, "A-10", None, None]
    assert row.problems == ()
    (row,) = [b for b in scanner.scan(art_row_scene(cover_mm=26.0)).boards if b.kind == "shared"]
    assert row.position["art_row"] == [None, None, "A-10", None, None]
    assert row.problems == ("row 0: covered, or a card whose marker cannot be read",)
