"""A multinomial logistic model: class probabilities from measured features, its parameters
fitted by Newton's method with an L2 penalty, its confidence calibrated by one temperature.

Pure numpy and deterministic: the same samples give the same parameters, bit for bit on one
machine, so a shipped model can be retrained and compared.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Matrix = NDArray[np.float64]

# Newton steps stop when the largest parameter change is below TOLERANCE or after MAX_STEPS.
MAX_STEPS = 50
TOLERANCE = 1e-7
# Temperatures searched for the calibration, log-spaced.
TEMPERATURES = (0.25, 8.0)


@dataclass(frozen=True)
class Softmax:
    """P(class | features) = softmax((W z + b) / temperature), z the standardised features and,
    at degree 2, their products in pairs (each with itself too)."""

    classes: tuple[str, ...]
    features: tuple[str, ...]
    mean: Matrix  # (features,)
    scale: Matrix  # (features,)
    weights: Matrix  # (classes, features)
    bias: Matrix  # (classes,)
    temperature: float = 1.0
    degree: int = 1

    def standardised(self, samples: Matrix) -> Matrix:
        """One row per sample: each feature less its mean over the fitted samples, in units of
        their spread."""
        return np.asarray((np.atleast_2d(samples) - self.mean) / self.scale, np.float64)

    def logits(self, samples: Matrix) -> Matrix:
        z = expand(self.standardised(samples), self.degree)
        return np.asarray(z @ self.weights.T + self.bias, np.float64)

    def probabilities(self, samples: Matrix) -> Matrix:
        """One row per sample, one column per class, each row summing to 1."""
        return _softmax(self.logits(samples) / self.temperature)

    def with_temperature(self, temperature: float) -> Softmax:
        return Softmax(
            self.classes,
            self.features,
            self.mean,
            self.scale,
            self.weights,
            self.bias,
            temperature,
            self.degree,
        )


def fit(
    samples: Matrix,
    labels: Sequence[str],
    classes: Sequence[str],
    features: Sequence[str],
    penalty: float = 1e-3,
    degree: int = 1,
) -> Softmax:
    """The model of least penalised log loss on ``samples`` (one row each, ``features`` wide)
    with ``labels`` among ``classes``. ``penalty`` times the squared weights (not the biases) is
    added per sample, which keeps the fit finite where classes separate cleanly."""
    x = np.asarray(samples, np.float64)
    if x.ndim != 2 or x.shape[1] != len(features):
        raise ValueError(f"samples must be n x {len(features)}, not {x.shape}")
    index = {name: k for k, name in enumerate(classes)}
    unknown = sorted({label for label in labels if label not in index})
    if unknown:
        raise ValueError(f"labels not among the classes: {', '.join(unknown)}")
    y = np.zeros((len(labels), len(classes)))
    y[np.arange(len(labels)), [index[label] for label in labels]] = 1.0
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([expand((x - mean) / scale, degree), np.ones((len(x), 1))])
    n, d = z.shape
    k = len(classes)
    theta = np.zeros((k, d))
    ridge = np.full(d, penalty * n)
    ridge[-1] = 0.0  # the biases are not penalised
    for _ in range(MAX_STEPS):
        p = _softmax(z @ theta.T)
        gradient = (p - y).T @ z + theta * ridge
        hessian = np.zeros((k, d, k, d))
        for a in range(k):
            for b in range(a, k):
                w = p[:, a] * ((a == b) - p[:, b])
                block = (z * w[:, None]).T @ z
                hessian[a, :, b, :] = block
                hessian[b, :, a, :] = block.T
        flat = hessian.reshape(k * d, k * d) + np.diag(np.tile(ridge, k))
        # The softmax is unchanged by adding one vector to every class's parameters: a small
        # ridge on every direction keeps the system solvable without moving the optimum.
        flat += np.eye(k * d) * 1e-9 * n
        step = np.linalg.solve(flat, gradient.reshape(-1)).reshape(k, d)
        theta -= step
        if float(np.abs(step).max()) < TOLERANCE:
            break
    return Softmax(
        tuple(classes),
        tuple(features),
        mean,
        scale,
        np.ascontiguousarray(theta[:, :-1]),
        np.ascontiguousarray(theta[:, -1]),
        1.0,
        degree,
    )


def calibrated(model: Softmax, samples: Matrix, labels: Sequence[str]) -> Softmax:
    """``model`` with the temperature of least log loss on held-out ``samples`` (searched on a
    log grid, then refined by golden section)."""
    logits = model.logits(samples)
    index = {name: k for k, name in enumerate(model.classes)}
    truth = np.array([index[label] for label in labels])

    def loss(log_t: float) -> float:
        p = _softmax(logits / math.exp(log_t))
        return float(-np.log(np.maximum(p[np.arange(len(truth)), truth], 1e-300)).mean())

    low, high = (math.log(t) for t in TEMPERATURES)
    grid = np.linspace(low, high, 41)
    best = int(np.argmin([loss(v) for v in grid]))
    a, b = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if loss(c) <= loss(d):
            b = d
        else:
            a = c
    return model.with_temperature(math.exp((a + b) / 2))


def log_loss(model: Softmax, samples: Matrix, labels: Sequence[str]) -> float:
    index = {name: k for k, name in enumerate(model.classes)}
    p = model.probabilities(samples)
    right = p[np.arange(len(labels)), [index[label] for label in labels]]
    return float(-np.log(np.maximum(right, 1e-300)).mean())


def expand(z: Matrix, degree: int) -> Matrix:
    """The standardised features, and at degree 2 their products in pairs (i <= j)."""
    if degree == 1:
        return z
    if degree != 2:
        raise ValueError(f"degree must be 1 or 2, not {degree}")
    rows, cols = np.triu_indices(z.shape[1])
    return np.hstack([z, z[:, rows] * z[:, cols]])


def expanded_width(features: int, degree: int) -> int:
    return features if degree == 1 else features + features * (features + 1) // 2


def _softmax(logits: Matrix) -> Matrix:
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    return np.asarray(e / e.sum(axis=1, keepdims=True), np.float64)


def untrained(classes: Sequence[str], features: Sequence[str]) -> Softmax:
    """A model that says nothing: every class equally likely, whatever is measured."""
    d = len(features)
    return Softmax(
        tuple(classes),
        tuple(features),
        np.zeros(d),
        np.ones(d),
        np.zeros((len(classes), d)),
        np.zeros(len(classes)),
    )
