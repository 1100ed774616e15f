"""A fitted model's file: written whole, read back the same, and refused with the field at
fault when it does not fit what the reader measures."""

import json

import numpy as np
import pytest

from companion.errors import SourceError
from vision.fitted.model_file import FittedModel, load, save, to_json
from vision.fitted.softmax import fit

CLASSES = ("a", "b")
FEATURES = ("x", "y")


def fitted() -> FittedModel:
    rng = np.random.default_rng(0)
    points = rng.normal(0, 1, (200, 2))
    labels = ["a" if x > 0 else "b" for x, _ in points]
    return FittedModel(fit(points, labels, CLASSES, FEATURES), 0.9, {"seeds": [1, 2]})


def test_round_trip(tmp_path):
    model = fitted()
    path = tmp_path / "models" / "m.json"
    save(model, path)
    again = load(path, CLASSES, FEATURES)
    points = np.array([[0.3, -1.0], [-2.0, 0.5]])
    assert np.array_equal(again.model.probabilities(points), model.model.probabilities(points))
    assert again.refuse_below == 0.9
    assert again.provenance == {"seeds": [1, 2]}
    assert [p.name for p in path.parent.iterdir()] == ["m.json"]  # no temporary left


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(features=["x", "z"]), "features: expected"),
        (lambda d: d.update(classes=["b", "a"]), "classes: expected"),
        (lambda d: d.update(kind="tree"), 'kind: expected "softmax"'),
        (lambda d: d.update(weights=[[1.0, 2.0]]), r"weights: expected shape \[2, 2\]"),
        (lambda d: d["mean"].__setitem__(0, None), "mean: every entry must be finite"),
        (lambda d: d["scale"].__setitem__(1, 0.0), "scale: every entry must be positive"),
        (lambda d: d.update(temperature="hot"), "temperature: expected a finite number"),
        (lambda d: d.update(refuse_below=1.5), r"refuse_below: must lie in \[0, 1\]"),
        (lambda d: d.update(bias="no"), "bias: expected"),
    ],
)
def test_bad_files_name_the_field(tmp_path, change, message):
    data = to_json(fitted())
    change(data)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SourceError, match=f"^{path}: {message}"):
        load(path, CLASSES, FEATURES)


def test_unreadable_file(tmp_path):
    path = tmp_path / "m.json"
    path.write_text("{not json")
    with pytest.raises(SourceError, match="not a readable model file"):
        load(path, CLASSES, FEATURES)
    with pytest.raises(SourceError, match="not a readable model file"):
        load(tmp_path / "absent.json", CLASSES, FEATURES)
