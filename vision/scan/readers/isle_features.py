"""What is measured of an Isle cell before it is decided: the features of the fitted cell model
(``vision.fitted``).

Each comes from the physical fit of the cell's pixels (``isle.fit_cells``: the paper's white, lit
brighter or darker, less each pencil's ink as the sheet's key shows it) or from the sheet around
the cell: per pencil, how well it explains the pixels and their hue, against the next best; how
much ink it needs, how many pixels and how evenly; how the cell must be lit for it, against how
the paper nearby allows; the same fit with the paper's white taken lower where only a bound of it
was measured; and whether the printed outline, its every edge and the dot in its middle show,
what the sensor clipped, and whether anything found over the sheet lies over or near it. None of
them decides anything: the model does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float32]
Mask = NDArray[np.bool_]
Matrix = NDArray[np.float64]

PENCILS = ("green", "blue", "brown", "red")
# Misfits are compared as logarithms; below these floors they are noise every cell has.
MISFIT_FLOOR = 2e-4
HUE_FLOOR = 5e-5
# Ratios and log ratios beyond these say no more than these do.
LOG_REACH = 9.0
RATIO_REACH = 3.0
# A pencil's typical fit on the sheet is known from at least this many cells it fits best, and
# the sheet's typical outline and dot from this many cells clear of everything found over it.
TYPICAL_CELLS = 3
LEAST_CLEAR = 5
TURN_DEG = 30.0  # a pencil's turn from the printed one, in units of the most a key may turn

PER_PENCIL = (
    "misfit",  # log10 of the pixels' misfit
    "margin",  # that against the best other pencil's (negative: this one fits better)
    "hue",  # log10 of the pixels' hue misfit
    "hue_margin",
    "mean",  # log10 of the mean colour's misfit over what the pixels' scatter leaves in it
    "ink",  # mean pressure
    "inked",  # share of pixels inked
    "evenness",  # least inked third of the cell against the most inked
    "light",  # log of how the cell must be lit, against its paper
    "lower",  # log10 misfit with the paper's white taken lower where it is only bounded
    "lower_margin",
    "typical",  # misfit against the median of the sheet's cells this pencil fits best
    "typical_hue",  # hue misfit, likewise
    "known",  # the sheet shows the players' pencil: its key measured, or cells clearly of it
    "turned",  # how far the pencil read with turns from the printed one (degrees / 30)
)
CONTEXT = (
    "sheet_fit",  # the sheet's median best misfit: its noise, blur and light as a whole
    "sheet_best_fit",  # its tenth percentile
    "best_against_sheet",  # the cell's best misfit against the sheet's median
    "darkest",  # log of how darkly and brightly the paper nearby lets the cell be lit
    "brightest",
    "outline",  # the outline's contrast against the sheet's typical cell's
    "faintest_edge",  # its faintest edge's, likewise
    "dot",  # how clearly the printed dot shows (log units)
    "sheet_dots",  # how clearly the sheet's dots show, in its brighter cells
    "saturated",  # share of its pixels clipped in every channel
    "clipped",  # share clipped in any
    "near",  # something found over the sheet lies within reach of it
    "clear",  # nothing found lies over it
    "things",  # share of its pixels under something found over the sheet
    "seen",  # share of its pixels in the photo
    "guessed",  # the paper's white was taken from the colour card
    "bounded",  # the paper's white was only bounded in some channel
)
FEATURES = tuple(f"{p}_{m}" for p in PENCILS for m in PER_PENCIL) + CONTEXT


class CellFitView(Protocol):
    """The parts of a cell fit (``isle.CellFit``: K x C each) the features use."""

    @property
    def ink(self) -> Floats: ...
    @property
    def inked(self) -> Floats: ...
    @property
    def light(self) -> Floats: ...
    @property
    def misfit(self) -> Floats: ...
    @property
    def evenness(self) -> Floats: ...
    @property
    def mean_misfit(self) -> Floats: ...
    @property
    def mean_noise(self) -> Floats: ...
    @property
    def hue_misfit(self) -> Floats: ...


@dataclass(frozen=True)
class SheetContext:
    """Per cell (C), what the sheet around it shows; and two facts of the sheet's white."""

    darkest: Floats
    brightest: Floats
    contrast: Floats
    faintest_edge: Floats
    dot: Floats
    saturated: Floats
    clipped: Floats
    near: Mask
    clear: Mask
    things: Floats
    seen: Floats
    guessed: bool
    bounded: bool
    known: Mask  # per pencil (K)
    turned: Floats  # per pencil (K), degrees


def _margins(logs: Matrix) -> Matrix:
    """Per pencil and cell, its value less the least of the other pencils'."""
    out = np.empty_like(logs)
    for k in range(len(logs)):
        out[k] = logs[k] - np.delete(logs, k, axis=0).min(axis=0)
    return out


def _typical(values: Matrix, best: NDArray[np.intp]) -> Matrix:
    """Per pencil and cell, ``values`` less their median over the cells that pencil fits best
    (0 where fewer than TYPICAL_CELLS are)."""
    out = np.zeros_like(values)
    for k in range(len(values)):
        own = values[k, best == k]
        if len(own) >= TYPICAL_CELLS:
            out[k] = values[k] - np.median(own)
    return out


def _relative(values: Floats, among: Mask) -> Matrix:
    """``values`` against their median over ``among`` (all cells where too few), capped."""
    pool = values[among] if among.sum() >= LEAST_CLEAR else values
    typical = max(float(np.median(pool)) if len(pool) else 0.0, 1e-6)
    return np.asarray(np.clip(values / typical, 0.0, RATIO_REACH), np.float64)


def cell_features(fit: CellFitView, lower_fit: CellFitView, sheet: SheetContext) -> Matrix:
    """One row of FEATURES per cell."""
    misfit = np.log10(fit.misfit.astype(np.float64) + MISFIT_FLOOR)
    hue = np.log10(fit.hue_misfit.astype(np.float64) + HUE_FLOOR)
    noise = fit.mean_noise.astype(np.float64) + MISFIT_FLOOR
    mean = np.log10((fit.mean_misfit.astype(np.float64) + MISFIT_FLOOR) / noise)
    light = np.log(np.maximum(fit.light.astype(np.float64), 1e-3))
    lower = np.log10(lower_fit.misfit.astype(np.float64) + MISFIT_FLOOR)
    best = misfit.argmin(axis=0)
    least = misfit.min(axis=0)
    sheet_fit = float(np.median(least))
    per_pencil = {
        "misfit": misfit,
        "margin": _margins(misfit),
        "hue": hue,
        "hue_margin": _margins(hue),
        "mean": mean,
        "ink": fit.ink.astype(np.float64),
        "inked": fit.inked.astype(np.float64),
        "evenness": fit.evenness.astype(np.float64),
        "light": light,
        "lower": lower,
        "lower_margin": _margins(lower),
        "typical": _typical(misfit, best),
        "typical_hue": _typical(hue, best),
        "known": np.repeat(sheet.known.astype(np.float64)[:, None], misfit.shape[1], axis=1),
        "turned": np.repeat(
            sheet.turned.astype(np.float64)[:, None] / TURN_DEG, misfit.shape[1], axis=1
        ),
    }
    columns = [
        np.clip(per_pencil[m][k], -LOG_REACH, LOG_REACH)
        for k in range(len(PENCILS))
        for m in PER_PENCIL
    ]
    # The cells that show the sheet's typical outline, edges and dot: those clear of everything
    # found over the sheet.
    clear = sheet.clear
    dots = sheet.dot[clear] if clear.sum() >= LEAST_CLEAR else sheet.dot
    count = len(sheet.dot)
    columns += [
        np.full(count, sheet_fit),
        np.full(count, float(np.percentile(least, 10))),
        least - sheet_fit,
        np.log(np.maximum(sheet.darkest.astype(np.float64), 1e-3)),
        np.log(np.maximum(sheet.brightest.astype(np.float64), 1e-3)),
        _relative(sheet.contrast, clear),
        _relative(sheet.faintest_edge, clear),
        np.clip(sheet.dot.astype(np.float64), -1.0, 2.0),
        np.full(count, float(np.percentile(dots, 75)) if len(dots) else 0.0),
        sheet.saturated.astype(np.float64),
        sheet.clipped.astype(np.float64),
        sheet.near.astype(np.float64),
        sheet.clear.astype(np.float64),
        sheet.things.astype(np.float64),
        sheet.seen.astype(np.float64),
        np.full(count, float(sheet.guessed)),
        np.full(count, float(sheet.bounded)),
    ]
    return np.stack(columns, axis=1)
