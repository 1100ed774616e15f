"""Photos overexposed by 1.5 EV: paper at the sensor's limit, pencils and chips mostly not. With
the colour reference card in the frame, cells and chips are read; whatever clipping leaves in
doubt is refused, and a cell clipped to white is never taken for bare paper unless a pencil
would have shown there."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from calibration.colour import ColourCorrection
from companion.colour import linear_to_srgb
from companion.observation import ComponentRead as Read
from companion.samples import random_position
from vision.benchmark import TRUTH
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.colours import WhiteBalance
from vision.scan.readers.isle import ABSORB, CLIPPED, fit_cells
from vision.scan.readers.isle_bright import lightest_shown, unseen_strokes
from vision.scan.readers.isle_features import PENCILS
from vision.scan.scanner import Scanner


@cache
def tools() -> tuple[Renderer, Scanner]:
    scanner = Scanner()
    scanner.prepare()
    return Renderer(), scanner


def scanned(
    game: str, seed: int, calibrated: bool, kelvin: float = 6500.0
) -> tuple[dict[str, Any], dict[str, Read]]:
    """A medium render at ``kelvin`` and +1.5 EV, with or without the card beside the board:
    the truth of its cells or chips, and what the scanner read of each."""
    renderer, scanner = tools()
    position = random_position(game, random.Random(seed))
    document = {"table": [position, {"game": "calibration"}]} if calibrated else position
    options = RenderOptions(seed, Difficulty.MEDIUM, kelvin=kelvin, exposure_ev=1.5)
    image = renderer.render(plan_table(document, game), options).image
    (board,) = scanner.scan(image, game).boards
    truth = {
        name: value
        for name, value in TRUTH[game](position).items()
        if name.startswith("cell ") or " window " in name or " binder " in name
    }
    return truth, {c.component: c for c in board.components if c.component in truth}


@pytest.mark.parametrize("seed", [0, 2])
def test_with_the_card_every_cell_is_read(seed: int) -> None:
    truth, read = scanned("isle", seed, calibrated=True)
    assert {name: (r.value, r.problem) for name, r in read.items()} == {
        name: (value, None) for name, value in truth.items()
    }


def test_with_the_card_every_chip_is_read_but_binder_too_pale_to_tell_from_white() -> None:
    # Overexposed, a binder chip is about as white as TiO2 in the channels it did not clip: the
    # chip model, never fitted on a photo this bright, is unsure between the two and refuses.
    truth, read = scanned("pigments", 3, calibrated=True)
    for name, value in truth.items():
        r = read[name]
        if value == "binder" and r.value is None:
            assert str(r.problem).startswith(f"{name}: unsure (binder ")
            assert str(r.problem).endswith(", or TiO2)")
        else:
            assert (r.value, r.problem) == (value, None)


def test_a_red_cell_clipped_in_red_is_not_read_brown_on_a_grid_lined_up_loosely() -> None:
    # With red clipped, green and blue alone tell red from brown: the sheet's grid lined up
    # from patches agreeing only loosely (0.15 mm off here) read this cell brown.
    truth, read = scanned("isle", 2, calibrated=True, kelvin=4500.0)
    assert (truth["cell (5,2)"], read["cell (5,2)"].value) == ("red", "red")
    assert [name for name, r in read.items() if r.problem is None and r.value != truth[name]] == []


def test_without_the_card_an_isle_sheet_with_no_paper_below_the_limit_is_refused() -> None:
    truth, read = scanned("isle", 0, calibrated=False)
    assert len(read) == len(truth) == 79
    assert {r.problem for r in read.values()} == {
        f"{name}: overexposed (no paper to measure)" for name in truth
    }


def test_a_white_chip_clipped_by_the_light_is_never_read_as_binder() -> None:
    # A binder chip lit a little brighter would clip as white: read TiO2 or refused, never
    # binder (the rule the chip model replaced refused it; the model reads it).
    truth, read = scanned("pigments", 2, calibrated=True)
    assert truth["large window 1"] == "TiO2"
    white = read["large window 1"]
    assert (white.value, white.problem) == ("TiO2", None) or white.value is None
    assert [n for n, r in read.items() if r.problem is None and r.value != truth[n]] == []


def white_of(ring: NDArray[np.uint8], correction: ColourCorrection | None) -> NDArray[np.float32]:
    white = WhiteBalance.white_of(ring, correction)
    assert white is not None
    return white


def test_a_clipped_ring_balances_no_colour_beyond_what_the_card_corrected() -> None:
    # The card's correction halves a warm lamp's red and green: their limit (255) reads 186.
    warm = ColourCorrection(((0.5, 0, 0, 0), (0, 0.5, 0, 0), (0, 0, 1, 0)), 8, 0.0, 0.0)
    ring = np.full((40, 3), 255, np.uint8)
    # Clipped everywhere: no channel is balanced brighter than it reads.
    assert np.allclose(white_of(ring, warm), (255.0, 245.0, 245.0))
    # Blue measured, green and red clipped: the paper is as bright there as in blue.
    ring[:, 0] = 200
    assert float(linear_to_srgb(np.array([0.5]))[0]) < 190
    assert np.allclose(white_of(ring, warm), 200.0, atol=0.01)
    # Without a correction, a clipped channel is taken as white.
    assert np.allclose(white_of(ring, None), (200.0, 255.0, 255.0))


def test_the_lightest_stroke_that_shows_on_clipped_paper() -> None:
    # Paper below the limit in any channel shows every stroke; at 1.6 times the limit in every
    # channel, a stroke shows only where it takes the paper below the limit.
    assert lightest_shown(np.array([[240.0, 300.0, 300.0]], np.float32), ABSORB)[0] == 0.0
    white = np.full((1, 3), 1.6 * 248.0, np.float32)
    needed = (1 - 1 / 1.6) / ABSORB.max(axis=1)
    assert lightest_shown(white, ABSORB)[0] == pytest.approx(needed.max(), abs=1e-5)


def test_a_bare_cell_on_paper_too_bright_for_light_strokes_to_show_is_refused() -> None:
    reads = [Read("cell (0,0)", None, 0.99), Read("cell (0,1)", None, 0.99)]
    white = np.array([[250.0, 250.0, 250.0], [600.0, 600.0, 600.0]], np.float32)
    far = np.array([[0.0, 0.0], [100.0, 0.0]])
    assert unseen_strokes(reads, white, far, ABSORB) == [
        reads[0],
        Read("cell (0,1)", None, 0.0, "cell (0,1): overexposed, light strokes would not show"),
    ]
    # Beside the brighter one, the other cell may be lit as brightly.
    near = np.array([[0.0, 0.0], [20.0, 0.0]])
    assert [r.problem is not None for r in unseen_strokes(reads, white, near, ABSORB)] == [
        True,
        True,
    ]


def test_a_channel_flagged_clipped_is_bounded_by_what_it_reads() -> None:
    # A red cell on paper 1.6 times the limit: its red channel is clipped throughout, and green
    # and blue show the firmer strokes. Two pixels mix clipped light with their neighbours' (as
    # moving the sheet onto its grid does): flagged clipped in green, they read below the limit.
    white = np.full((12, 3), 1.6 * CLIPPED, np.float32)
    pressure = np.linspace(0.5, 1.0, 12, dtype=np.float32)[:, None]
    pixels = np.minimum(white * (1.0 - pressure * ABSORB[PENCILS.index("red")]), CLIPPED)
    clipped = pixels >= CLIPPED
    clipped[[5, 9], 1] = True
    assert (pixels[[5, 9], 1] < 0.8 * CLIPPED).all()
    fit = fit_cells(
        pixels,
        clipped,
        white,
        np.zeros(12, np.intp),
        np.zeros((12, 2), np.float32),
        1,
        np.ones(3, np.float32),
        np.full(12, 1.12, np.float32),
    )
    misfit = dict(zip(PENCILS, fit.misfit[:, 0].tolist(), strict=True))
    assert misfit["red"] < 1e-6
    assert misfit["brown"] > 1e-3
