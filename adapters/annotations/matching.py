"""Matching annotations to a query: labels lexically or by embedding, numbers across units."""

from __future__ import annotations

import functools
import operator
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
from rapidfuzz import fuzz

from adapters.annotations.units import UnitNormalizer
from core.knowledge import AggregateFunction, AggregateRow, Annotation, AnnotationQuery, NumericFilter
from core.text import normalize_label, stem, stems, words

# A label matches when it is lexically close, or its embedding is this close; the single
# best-embedding label also matches from BEST_LABEL_SIMILARITY ("qty" → "Quantity" at 0.49,
# while "width" → "Height" at 0.47 is not the best match and stays out).
LEXICAL_SCORE = 88.0
LABEL_SIMILARITY = 0.60
BEST_LABEL_SIMILARITY = 0.45
_REDUCERS: Mapping[str, Callable[[list[float]], float]] = {
    "sum": lambda xs: float(sum(xs)),
    "min": min,
    "max": max,
    "avg": statistics.fmean,
}
_COMPARE: Mapping[str, Callable[[float, float], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    "=": lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b)),
    ">=": operator.ge,
    ">": operator.gt,
}


def matching_labels(
    wanted: str, known: Sequence[str], wanted_vector: np.ndarray | None, known_vectors: np.ndarray | None
) -> list[str]:
    """Known labels that `wanted` names: lexical match, or embedding similarity."""
    target = normalize_label(wanted)
    matches = {
        label
        for label in known
        if target == label
        or target in label.split()
        or target in label
        or fuzz.token_set_ratio(target, label) >= LEXICAL_SCORE
    }
    if wanted_vector is not None and known_vectors is not None and len(known):
        scores = known_vectors @ wanted_vector
        matches.update(label for label, score in zip(known, scores, strict=True) if score >= LABEL_SIMILARITY)
        best = int(np.argmax(scores))
        if scores[best] >= BEST_LABEL_SIMILARITY:
            matches.add(known[best])
    return sorted(matches)


def match_query_labels(
    query: AnnotationQuery, known: Sequence[str], known_vectors: np.ndarray | None, query_vectors: np.ndarray | None
) -> dict[str, set[str]]:
    """For each label the query names, the known labels it matches (query vectors in `label_terms()` order)."""
    return {
        term: set(matching_labels(term, known, query_vectors[i] if query_vectors is not None else None, known_vectors))
        for i, term in enumerate(query.label_terms())
    }


def _numeric_ok(annotation: Annotation, wanted: NumericFilter, labels: set[str], units: UnitNormalizer) -> bool:
    target = units.normalize(wanted.value, wanted.unit)
    compare = _COMPARE[wanted.operator]
    if annotation.kind == "fact":
        if wanted.label is not None and normalize_label(annotation.label) not in labels:
            return False
        if annotation.value_num is None or (target.unit and annotation.unit != target.unit):
            return False
        return compare(annotation.value_num, target.value)
    columns = [c for c in annotation.numbers if wanted.label is None or normalize_label(c) in labels]
    # A column whose header or cells carry a unit is compared only in the same kind of unit.
    return any(
        compare(annotation.numbers[c], target.value)
        for c in columns
        if not (target.unit and annotation.units.get(c) and annotation.units[c] != target.unit)
    )


def select(
    annotations: Iterable[Annotation],
    query: AnnotationQuery,
    labels: Mapping[str, set[str]],
    units: UnitNormalizer,
) -> list[Annotation]:
    """The annotations that meet every part of `query`; `labels` maps each wanted label to its matches."""
    wanted_labels = set().union(*labels.values()) if labels else set()
    out = []
    for annotation in annotations:
        if query.kind and annotation.kind != query.kind:
            continue
        if query.labels:
            own = (
                {normalize_label(annotation.label)}
                if annotation.kind == "fact"
                else {normalize_label(c) for c in annotation.properties}
            )
            if not own & wanted_labels:
                continue
        if not all(
            _numeric_ok(annotation, f, labels.get(f.label, set()) if f.label else set(), units) for f in query.numeric
        ):
            continue
        if not all(_contains(annotation, column, needle, labels) for column, needle in query.contains.items()):
            continue
        haystack = _stems(_haystack(annotation))
        if not all(stem(word) in haystack for word in query.text):
            continue
        out.append(annotation)
    return out


def _haystack(annotation: Annotation) -> str:
    """What free-text terms match: a fact's value and document, a row's cell values and document."""
    cells = annotation.value if annotation.kind == "fact" else " ".join(annotation.properties.values())
    return f"{cells} {annotation.title} {annotation.section or ''}".lower()


@functools.lru_cache(maxsize=65536)
def _stems(text: str) -> frozenset[str]:
    """The stems of a text's words, so that free-text terms match up to inflection (core.text.stem)."""
    return frozenset(stems(words(text)))


def _contains(annotation: Annotation, column: str, needle: str, labels: Mapping[str, set[str]]) -> bool:
    names = labels.get(column) or {normalize_label(column)}
    values = [v for c, v in annotation.properties.items() if normalize_label(c) in names]
    if annotation.kind == "fact" and normalize_label(annotation.label) in names:
        values.append(annotation.value)
    return any(needle.lower() in v.lower() for v in values)


def aggregate(
    annotations: Sequence[Annotation], function: AggregateFunction, field: str | None, group_by: str | None
) -> list[AggregateRow]:
    """count/sum/min/max/avg of a numeric field (a fact's value, or a row's column), by group."""
    groups: dict[tuple[tuple[str, str], ...], list[float | None]] = {}
    for annotation in annotations:
        key: tuple[tuple[str, str], ...] = ((group_by, _group_value(annotation, group_by)),) if group_by else ()
        groups.setdefault(key, []).append(_field_value(annotation, field))
    rows = []
    for key, values in sorted(groups.items()):
        numbers = [v for v in values if v is not None]
        value: float | None
        if function == "count":
            value = float(len(values))
        elif not numbers:
            value = None
        else:
            value = _REDUCERS[function](numbers)
        rows.append(AggregateRow(group=dict(key), value=value, count=len(values)))
    return rows


def _field_value(annotation: Annotation, field: str | None) -> float | None:
    if annotation.kind == "fact" or field is None:
        return annotation.value_num
    return next((v for c, v in annotation.numbers.items() if _names(field, c)), None)


def _group_value(annotation: Annotation, group_by: str) -> str:
    wanted = normalize_label(group_by)
    if wanted in ("title", "document"):
        return annotation.title
    if wanted == "year":
        return str(annotation.date.year) if annotation.date else ""
    return next((v for c, v in annotation.properties.items() if _names(group_by, c)), "")


def _names(wanted: str, column: str) -> bool:
    """`total` names `total_eur`; `vendor` names `vendor`."""
    target, name = normalize_label(wanted), normalize_label(column)
    return target == name or target in name.split()
