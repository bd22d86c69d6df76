"""Fitting evidence thresholds: the lowest score above which enough queries are answerable."""

from __future__ import annotations

from bots.evaluation.calibrate import fit_threshold


def test_threshold_is_where_precision_is_reached() -> None:
    points = [(0.9 - i * 0.02, i < 15) for i in range(40)]  # the 15 best-scored queries are answerable
    assert fit_threshold(points, 1.0) == 0.9 - 14 * 0.02
    assert 0.9 - 30 * 0.02 < fit_threshold(points, 0.5) <= 0.9 - 20 * 0.02  # type: ignore[operator]


def test_no_threshold_without_enough_queries_or_precision() -> None:
    assert fit_threshold([(0.8, True)] * 5, 0.9) is None
    assert fit_threshold([(0.5, False)] * 30, 0.5) is None
