"""Fitting evidence thresholds: the lowest score above which enough queries are answerable."""

from __future__ import annotations

from bots.evaluation.calibrate import fit_coverage, fit_support, fit_threshold
from core.calibration import Calibration
from core.orchestrator.support import support_score


def test_threshold_is_where_precision_is_reached() -> None:
    points = [(0.9 - i * 0.02, i < 15) for i in range(40)]  # the 15 best-scored queries are answerable
    assert fit_threshold(points, 1.0) == 0.9 - 14 * 0.02
    assert 0.9 - 30 * 0.02 < fit_threshold(points, 0.5) <= 0.9 - 20 * 0.02  # type: ignore[operator]


def test_no_threshold_without_enough_queries_or_precision() -> None:
    assert fit_threshold([(0.8, True)] * 5, 0.9) is None
    assert fit_threshold([(0.5, False)] * 30, 0.5) is None


def test_support_threshold_keeps_nine_in_ten_answerable_queries() -> None:
    levels = Calibration(model="m")
    # Ten relevant top hits: the query's words found in each, with rising cosines.
    answerable = [("parental leave weeks", "Parental leave lasts 20 weeks", 0.3 + 0.04 * i) for i in range(10)]
    fitted = fit_support(answerable, levels)
    scores = sorted(support_score(1.0, levels.calibrated(c)) for _, _, c in answerable)
    assert fitted == scores[1]  # 9 of the 10 reach it
    assert sum(s >= fitted for s in scores) == 9
    assert fit_support(answerable[:5], levels) is None  # too few queries to fit


def test_coverage_is_the_share_of_words_nine_in_ten_relevant_hits_carry() -> None:
    # Eight hits carry all three words, one carries two, one carries one.
    hits = [("parental leave weeks", "Parental leave lasts 20 weeks", 0.5)] * 8
    hits += [("parental leave weeks", "Leave lasts 20 weeks", 0.5), ("parental leave weeks", "It is 20 weeks", 0.5)]
    assert fit_coverage(hits) == 2 / 3
    assert fit_coverage(hits[:5]) is None
