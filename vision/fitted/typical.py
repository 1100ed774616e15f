"""How typical a sample is of the class a model names: its Mahalanobis distance from that class's
samples, against the distances of the samples the class was fitted on.

A discriminative model extrapolates: a sample unlike anything it was fitted on (a cup's rim
across half a slot, of the well's hue) may still fall far on one side of its boundaries and be
named with near certainty. A class's samples, taken as one Gaussian, say what that class looked
like; a read lying beyond CUTOFF of them is refused as unlike any.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.fitted.softmax import Matrix

# The share of a class's own samples that lie within its cutoff.
CUTOFF = 0.999
# Added to each class's covariance (in standardised units): a feature that hardly varies within
# a class may still vary a little without the distance becoming huge. Of 0.01, 0.1, 0.3 and 1,
# 0.1 refused the fewest validation slots in plain view (4 of 6,257; seeds 60000-60599).
RIDGE = 0.1


@dataclass(frozen=True)
class Typicality:
    """Each class's samples as one Gaussian over the features at ``used``, standardised as the
    model they go with standardises them."""

    classes: tuple[str, ...]
    used: tuple[int, ...]  # which features are compared
    mean: Matrix  # (classes, used)
    precision: Matrix  # (classes, used, used)
    cutoff: Matrix  # (classes,): squared distance

    def distance(self, standardised: Matrix, name: str) -> float:
        """Squared Mahalanobis distance of one standardised sample from class ``name``."""
        k = self.classes.index(name)
        apart = np.asarray(standardised, np.float64).reshape(-1)[list(self.used)] - self.mean[k]
        return float(apart @ self.precision[k] @ apart)

    def typical(self, standardised: Matrix, name: str) -> bool:
        return bool(self.distance(standardised, name) <= self.cutoff[self.classes.index(name)])


def fit_typicality(
    standardised: Matrix,
    labels: Sequence[str],
    classes: Sequence[str],
    used: Sequence[int],
) -> Typicality:
    """Each class's mean and covariance over its samples' standardised features at ``used``, and
    the CUTOFF quantile of its samples' own distances."""
    z = np.asarray(standardised, np.float64)[:, list(used)]
    d = z.shape[1]
    means, precisions, cutoffs = [], [], []
    for name in classes:
        own = z[np.array([label == name for label in labels])]
        if len(own) <= d:
            raise ValueError(
                f"too few samples of {name} ({len(own)}, at least {d + 1}): fit on more boards"
            )
        mean = own.mean(axis=0)
        precision = np.linalg.inv(np.cov(own, rowvar=False) + RIDGE * np.eye(d))
        apart = own - mean
        distances = np.einsum("ij,jk,ik->i", apart, precision, apart)
        means.append(mean)
        precisions.append(precision)
        cutoffs.append(float(np.quantile(distances, CUTOFF)))
    return Typicality(
        tuple(classes),
        tuple(used),
        np.array(means),
        np.array(precisions),
        np.array(cutoffs),
    )
