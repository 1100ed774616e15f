"""Samples for the fitted chip model: every Pigment Lab slot the reader measures on rendered
boards, with what the render's truth says lies there and how much of its middle is hidden."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import numpy as np

from vision.benchmark import TRUTH, render_board
from vision.fitted.model_file import FittedModel
from vision.fitted.softmax import Matrix, untrained
from vision.render.envelope import Difficulty
from vision.render.renderer import Renderer, RenderOptions
from vision.scan.readers.chip_features import FEATURES, SlotFeatures
from vision.scan.readers.pigments import PigmentsReader
from vision.scan.readers.pigments_chips import CLASSES, COVERED, EMPTY, ChipReader
from vision.scan.scanner import Scanner

# A slot whose middle (where its chip is read) an occluder hides at least this share of is
# labelled covered: what lies there cannot be told. Less, but some, and either label would be a
# guess: such slots are left out of fitting. A slot hidden beyond its middle alone shows what
# lies there.
COVERED_LABEL = 0.5


# Every other board is photographed in wider conditions than the hard envelope draws (its
# exposure within a quarter stop, its sensor noise sigma 3-8): a table's camera may expose a
# stop and a half either way and be far noisier (a webcam in a dim room). The perturbation
# families, operations on the photo written apart from the renderer, stay out of the samples.
WIDER_EV = (-1.5, 1.5)
WIDER_NOISE = (3.0, 16.0)

Change = Callable[[RenderOptions], RenderOptions]


def widened(seed: int) -> Change | None:
    """How ``seed``'s board is rendered for fitting: as the envelope draws it (even seeds), or
    at an exposure and sensor noise drawn from the wider ranges (odd seeds)."""
    if seed % 2 == 0:
        return None
    rng = np.random.default_rng([seed, 1])
    ev, noise = float(rng.uniform(*WIDER_EV)), float(rng.uniform(*WIDER_NOISE))
    return lambda options: replace(options, exposure_ev=ev, noise_sigma=noise)


@dataclass(frozen=True)
class Samples:
    """Slots as measured: features, what lies there (a chip or EMPTY, covered or not) and the
    share of the slot's middle an occluder hides."""

    features: Matrix  # one row per slot, FEATURES wide
    truths: tuple[str, ...]
    covered: Matrix
    boards: int

    def __len__(self) -> int:
        return len(self.truths)

    def labelled(self) -> Samples:
        """The slots that can be labelled, each a chip, EMPTY or COVERED (see ``labels``)."""
        keep = (self.covered == 0) | (self.covered >= COVERED_LABEL)
        return Samples(
            self.features[keep],
            tuple(t for t, k in zip(self.truths, keep, strict=True) if k),
            self.covered[keep],
            self.boards,
        )

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(
            COVERED if c >= COVERED_LABEL else t
            for t, c in zip(self.truths, self.covered, strict=True)
        )


def collect(
    seeds: Iterable[int],
    difficulty: Difficulty,
    progress: Callable[[int], None] | None = None,
    change: Callable[[int], Change | None] = widened,
) -> Samples:
    """Render a Pigment Lab board per seed (its options changed by ``change(seed)``), scan it,
    and keep each slot's features and truth."""
    renderer = Renderer()
    seen: list[tuple[str, SlotFeatures]] = []
    # The features are measured before any decision, so a model that decides nothing will do
    # (and the shipped model, which may be the one being refitted, is never loaded).
    reader = ChipReader(
        FittedModel(untrained(CLASSES, FEATURES), 1.0),
        observe=lambda slot, features: seen.append((slot, features)),
    )
    scanner = Scanner(readers={("pigments", "palette"): PigmentsReader(reader)})
    rows: list[tuple[float, ...]] = []
    truths: list[str] = []
    covered: list[float] = []
    boards = 0
    for boards, seed in enumerate(seeds, 1):
        rendered = render_board(renderer, "pigments", difficulty, seed, change(seed))
        seen.clear()
        scanner.scan(rendered.rendering.image, "pigments")
        truth = TRUTH["pigments"](rendered.position)
        hidden = {
            entry["region"]: float(entry["covered_middle"])
            for entry in rendered.rendering.truth.get("covered_regions", [])
        }
        for slot, features in seen:
            rows.append(features.values)
            value = truth.get(slot)
            truths.append(EMPTY if value is None else str(value))
            covered.append(hidden.get(slot, 0.0))
        if progress is not None:
            progress(boards)
    matrix = np.asarray(rows, np.float64).reshape(-1, len(FEATURES))
    return Samples(matrix, tuple(truths), np.asarray(covered, np.float64), boards)
