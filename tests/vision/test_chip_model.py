"""The Pigment Lab chip model's measurements and decisions: what is measured of a slot, and how
the model's probabilities become a read or a refusal."""

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.errors import SourceError
from vision.fitted.chip_data import WIDER_EV, WIDER_NOISE, collect, widened
from vision.fitted.model_file import FittedModel, load
from vision.fitted.softmax import Softmax
from vision.fitted.typical import Typicality
from vision.layout.inks import INKS
from vision.render.envelope import Difficulty
from vision.render.renderer import RenderOptions
from vision.scan.colours import lab_8bit
from vision.scan.readers import pigments_chips
from vision.scan.readers.chip_features import (
    COMPARED,
    FAR,
    FEATURES,
    ChipMeasure,
    SlotFeatures,
    SlotView,
    WellLook,
)
from vision.scan.readers.pigments_chips import CLASSES, MODEL_FILE, ChipReader
from vision.scan.scanner import Scanner


def ink(name: str, count: int, light: float = 1.0) -> np.ndarray:
    r, g, b = INKS[name]
    return np.tile(np.array((b, g, r), np.float32) * light, (count, 1))


def view(middle: np.ndarray, around: np.ndarray) -> SlotView:
    shown = np.clip(middle, 0, 255)
    return SlotView(
        lab_8bit(shown),
        shown,
        lab_8bit(np.clip(around, 0, 255)),
        np.ones(len(around), bool),
        shown.astype(np.uint8),
        middle,
    )


def measured(middle: np.ndarray, around: np.ndarray | None = None) -> dict[str, float]:
    around = ink("well", 200) if around is None else around
    slot = view(middle, around)
    well = lab_8bit(np.clip(around, 0, 255))
    look = WellLook(np.median(well[:, 1:], axis=0).astype(np.float64), 65.0)
    return ChipMeasure().measure(slot, look).named()


@pytest.mark.parametrize("chip", ["Fe2O3", "FeO(OH)", "ultramarine", "TiO2", "binder"])
def test_a_chip_in_plain_view_lies_nearest_its_own_ink(chip: str) -> None:
    features = measured(ink(chip, 60))
    distances = {name: features[f"distance {name}"] for name in CLASSES[1:-1]}
    assert min(distances, key=lambda name: distances[name]) == chip
    assert distances[chip] < 3.0
    assert features["well_shows"] == 1.0 and features["one_colour"] == 1.0
    assert features["light_spread"] == pytest.approx(0.0, abs=1e-6)


def test_the_bare_well_differs_from_its_well_in_nothing() -> None:
    features = measured(ink("well", 60))
    assert features["hue_from_well"] == pytest.approx(0.0, abs=0.5)
    assert features["light_apart_well"] == pytest.approx(0.0, abs=0.01)
    assert features["light_apart_well"] == abs(features["light_from_well"])


def test_a_rim_of_the_wells_hue_across_half_the_middle_shows_as_two_lights_of_one_hue() -> None:
    features = measured(np.concatenate([ink("well", 30, 2.6), ink("well", 30)]))
    assert features["light_spread"] > math.log(4)
    assert features["one_colour"] == 1.0
    assert features["hue_from_well"] < 2.0


def test_a_chip_clipped_in_a_channel_is_matched_only_with_inks_that_could_be_that_bright() -> None:
    # Chip and well lit alike, 1.6 times as brightly as the print: the chip clips in two
    # channels, and only the inks that would clip there at a brightness the well allows match.
    features = measured(ink("FeO(OH)", 60, 1.6), ink("well", 200, 1.6))
    assert features["clipped"] == 2
    assert features["distance FeO(OH)"] < 3.0
    assert features["distance ultramarine"] == features["distance binder"] == FAR
    # White clipped everywhere: binder cannot be that bright in the light the well shows.
    white = measured(ink("TiO2", 60, 1.3), ink("well", 200, 1.3))
    assert (white["clipped"], white["distance TiO2"], white["distance binder"]) == (3, 0.0, FAR)
    # Far brighter than its well allows, a chip is like no ink at all.
    alone = measured(ink("FeO(OH)", 60, 1.6))
    assert all(alone[f"distance {name}"] == FAR for name in CLASSES[1:-1])


def model(chances: dict[str, float], refuse_below: float = 0.9, typicality=None) -> FittedModel:
    """A model whose probabilities are ``chances`` whatever is measured."""
    d = len(FEATURES)
    bias = np.log(np.array([chances.get(name, 1e-9) for name in CLASSES]))
    softmax = Softmax(CLASSES, FEATURES, np.zeros(d), np.ones(d), np.zeros((len(CLASSES), d)), bias)
    return FittedModel(softmax, refuse_below, {}, typicality)


ANY = SlotFeatures(tuple(0.0 for _ in FEATURES))


def test_the_likeliest_answer_sure_enough_is_read_with_its_probability() -> None:
    read = ChipReader(model({"TiO2": 0.96, "binder": 0.04})).decide(ANY)
    assert (read.chip, read.problem) == ("TiO2", None)
    assert read.confidence == pytest.approx(0.96)
    empty = ChipReader(model({"empty": 0.99, "covered": 0.01})).decide(ANY)
    assert (empty.chip, empty.problem) == (None, None)
    assert empty.confidence == pytest.approx(0.99)


def test_below_the_threshold_the_two_likeliest_are_named() -> None:
    read = ChipReader(model({"TiO2": 0.6, "binder": 0.3, "empty": 0.1})).decide(ANY)
    assert (read.chip, read.confidence) == (None, 0.0)
    assert read.problem == "unsure (TiO2 0.60, or binder)"
    empty = ChipReader(model({"empty": 0.55, "binder": 0.45})).decide(ANY)
    assert empty.problem == "unsure (the empty well 0.55, or binder)"
    # Just short of the threshold, never shown as reaching it.
    close = ChipReader(model({"TiO2": 0.8999, "binder": 0.1001})).decide(ANY)
    assert close.problem == "unsure (TiO2 0.89, or binder)"


def test_covered_is_never_read() -> None:
    read = ChipReader(model({"covered": 0.999})).decide(ANY)
    assert (read.chip, read.problem) == (None, "covered (neither a chip nor the bare well)")


def test_an_answer_unlike_its_kind_is_refused_however_sure() -> None:
    n, k = len(COMPARED), len(CLASSES)
    typicality = Typicality(
        CLASSES,
        COMPARED,
        np.zeros((k, n)),
        np.tile(np.eye(n), (k, 1, 1)),
        np.full(k, 4.0),  # within 2 standard units of the class's mean
    )
    sure = model({"TiO2": 0.999}, typicality=typicality)
    assert ChipReader(sure).decide(ANY).chip == "TiO2"
    far = SlotFeatures(tuple(3.0 if k == COMPARED[0] else 0.0 for k in range(len(FEATURES))))
    read = ChipReader(sure).decide(far)
    assert (read.chip, read.problem) == (None, "covered, or unlike any TiO2 chip seen")


def test_the_shipped_model_loads_and_says_how_it_was_made() -> None:
    shipped = load(MODEL_FILE, CLASSES, FEATURES)
    assert shipped.provenance["command"].startswith("atelier train chips")
    assert shipped.typicality is not None
    assert 0.5 <= shipped.refuse_below < 1.0


def test_half_the_boards_fitted_on_are_photographed_wider_than_the_envelope() -> None:
    assert widened(20000) is None
    change = widened(20001)
    assert change is not None
    options = change(RenderOptions(20001, Difficulty.HARD))
    assert options.exposure_ev is not None and options.noise_sigma is not None
    assert WIDER_EV[0] <= options.exposure_ev <= WIDER_EV[1]
    assert WIDER_NOISE[0] <= options.noise_sigma <= WIDER_NOISE[1]
    again = widened(20001)
    assert again is not None and again(RenderOptions(20001)) == replace(
        RenderOptions(20001), exposure_ev=options.exposure_ev, noise_sigma=options.noise_sigma
    )
    other = widened(20003)
    assert other is not None and other(options) != options


def test_samples_are_gathered_without_the_shipped_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Refitting must not depend on the file it replaces: broken, the scanner's default reader
    # cannot be built, but gathering samples never builds it.
    broken = tmp_path / "chips.json"
    broken.write_text("{", encoding="utf-8")
    monkeypatch.setattr(pigments_chips, "MODEL_FILE", broken)
    with pytest.raises(SourceError):
        Scanner()
    samples = collect([20000], Difficulty.HARD)
    assert samples.boards == 1
    assert len(samples) > 0
