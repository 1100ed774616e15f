"""Whether stated confidences behave as probabilities: reliability bins, expected calibration
error and the risk-coverage curve (docs/scanning.md, Evaluation).

Every function is pure and works on ``ComponentOutcome`` values: one per component read, with
its stated confidence and whether it was read right. A component read with a problem is a refusal
at its stated confidence (mostly 0.0): it is in the bins, since it states a confidence, and never
right, since it vouches for no value (readers leave ``None`` there, which would match every empty
space by accident). The risk-coverage curve ranks every component by confidence alone, so a
refusal is rejected at every threshold above its confidence. Calibration is measured on the
validation split and only checked on the test split.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class ComponentOutcome:
    """One component read where the truth has an answer (not hidden by a hand or cup)."""

    confidence: float
    right: bool  # no problem reported, and the value read equals the truth
    refused: bool  # a problem was reported on it


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int
    confidence: float  # mean stated confidence
    accuracy: float  # share right


@dataclass(frozen=True)
class CurvePoint:
    threshold: float  # accept every component whose confidence is at least this
    coverage: float  # share accepted
    risk: float  # share of the accepted that are wrong


def _clamped(confidence: float) -> float:
    # A NaN confidence is as unsure as can be, never sure: it goes to the lowest bin.
    return min(max(confidence, 0.0), 1.0) if confidence == confidence else 0.0


def reliability(outcomes: Sequence[ComponentOutcome], bins: int = 15) -> list[Bin]:
    """Equal-width bins over [0, 1] (the last one closed, so 1.0 falls in it); only the bins
    that hold components, lowest first."""
    if bins < 1:
        raise ValueError(f"bins must be at least 1, not {bins}")
    members: dict[int, list[ComponentOutcome]] = {}
    for outcome in outcomes:
        index = min(int(_clamped(outcome.confidence) * bins), bins - 1)
        members.setdefault(index, []).append(outcome)
    return [
        Bin(
            index / bins,
            (index + 1) / bins,
            len(chosen),
            sum(_clamped(o.confidence) for o in chosen) / len(chosen),
            sum(o.right for o in chosen) / len(chosen),
        )
        for index, chosen in sorted(members.items())
    ]


def expected_calibration_error(bins: Sequence[Bin]) -> float:
    """Sum over bins of (bin share) x |mean confidence - accuracy|; 0.0 with no components."""
    total = sum(b.count for b in bins)
    if not total:
        return 0.0
    return sum(b.count / total * abs(b.confidence - b.accuracy) for b in bins)


def risk_coverage(outcomes: Sequence[ComponentOutcome]) -> list[CurvePoint]:
    """One point per distinct confidence, from the highest down: were every component at or
    above it accepted, how many would be (coverage) and how many of those wrong (risk)."""
    ranked = sorted(outcomes, key=lambda o: _clamped(o.confidence), reverse=True)
    points: list[CurvePoint] = []
    wrong = 0
    for k, outcome in enumerate(ranked, 1):
        wrong += not outcome.right
        threshold = _clamped(outcome.confidence)
        # Ties are accepted together: a threshold cannot split equal confidences.
        if k < len(ranked) and _clamped(ranked[k].confidence) == threshold:
            continue
        points.append(CurvePoint(threshold, k / len(ranked), wrong / k))
    return points


def threshold_for_risk(curve: Sequence[CurvePoint], target: float) -> float | None:
    """The lowest threshold on ``curve`` whose risk is at most ``target``, or None."""
    allowed = [p.threshold for p in curve if p.risk <= target]
    return min(allowed) if allowed else None


def thinned(curve: Sequence[CurvePoint], at_most: int = 50) -> list[CurvePoint]:
    """At most ``at_most`` points of ``curve``, evenly spaced, always keeping both ends."""
    if len(curve) <= at_most:
        return list(curve)
    if at_most < 2:
        raise ValueError(f"at_most must be at least 2, not {at_most}")
    step = (len(curve) - 1) / (at_most - 1)
    return [curve[round(k * step)] for k in range(at_most)]


def calibration_json(outcomes: Sequence[ComponentOutcome], bins: int = 15) -> dict[str, Any]:
    """Bins, ECE and the component count, rounded for a report."""
    chosen = reliability(outcomes, bins)
    return {
        "bins": [_rounded(asdict(b)) for b in chosen],
        "ece": round(expected_calibration_error(chosen), 4),
        "components": len(outcomes),
        "refused": sum(o.refused for o in outcomes),
    }


def curve_json(outcomes: Sequence[ComponentOutcome], at_most: int = 50) -> list[dict[str, Any]]:
    return [_rounded(asdict(p)) for p in thinned(risk_coverage(outcomes), at_most)]


def _rounded(values: dict[str, Any]) -> dict[str, Any]:
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in values.items()}
