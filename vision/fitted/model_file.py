"""A fitted model as a JSON file: its parameters, the refusal threshold chosen for it, and where
its data came from. Checked when loaded: a file that does not fit the features the reader
measures is refused with the field that is wrong."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import SourceError
from vision.fitted.softmax import Softmax, expanded_width
from vision.fitted.typical import Typicality

KIND = "softmax"


@dataclass(frozen=True)
class FittedModel:
    """A model, the least probability at which its answer is taken (below it the reader
    refuses), how typical of its class a sample must be for it to be taken (none: any), and how
    all were made."""

    model: Softmax
    refuse_below: float
    provenance: Mapping[str, Any] = field(default_factory=dict)
    typicality: Typicality | None = None

    def accepts(self, sample: np.ndarray, name: str) -> bool:
        """Whether ``sample`` is typical of class ``name``, as the model's samples of it were."""
        if self.typicality is None:
            return True
        return self.typicality.typical(self.model.standardised(sample)[0], name)


def to_json(fitted: FittedModel) -> dict[str, Any]:
    m = fitted.model
    return {
        "kind": KIND,
        "classes": list(m.classes),
        "features": list(m.features),
        "mean": _floats(m.mean),
        "scale": _floats(m.scale),
        "weights": [_floats(row) for row in m.weights],
        "bias": _floats(m.bias),
        "temperature": float(m.temperature),
        "degree": m.degree,
        "refuse_below": float(fitted.refuse_below),
        "typicality": None
        if fitted.typicality is None
        else {
            "used": list(fitted.typicality.used),
            "mean": [_floats(row) for row in fitted.typicality.mean],
            "precision": [[_floats(row) for row in block] for block in fitted.typicality.precision],
            "cutoff": _floats(fitted.typicality.cutoff),
        },
        "provenance": dict(fitted.provenance),
    }


def save(fitted: FittedModel, path: Path) -> None:
    """Write the model to ``path`` whole or not at all: under a temporary name in the same
    folder (created with the mode any file written there gets), then renamed over it."""
    text = json.dumps(to_json(fitted), indent=1) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def load(path: Path, classes: Sequence[str], features: Sequence[str]) -> FittedModel:
    """The model in ``path``, which must decide among ``classes`` from ``features``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SourceError(str(path), f"not a readable model file ({exc})") from exc
    try:
        return from_json(data, classes, features)
    except ValueError as exc:
        raise SourceError(str(path), str(exc)) from exc


def from_json(data: Any, classes: Sequence[str], features: Sequence[str]) -> FittedModel:
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise ValueError(f'kind: expected "{KIND}"')
    for name, expected in (("classes", classes), ("features", features)):
        if data.get(name) != list(expected):
            raise ValueError(f"{name}: expected {list(expected)}")
    k, d = len(classes), len(features)
    mean = _array(data, "mean", (d,))
    scale = _array(data, "scale", (d,))
    if (scale <= 0).any():
        raise ValueError("scale: every entry must be positive")
    bias = _array(data, "bias", (k,))
    temperature = _number(data, "temperature")
    refuse_below = _number(data, "refuse_below")
    if temperature <= 0:
        raise ValueError("temperature: must be positive")
    if not 0 <= refuse_below <= 1:
        raise ValueError("refuse_below: must lie in [0, 1]")
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise ValueError("provenance: expected an object")
    degree = data.get("degree", 1)
    if degree not in (1, 2):
        raise ValueError("degree: expected 1 or 2")
    width = expanded_width(d, degree)
    weights = _array(data, "weights", (k, width))
    model = Softmax(
        tuple(classes), tuple(features), mean, scale, weights, bias, temperature, degree
    )
    typicality = None
    shape = data.get("typicality")
    if shape is not None:
        if not isinstance(shape, dict):
            raise ValueError("typicality: expected an object")
        used = shape.get("used")
        if (
            not isinstance(used, list)
            or not used
            or not all(isinstance(u, int) and not isinstance(u, bool) for u in used)
            or sorted(set(used)) != used
            or not 0 <= used[0] <= used[-1] < d
        ):
            raise ValueError(f"typicality.used: expected increasing feature indices below {d}")
        n = len(used)
        cutoff = _array(shape, "cutoff", (k,), "typicality.")
        typicality = Typicality(
            tuple(classes),
            tuple(used),
            _array(shape, "mean", (k, n), "typicality."),
            _array(shape, "precision", (k, n, n), "typicality."),
            cutoff,
        )
    return FittedModel(model, refuse_below, provenance, typicality)


def _array(data: dict[str, Any], name: str, shape: tuple[int, ...], within: str = "") -> np.ndarray:
    where = f"{within}{name}"
    try:
        array = np.asarray(data.get(name), np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: expected numbers") from None
    if array.shape != shape:
        raise ValueError(f"{where}: expected shape {list(shape)}, not {list(array.shape)}")
    if not np.isfinite(array).all():
        raise ValueError(f"{where}: every entry must be finite")
    return array


def _number(data: dict[str, Any], name: str) -> float:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name}: expected a finite number")
    return float(value)


def _floats(values: np.ndarray) -> list[float]:
    return [float(v) for v in values]
