"""The `SearchBackend` contract, part 2: annotations, aggregates, summaries, categories, recency.

The corpus goes in through the real ingestion pipeline, so every backend is fed exactly as the
product feeds it; expected numbers are computed from the CSV itself.
"""

from __future__ import annotations

import datetime as dt
import shutil
import statistics
from collections.abc import AsyncIterator
from typing import Any

import pytest

from adapters.annotations.extract import Annotator
from adapters.annotations.units import UnitNormalizer, UnitQuantityReader
from bots.bootstrap import all_loaders
from core.clock import FixedClock
from core.concurrency import CpuExecutor
from core.contracts import SearchFilters
from core.ingest.pipeline import Ingestor
from core.knowledge import AnnotationQuery, NumericFilter
from core.orchestrator.intake import run_intake
from tests.conftest import SAMPLE_CORPUS, close_backend, elasticsearch_backend
from tests.documents import write_delimited
from tests.fakes import InMemoryRegistry, InMemorySearchBackend

ITEMS = [
    ("Winter tire 215/65 R16", 118.0),
    ("Oil change", 89.0),
    ("All-season tire 205/75 R16C", 132.0),
    ("Diesel", 1.7),
]


def receipts() -> list[list[str]]:
    rows = [["receipt_id", "date", "item_desc", "quantity", "total_eur"]]
    for i in range(90):
        item, price = ITEMS[i % len(ITEMS)]
        quantity = 1 + (i * 7) % 5
        day = dt.date(2022, 1, 3) + dt.timedelta(days=11 * i)
        rows.append([f"R-{i:03d}", day.isoformat(), item, str(quantity), f"{price * quantity:.2f}"])
    return rows


@pytest.fixture(
    params=["in-memory", "embedded", pytest.param("elasticsearch", marks=pytest.mark.elasticsearch)], scope="module"
)
async def knowledge(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    onnx_embedder: Any,
    executor: CpuExecutor,
) -> AsyncIterator[tuple[Any, Any]]:
    """A backend fed the spec sheets, a receipts CSV and two dated notes, with its embedder."""
    folder = tmp_path_factory.mktemp("knowledge")
    shutil.copytree(SAMPLE_CORPUS / "specs", folder / "products")
    (folder / "finance").mkdir()
    write_delimited(folder / "finance" / "receipts.csv", receipts())
    notes = folder / "notes"
    notes.mkdir()
    for year in (2021, 2025):
        (notes / f"{year}-03-01-canteen.md").write_text(
            f"# Canteen notice {year}\n\nThe canteen serves lunch from 12:00 to 14:00.\n", encoding="utf-8"
        )
    if request.param == "in-memory":
        backend: Any = InMemorySearchBackend()
    elif request.param == "elasticsearch":
        backend = await elasticsearch_backend(onnx_embedder.dimension)
    else:
        from adapters.search.embedded import EmbeddedSearchBackend

        backend = EmbeddedSearchBackend(
            path=folder / "search.sqlite3",
            executor=executor,
            model_name=onnx_embedder.model_name,
            dimension=onnx_embedder.dimension,
        )
    ingestor = Ingestor(
        loaders=all_loaders(),
        annotator=Annotator(units=UnitNormalizer()),
        embedder=onnx_embedder,
        backend=backend,
        registry=InMemoryRegistry(),
        executor=executor,
        clock=FixedClock(at=dt.datetime(2026, 11, 21)),
    )
    for name in ("products", "finance", "notes"):
        report = await ingestor.ingest([folder / name], collection=name)
        assert report.ok and report.added
    yield backend, onnx_embedder
    await close_backend(backend)


async def _search(
    knowledge: tuple[Any, Any], query: AnnotationQuery, filters: SearchFilters | None = None, limit: int = 500
) -> Any:
    backend, embedder = knowledge
    terms = query.label_terms()
    vectors = await embedder.embed(terms) if terms else None
    return await backend.annotations_search(query, filters or SearchFilters(), limit, vectors)


async def test_numeric_filter_works_across_units(knowledge: tuple[Any, Any]) -> None:
    query = AnnotationQuery(
        labels=["width"], numeric=[NumericFilter(label="width", operator="<=", value=1.2, unit="m")]
    )
    found = await _search(knowledge, query)
    titles = {a.title for a in found.annotations}
    assert titles == {"SunPeak 400 solar panel spec sheet", "BrightRoof Compact solar panel spec sheet"}
    assert found.total == 2
    wider = await _search(
        knowledge,
        AnnotationQuery(numeric=[NumericFilter(label="width", operator=">", value=1200, unit="mm")]),
    )
    assert {a.title for a in wider.annotations} == {"SunPeak 550 solar panel spec sheet"}
    light = await _search(
        knowledge, AnnotationQuery(numeric=[NumericFilter(label="weight", operator="<", value=50, unit="lb")])
    )
    assert {a.value for a in light.annotations} == {"21.5 kg", "39.7 lb"}


async def test_labels_match_by_embedding_and_rows_filter_by_property(knowledge: tuple[Any, Any]) -> None:
    rows = receipts()[1:]
    qty = await _search(knowledge, AnnotationQuery(labels=["qty"]), SearchFilters(collections=["finance"]))
    assert qty.total == len(rows)
    # The stored label the query's "qty" matched: the planner weighs how much of a question it covers.
    assert "quantity" in qty.matched_labels
    tires = await _search(knowledge, AnnotationQuery(contains={"item_desc": "tire"}))
    assert tires.total == sum("tire" in r[2].lower() for r in rows)
    assert all("tire" in a.properties["item_desc"].lower() for a in tires.annotations)
    big = await _search(
        knowledge,
        AnnotationQuery(
            contains={"item_desc": "tire"}, numeric=[NumericFilter(label="quantity", operator=">=", value=4)]
        ),
    )
    assert big.total == sum("tire" in r[2].lower() and int(r[3]) >= 4 for r in rows)


async def test_totals_are_exact_beyond_the_page(knowledge: tuple[Any, Any]) -> None:
    page = await _search(knowledge, AnnotationQuery(contains={"item_desc": "tire"}), limit=5)
    assert len(page.annotations) == 5 and page.total == sum("tire" in r[2].lower() for r in receipts()[1:])


async def test_annotation_date_filter(knowledge: tuple[Any, Any]) -> None:
    window = SearchFilters(date_start=dt.date(2023, 1, 1), date_end=dt.date(2023, 12, 31))
    found = await _search(knowledge, AnnotationQuery(contains={"item_desc": "tire"}), window)
    expected = sum("tire" in r[2].lower() and r[1].startswith("2023") for r in receipts()[1:])
    assert found.total == expected > 0


@pytest.mark.parametrize("function", ["count", "sum", "min", "max", "avg"])
async def test_aggregates_are_exact(knowledge: tuple[Any, Any], function: str) -> None:
    backend, embedder = knowledge
    query = AnnotationQuery(contains={"item_desc": "tire"})
    result = await backend.annotations_aggregate(
        query, SearchFilters(), function, "total_eur", "year", await embedder.embed(query.label_terms())
    )
    by_year: dict[str, list[float]] = {}
    for row in receipts()[1:]:
        if "tire" in row[2].lower():
            by_year.setdefault(row[1][:4], []).append(float(row[4]))
    reduce = {
        "count": lambda xs: float(len(xs)),
        "sum": sum,
        "min": min,
        "max": max,
        "avg": statistics.fmean,
    }[function]
    assert {r.group["year"]: r.value for r in result} == pytest.approx({y: reduce(v) for y, v in by_year.items()})
    assert sum(r.count for r in result) == sum(len(v) for v in by_year.values())


async def test_summaries_then_drill_down(knowledge: tuple[Any, Any]) -> None:
    backend, embedder = knowledge
    vector = await embedder.embed(["panel for balconies and camper vans"])
    summaries = await backend.search_vector(vector, SearchFilters(), 3, scope="summary")
    assert all(h.segment.kind == "summary" for h in summaries)
    top = summaries[0].segment
    assert top.title == "BrightRoof Compact solar panel spec sheet" and top.span_start == 0
    inside = await backend.search_vector(vector, SearchFilters(doc_ids=[top.doc_id]), 10)
    assert inside and {h.segment.doc_id for h in inside} == {top.doc_id}
    assert all(h.segment.kind == "segment" for h in inside)


async def test_categories_and_stats(knowledge: tuple[Any, Any]) -> None:
    backend, embedder = knowledge
    stats = await backend.stats(SearchFilters(collections=["finance", "notes"]))
    assert stats.documents == 3 and stats.categories.get("data-heavy") == 1 and stats.annotated_documents == 1
    vector = await embedder.embed(["canteen lunch"])
    hits = await backend.search_hybrid("canteen lunch", vector, SearchFilters(categories=["data-heavy"]), 10)
    assert all(h.segment.collection in ("finance", "products") for h in hits)


async def test_stats_name_the_newest_document_date_within_the_filters(knowledge: tuple[Any, Any]) -> None:
    backend, _ = knowledge
    assert (await backend.stats(SearchFilters(collections=["notes"]))).newest == dt.date(2025, 3, 1)
    earlier = SearchFilters(collections=["notes"], date_end=dt.date(2024, 12, 31))
    assert (await backend.stats(earlier)).newest == dt.date(2021, 3, 1)
    assert (await backend.stats(SearchFilters(collections=["nobody"]))).newest is None


async def test_recency_boost_reorders_without_changing_relevance(knowledge: tuple[Any, Any]) -> None:
    backend, embedder = knowledge
    query = "When does the canteen serve lunch?"
    vector = await embedder.embed([query])
    filters = SearchFilters(collections=["notes"])
    plain = await backend.search_hybrid(query, vector, filters, 2)
    boosted = await backend.search_hybrid(query, vector, filters, 2, recency_boost=0.5)
    assert boosted[0].segment.date == dt.date(2025, 3, 1)
    assert {h.segment.chunk_id: h.cosine for h in plain} == pytest.approx(
        {h.segment.chunk_id: h.cosine for h in boosted}
    )


@pytest.mark.parametrize(
    ("question", "widths_or_weights"),
    [
        ("Which panels are narrower than 4 ft?", {"1,134 mm", "40.2 in"}),
        ("Which panels are wider than 1.1 m?", {"1,134 mm", "1.303 m"}),
        ("Which panels are lighter than 25 kg?", {"21.5 kg", "39.7 lb"}),
        ("Which panels weigh at most 700 oz?", {"39.7 lb"}),
    ],
)
async def test_a_questions_quantity_compares_in_the_documents_units(
    knowledge: tuple[Any, Any], question: str, widths_or_weights: set[str]
) -> None:
    quantities = UnitQuantityReader(units=UnitNormalizer())
    intake = run_intake(question, today=dt.date(2026, 11, 21), quantities=quantities)
    numeric = [
        NumericFilter(label=n.label, operator=n.operator, value=n.value, unit=n.unit) for n in intake.signals.numbers
    ]
    found = await _search(knowledge, AnnotationQuery(numeric=numeric))
    assert {a.value for a in found.annotations} == widths_or_weights
