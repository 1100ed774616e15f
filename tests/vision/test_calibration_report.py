"""Reliability bins, expected calibration error and the risk-coverage curve, against values
worked out by hand for ten components."""

from __future__ import annotations

import pytest

from vision.calibration_report import (
    Bin,
    ComponentOutcome,
    CurvePoint,
    calibration_json,
    expected_calibration_error,
    reliability,
    risk_coverage,
    thinned,
    threshold_for_risk,
)

# (confidence, right); the one at 0.0 is a refusal, never right.
TEN = [
    ComponentOutcome(c, right, refused=c == 0.0)
    for c, right in [
        (1.0, True),
        (0.95, True),
        (0.95, True),
        (0.9, False),
        (0.85, True),
        (0.7, True),
        (0.7, False),
        (0.5, True),
        (0.3, False),
        (0.0, False),
    ]
]


def test_fifteen_bins_hold_exactly_the_components_worked_out_by_hand() -> None:
    got = reliability(TEN, bins=15)
    want = [
        (0, 1, 0.0, 0.0),
        (4, 1, 0.3, 0.0),
        (7, 1, 0.5, 1.0),
        (10, 2, 0.7, 0.5),
        (12, 1, 0.85, 1.0),
        (13, 1, 0.9, 0.0),
        (14, 3, 2.9 / 3, 1.0),  # 1.0 falls in the last bin, which is closed
    ]
    assert len(got) == len(want)
    for b, (index, count, confidence, accuracy) in zip(got, want, strict=True):
        assert b.low == pytest.approx(index / 15) and b.high == pytest.approx((index + 1) / 15)
        assert (b.count, b.confidence, b.accuracy) == pytest.approx((count, confidence, accuracy))


def test_expected_calibration_error_is_the_share_weighted_gap() -> None:
    # (0 + 0.3 + 0.5 + 2 x 0.2 + 0.15 + 0.9 + 3 x 0.0333) / 10
    assert expected_calibration_error(reliability(TEN)) == pytest.approx(0.235)
    assert expected_calibration_error([]) == 0.0
    perfect = [Bin(0.6, 0.8, 10, 0.7, 0.7), Bin(0.8, 1.0, 5, 0.9, 0.9)]
    assert expected_calibration_error(perfect) == pytest.approx(0.0)


def test_the_curve_has_one_point_per_distinct_confidence_from_the_top() -> None:
    want = [
        (1.0, 0.1, 0.0),
        (0.95, 0.3, 0.0),  # the two at 0.95 are accepted together
        (0.9, 0.4, 1 / 4),
        (0.85, 0.5, 1 / 5),
        (0.7, 0.7, 2 / 7),
        (0.5, 0.8, 2 / 8),
        (0.3, 0.9, 3 / 9),
        (0.0, 1.0, 4 / 10),
    ]
    got = risk_coverage(TEN)
    assert len(got) == len(want)
    for point, expected in zip(got, want, strict=True):
        assert (point.threshold, point.coverage, point.risk) == pytest.approx(expected)
    assert risk_coverage([]) == []


@pytest.mark.parametrize(
    ("target", "threshold"), [(0.0, 0.95), (0.2, 0.85), (0.25, 0.5), (0.5, 0.0), (-0.1, None)]
)
def test_the_threshold_is_the_lowest_whose_risk_meets_the_target(
    target: float, threshold: float | None
) -> None:
    assert threshold_for_risk(risk_coverage(TEN), target) == threshold


def test_thinning_keeps_both_ends_and_the_order() -> None:
    curve = [CurvePoint(1 - k / 120, (k + 1) / 120, 0.0) for k in range(120)]
    kept = thinned(curve, 50)
    assert len(kept) == 50 and kept[0] == curve[0] and kept[-1] == curve[-1]
    assert [p.threshold for p in kept] == sorted((p.threshold for p in kept), reverse=True)
    assert thinned(curve[:7], 50) == curve[:7]


def test_the_report_counts_components_and_refusals() -> None:
    report = calibration_json(TEN)
    assert report["components"] == 10 and report["refused"] == 1
    assert sum(b["count"] for b in report["bins"]) == 10
    assert report["ece"] == 0.235


def test_a_nan_confidence_counts_as_the_least_sure() -> None:
    [only] = reliability([ComponentOutcome(float("nan"), False, True)])
    assert (only.low, only.count, only.confidence) == (0.0, 1, 0.0)
