"""The fitted multinomial model: it learns what the data say, its temperature makes its
probabilities the share right, and the same data give the same parameters."""

import numpy as np
import pytest

from vision.fitted.softmax import calibrated, expand, fit, log_loss, untrained

CLASSES = ("a", "b", "c")
FEATURES = ("x", "y")
CENTRES = {"a": (0.0, 0.0), "b": (4.0, 0.0), "c": (0.0, 4.0)}


def clusters(n: int, seed: int, spread: float = 1.0) -> tuple[np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    labels = [CLASSES[k % 3] for k in range(n)]
    points = np.array([CENTRES[label] for label in labels]) + rng.normal(0, spread, (n, 2))
    return points, labels


def test_fit_separates_clusters_it_never_saw():
    model = fit(*clusters(600, 1), CLASSES, FEATURES)
    points, labels = clusters(600, 2)
    chances = model.probabilities(points)
    assert np.allclose(chances.sum(axis=1), 1.0)
    predicted = [CLASSES[k] for k in chances.argmax(axis=1)]
    accuracy = np.mean([p == t for p, t in zip(predicted, labels, strict=True)])
    # Three unit Gaussians 4 apart: the Bayes error is about 2.5 %.
    assert accuracy > 0.95
    assert model.probabilities(np.array([4.0, 0.0]))[0].argmax() == 1


def test_the_same_samples_give_the_same_model():
    first = fit(*clusters(300, 3), CLASSES, FEATURES)
    again = fit(*clusters(300, 3), CLASSES, FEATURES)
    assert np.array_equal(first.weights, again.weights)
    assert np.array_equal(first.bias, again.bias)


def test_degree_two_learns_what_no_line_can():
    rng = np.random.default_rng(4)
    points = rng.uniform(-1, 1, (800, 2))
    labels = ["a" if x * y > 0 else "b" for x, y in points]
    linear = fit(points, labels, ("a", "b"), FEATURES)
    quadratic = fit(points, labels, ("a", "b"), FEATURES, degree=2)
    assert log_loss(quadratic, points, labels) < 0.3 < 0.6 < log_loss(linear, points, labels)
    assert expand(np.ones((1, 3)), 2).shape == (1, 3 + 6)


def sampled(n: int, seed: int) -> tuple[np.ndarray, list[str]]:
    """Points whose labels are drawn from known class probabilities (a softmax of -distance^2/2
    to each centre): a model can be calibrated on them, not only accurate."""
    rng = np.random.default_rng(seed)
    points = rng.uniform(-1.0, 5.0, (n, 2))
    centres = np.array(list(CENTRES.values()))
    logits = -(((points[:, None, :] - centres[None]) ** 2).sum(axis=2)) / 2
    chances = np.exp(logits - logits.max(axis=1, keepdims=True))
    chances /= chances.sum(axis=1, keepdims=True)
    labels = [CLASSES[rng.choice(3, p=row)] for row in chances]
    return points, labels


def test_calibration_makes_confidence_the_share_right():
    model = fit(*sampled(2000, 5), CLASSES, FEATURES)
    overconfident = model.with_temperature(0.25)
    held = sampled(2000, 6)
    tuned = calibrated(overconfident, *held)
    assert 0.8 < tuned.temperature < 1.25
    points, labels = sampled(4000, 7)
    chances = tuned.probabilities(points)
    right = np.array([CLASSES[k] == t for k, t in zip(chances.argmax(axis=1), labels, strict=True)])
    assert abs(chances.max(axis=1).mean() - right.mean()) < 0.02
    assert log_loss(tuned, points, labels) < log_loss(overconfident, points, labels)


def test_untrained_says_nothing():
    chances = untrained(CLASSES, FEATURES).probabilities(np.array([[3.0, -2.0]]))
    assert np.allclose(chances, 1 / 3)


@pytest.mark.parametrize(
    ("labels", "message"),
    [(["a", "z"], "labels not among the classes: z"), (["a"], "samples must be n x 2")],
)
def test_bad_samples_are_refused(labels, message):
    points = np.zeros((2, 2)) if len(labels) == 2 else np.zeros((1, 3))
    with pytest.raises(ValueError, match=message):
        fit(points, labels, CLASSES, FEATURES)
