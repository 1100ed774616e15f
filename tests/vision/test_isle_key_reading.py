"""The Isle reader learns the players' pencils from the sheet's key."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from companion.observation import ComponentRead as Read
from vision.scan.readers.isle import (
    ABSORB,
    NEIGHBOURS,
    CellFit,
    fit_cells,
    tried_instead,
    unknown_neighbour,
)
from vision.scan.readers.isle_features import PENCILS
from vision.scan.readers.isle_key import (
    FIRM_PRESSURE,
    PencilKey,
    better_rows,
    pencils_from_cells,
    read_key,
    stroke_absorption,
)

WHITE = np.array([232.0, 238.0, 240.0], np.float32)  # B G R: paper under a warm lamp


def _hatched(
    absorb: np.ndarray, n: int, rng: np.random.Generator, inked: float = 0.6, noise: float = 2.0
) -> np.ndarray:
    """``n`` pixels of a cell hatched with a pencil absorbing ``absorb`` per channel: strokes
    pressed 0.55-0.9 over ``inked`` of them, paper between, sensor noise on all."""
    pressure = np.where(rng.random(n) < inked, rng.uniform(0.55, 0.9, n), 0.0)
    pixels = WHITE * (1.0 - pressure[:, None] * absorb[None, :])
    return np.asarray(pixels + rng.normal(0.0, noise, pixels.shape), np.float32)


def _angle_deg(a: np.ndarray, b: np.ndarray) -> float:
    cos = float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))
    return float(np.degrees(np.arccos(min(1.0, cos))))


def _turned(a: np.ndarray, b: np.ndarray, share: float) -> np.ndarray:
    """An absorption ``share`` of the way from ``a``'s direction to ``b``'s, as strong as ``a``."""
    mixed = (1.0 - share) * a / np.linalg.norm(a) + share * b / np.linalg.norm(b)
    return np.asarray(mixed / np.linalg.norm(mixed) * np.linalg.norm(a), np.float32)


@pytest.mark.parametrize("pencil", PENCILS)
def test_a_hatched_key_gives_its_pencils_hue_and_strength(pencil: str) -> None:
    rng = np.random.default_rng(3)
    absorb = ABSORB[PENCILS.index(pencil)]
    learned = stroke_absorption(_hatched(absorb, 600, rng), np.tile(WHITE, (600, 1)))
    assert learned is not None
    assert _angle_deg(learned, absorb) < 2.0
    # The 90th percentile of 0.55-0.9 pressures over 60 % of pixels is about 0.86: read as a
    # stroke pressed FIRM_PRESSURE hard, the strength comes out that much over the pencil's.
    assert np.linalg.norm(learned) / np.linalg.norm(absorb) == pytest.approx(
        0.86 / FIRM_PRESSURE, rel=0.06
    )


def test_a_key_of_two_colours_or_left_bare_says_nothing() -> None:
    rng = np.random.default_rng(4)
    whites = np.tile(WHITE, (600, 1))
    half = np.concatenate(
        [_hatched(ABSORB[1], 300, rng, inked=1.0), _hatched(ABSORB[3], 300, rng, inked=1.0)]
    )
    assert stroke_absorption(half, whites) is None
    assert stroke_absorption(_hatched(ABSORB[0], 600, rng, inked=0.1), whites) is None
    assert stroke_absorption(np.zeros((0, 3), np.float32), whites[:0]) is None


def _sheet_with_key(
    absorbs: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """A paper with four 10 x 10 px key patches hatched with ``absorbs``, 20 px apart."""
    image = np.tile(WHITE, (90, 40, 1)).astype(np.float32)
    spots = []
    for k, absorb in enumerate(absorbs):
        ys, xs = np.mgrid[5 + k * 20 : 15 + k * 20, 15:25]
        ys, xs = ys.ravel(), xs.ravel()
        image[ys, xs] = _hatched(absorb, len(ys), rng)
        spots.append((ys, xs))
    return image, spots


def test_the_key_replaces_each_printed_pencil_that_it_shows() -> None:
    rng = np.random.default_rng(5)
    brown, red = PENCILS.index("brown"), PENCILS.index("red")
    own = ABSORB.copy()
    own[red] = _turned(ABSORB[red], ABSORB[brown], 0.4)  # a red pencil close to brown
    image, spots = _sheet_with_key(own, rng)
    usable = np.ones(image.shape[:2], bool)
    usable[5:15] = False  # something found over the green key
    key = read_key(image, np.tile(WHITE, (90, 40, 1)), usable, spots, ABSORB)
    assert isinstance(key, PencilKey)
    assert key.measured == (False, True, True, True)
    assert np.array_equal(key.absorb[0], ABSORB[0])
    assert _angle_deg(key.absorb[red], own[red]) < 2.0


def test_a_key_coloured_with_another_colours_pencil_is_not_learned() -> None:
    rng = np.random.default_rng(6)
    swapped = ABSORB[[1, 0, 2, 3]]  # green and blue coloured the wrong way round
    image, spots = _sheet_with_key(swapped, rng)
    usable = np.ones(image.shape[:2], bool)
    key = read_key(image, np.tile(WHITE, (90, 40, 1)), usable, spots, ABSORB)
    assert key.measured == (False, False, True, True)


def test_a_red_that_looks_brown_is_read_red_against_the_key_and_not_without() -> None:
    rng = np.random.default_rng(7)
    brown, red = PENCILS.index("brown"), PENCILS.index("red")
    own = ABSORB.copy()
    own[red] = _turned(ABSORB[red], ABSORB[brown], 0.6)
    pixels = _hatched(own[red], 400, rng, inked=0.8)
    n = len(pixels)
    args = (
        pixels,
        np.zeros((n, 3), bool),
        np.tile(WHITE, (n, 1)),
        np.zeros(n, np.intp),
        np.zeros((n, 2), np.float32),
        1,
        np.ones(3, np.float32),
        np.full(n, 1.12, np.float32),
    )
    assert int(np.argmin(fit_cells(*args).misfit[:, 0])) == brown
    assert int(np.argmin(fit_cells(*args, absorb=own).misfit[:, 0])) == red


def test_each_pencil_is_taken_from_the_set_its_cells_in_plain_view_fit_better() -> None:
    # Two candidate sets' misfit of five cells (K = 2 pencils): cells 0-2 are pencil 0, which
    # the second set fits better; cells 3-4 are pencil 1, which the first fits better; cell 4
    # lies under a hand, where the second set would have looked better.
    misfit = np.array([[0.010, 0.012, 0.011, 0.30, 0.30], [0.40, 0.40, 0.40, 0.004, 0.020]])
    other = np.array([[0.002, 0.003, 0.002, 0.30, 0.30], [0.40, 0.40, 0.40, 0.009, 0.001]])
    plain = np.array([True, True, True, True, False])
    assert better_rows(misfit, other, plain).tolist() == [True, False]
    # No cell in plain view names a pencil: it stays as it was.
    assert better_rows(misfit, other, np.zeros(5, bool)).tolist() == [False, False]


def test_the_cells_read_as_a_pencil_in_plain_view_show_it() -> None:
    rng = np.random.default_rng(9)
    red = PENCILS.index("red")
    own = _turned(ABSORB[red], ABSORB[PENCILS.index("brown")], 0.3)
    cells = [_hatched(own, 200, rng) for _ in range(4)]
    cells.append(_hatched(ABSORB[0], 200, rng))  # a green cell
    pixels = np.concatenate(cells)
    owner = np.repeat(np.arange(5), 200)
    n = len(pixels)
    values = ["red", "red", "red", "red", "green"]
    args = (PENCILS, pixels, np.zeros((n, 3), bool), np.tile(WHITE, (n, 1)), owner)
    learned = pencils_from_cells(values, *args, np.ones(5, bool), ABSORB)
    assert _angle_deg(learned[red], own) < 2.0
    assert np.array_equal(learned[0], ABSORB[0])  # one green cell is too few to tell
    # With only one red cell in plain view, nothing is learned.
    plain = np.array([True, False, False, False, True])
    assert pencils_from_cells(values, *args, plain, ABSORB) is ABSORB


def test_a_pencil_read_beside_a_neighbour_the_sheet_does_not_show_is_refused() -> None:
    # Red and brown are neighbours in hue, green and brown too; blue is no one's.
    assert NEIGHBOURS[PENCILS.index("red")][PENCILS.index("brown")]
    assert not any(NEIGHBOURS[PENCILS.index("blue")])
    brown = Read("cell (1,1)", "brown", 0.97)
    everything = [True, True, True, True]
    assert unknown_neighbour(brown, everything) == brown
    no_red = [True, True, True, False]  # red's key hidden, and no cell of it clearly inked
    refused = unknown_neighbour(brown, no_red)
    assert (refused.value, refused.confidence) == (None, 0.0)
    assert refused.problem == "cell (1,1): brown, unless a red pencil looks like it (no key)"
    # Nor is brown read where the sheet shows no brown (its key hidden, no cell of it clearly
    # inked): a player's red or green a shade towards brown may be what looks like it.
    no_brown = [True, True, False, True]
    refused = unknown_neighbour(brown, no_brown)
    assert (refused.value, refused.confidence) == (None, 0.0)
    assert (
        refused.problem == "cell (1,1): brown, unless a green pencil looks like it (no brown shown)"
    )
    # Blue has no neighbour to be taken for; bare paper and refusals stay as they are.
    blue = Read("cell (1,2)", "blue", 0.97)
    bare = Read("cell (1,3)", None, 0.95)
    assert [unknown_neighbour(r, [False] * 4) for r in (blue, bare)] == [blue, bare]


def _fit_of(misfit: np.ndarray) -> CellFit:
    """A fit with this misfit (K x C), the rest of it zero."""
    return CellFit(
        *(misfit if f.name == "misfit" else np.zeros_like(misfit) for f in fields(CellFit))
    )


def test_only_pencils_turned_enough_are_fitted_again_and_kept_where_cells_fit_them_better() -> None:
    printed = ABSORB.copy()
    other = ABSORB.copy()
    other[0] = _turned(ABSORB[0], ABSORB[1], 0.2)  # green turned several degrees
    other[3] = _turned(ABSORB[3], ABSORB[2], 0.01)  # red turned a fraction of a degree
    # Two cells of green, one of red, one of blue: the turned green fits its cells better.
    misfit = np.array(
        [
            [0.010, 0.012, 0.5, 0.5],
            [0.5, 0.5, 0.5, 0.004],
            [0.5, 0.5, 0.4, 0.5],
            [0.5, 0.5, 0.003, 0.5],
        ]
    )
    asked: list[np.ndarray] = []

    def fitted(absorb: np.ndarray) -> CellFit:
        asked.append(absorb)
        return _fit_of(np.array([[0.002, 0.003, 0.5, 0.5]]))

    absorb, fit = tried_instead(printed, _fit_of(misfit), other, np.ones(4, bool), fitted)
    assert len(asked) == 1 and np.array_equal(asked[0], other[[0]])
    assert np.array_equal(absorb[0], other[0]) and np.array_equal(absorb[1:], printed[1:])
    assert fit.misfit[0].tolist() == pytest.approx([0.002, 0.003, 0.5, 0.5])
    assert np.array_equal(fit.misfit[1:], misfit[1:])
    # Fitting its cells worse, the turned pencil is not kept.
    worse = tried_instead(
        printed,
        _fit_of(misfit),
        other,
        np.ones(4, bool),
        lambda a: _fit_of(np.array([[0.05, 0.06, 0.5, 0.5]])),
    )
    assert np.array_equal(worse[0], printed)


def test_a_key_half_hidden_is_learned_from_the_half_in_view() -> None:
    rng = np.random.default_rng(10)
    image, spots = _sheet_with_key(ABSORB, rng)
    usable = np.ones(image.shape[:2], bool)
    usable[25:31] = False  # something found over 60 % of the blue key
    usable[45:53] = False  # and over 80 % of the brown key
    key = read_key(image, np.tile(WHITE, (90, 40, 1)), usable, spots, ABSORB)
    assert key.measured == (True, True, False, True)
    assert _angle_deg(key.absorb[1], ABSORB[1]) < 2.0
