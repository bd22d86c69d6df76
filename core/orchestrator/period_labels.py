"""Periods a question asks for, matched against the periods documents label themselves with
("Q3 2022" finds the filing labelled 2022 Q3; "FY19" the report for Fiscal Year 2019)."""

from __future__ import annotations

from collections.abc import Mapping

from core.contracts import Contract
from core.knowledge import DocumentFacets, PeriodFacet
from core.understanding import quarters, years
from core.understanding.dates import without_deadlines
from core.understanding.periods import fiscal_years


class Asked(Contract):
    """A period a question names: a quarter, or a span of (fiscal) years. `labelled`: it names a
    document's period ("Q3 2022", "FY 2018"), not only a year, which may be what a report is about
    ("deaths in 2020" in a 2022 plan)."""

    label: str
    first: int
    last: int
    quarter: int | None = None
    labelled: bool = True


def asked_periods(question: str, *, deadlines: bool = True) -> list[Asked]:
    """The quarters, fiscal years and years a question names ("Q3 2022", "FY19", "in 2016"); with
    `deadlines` false, not those of its deadlines ("by Sept 2026", "by the end of FY 2016")."""
    if not deadlines:
        question = without_deadlines(question)
    asked = [Asked(label=f"Q{q} {y}", first=y, last=y, quarter=q) for q, y in quarters(question)]
    for label, first, last in fiscal_years(question):
        asked.append(Asked(label=label, first=first, last=last))
    covered = {y for a in asked for y in range(a.first, a.last + 1)}
    asked += [Asked(label=str(y), first=y, last=y, labelled=False) for y in years(question) if y not in covered]
    return asked


def _matches(period: PeriodFacet, asked: Asked) -> int:
    """2 when a document's period label is the one asked, 1 when its span contains it, else 0."""
    if asked.quarter is not None:
        if period.kind == "quarter":
            return 2 if (period.quarter, period.start_year) == (asked.quarter, asked.first) else 0
        if period.kind == "period_end" and (period.quarter, period.start_year) == (asked.quarter, asked.first):
            return 1
        return 0
    if period.kind in ("fiscal_year", "year") and (period.start_year, period.end_year) == (asked.first, asked.last):
        return 2
    if period.start_year <= asked.first and asked.last <= period.end_year:
        return 1
    return 0


def covered(periods: list[PeriodFacet]) -> str:
    """The periods some documents cover, in their own words, in order ("Fiscal Year 2013, …, FY 2022")."""
    ordered = sorted(periods, key=lambda p: (p.start_year, p.quarter or 0, p.end_year))
    labels = list(dict.fromkeys(p.label for p in ordered if p.kind != "period_end"))
    return ", ".join(labels[:12]) + (f" and {len(labels) - 12} more" if len(labels) > 12 else "")


def labelled_in(docs: list[str], asked: list[Asked], facets: Mapping[str, DocumentFacets]) -> tuple[set[str], int]:
    """The documents whose own period labels best match a period asked, and how well (2: the label;
    1: a span or period end that holds it). A bare year picks only the documents labelled with it;
    it never rules the others out."""
    if not docs:
        return set(), 0
    scores = {d: max((_matches(p, a) for p in facets[d].periods for a in asked), default=0) for d in docs}
    best = max(scores.values())
    labelled = any(a.labelled for a in asked)
    return {d for d, score in scores.items() if score == best and (best == 2 or (best == 1 and labelled))}, best


def each_period(doc_ids: set[str], facets: Mapping[str, DocumentFacets]) -> dict[str, str]:
    """Each document's periods in its own words, oldest first, when the documents cover more than one."""
    dated = sorted(
        (d for d in doc_ids if facets[d].periods),
        key=lambda d: min((p.start_year, p.quarter or 0) for p in facets[d].periods),
    )
    labels = {d: covered(facets[d].periods) for d in dated}
    return labels if len(set(labels.values())) > 1 else {}
