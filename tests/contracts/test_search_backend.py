"""The `SearchBackend` contract: designed properties every backend has (SPEC section 4).

It checks properties — the relevant document ranks first, filters exclude, deletes remove —
not identical result lists, so the Elasticsearch backend can run it unchanged.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from core.contracts import SearchFilters
from core.knowledge import DocumentRecord, Segment
from tests.conftest import close_backend, elasticsearch_backend
from tests.fakes import HashingEmbedder, InMemorySearchBackend

DOCS = {
    "leave": (
        "hr",
        dt.date(2023, 5, 1),
        "Parental leave",
        "Every new parent receives 20 weeks of paid parental leave.",
    ),
    "expenses": (
        "hr",
        dt.date(2021, 2, 1),
        "Expense claims",
        "Submit expense claims within 30 days with receipts.",
    ),
    "deploy": (
        "eng",
        dt.date(2024, 7, 1),
        "Release pipeline",
        "The deployment pipeline runs integration tests before every release.",
    ),
    "panel": (
        "eng",
        None,
        "Solar panel",
        "The solar panel width is 1134 millimetres and it weighs 21.5 kilograms.",
    ),
}


@pytest.fixture(params=["in-memory", "embedded", pytest.param("elasticsearch", marks=pytest.mark.elasticsearch)])
async def indexed(
    request: pytest.FixtureRequest, tmp_path: Path, onnx_embedder: Any, executor: Any
) -> AsyncIterator[tuple[Any, Any]]:
    """A backend holding DOCS, with the embedder that indexed them."""
    if request.param == "in-memory":
        backend: Any = InMemorySearchBackend()
        embedder: Any = HashingEmbedder()
    elif request.param == "elasticsearch":
        embedder = onnx_embedder
        backend = await elasticsearch_backend(onnx_embedder.dimension)
    else:
        from adapters.search.embedded import EmbeddedSearchBackend

        embedder = request.getfixturevalue("onnx_embedder")
        backend = EmbeddedSearchBackend(
            path=tmp_path / "search.sqlite3",
            executor=request.getfixturevalue("executor"),
            model_name=embedder.model_name,
            dimension=embedder.dimension,
        )
    for doc_id, (collection, date, title, text) in DOCS.items():
        await index(backend, embedder, doc_id, collection, date, title, text)
    yield backend, embedder
    await close_backend(backend)


async def index(backend: Any, embedder: Any, doc_id: str, collection: str, date: Any, title: str, text: str) -> None:
    record = DocumentRecord(
        doc_id=doc_id,
        collection=collection,
        title=title,
        source_path=f"/{doc_id}.md",
        relative_path=f"{doc_id}.md",
        date=date,
        media_type="text/markdown",
        content_hash=doc_id,
    )
    segment = Segment(
        chunk_id=f"{doc_id}:0",
        doc_id=doc_id,
        collection=collection,
        position=0,
        text=text,
        title=title,
        date=date,
    )
    await backend.upsert_document(record, [segment], await embedder.embed([segment.embedding_text()]))
    await backend.refresh()


async def _search(backend: Any, embedder: Any, mode: str, query: str, filters: SearchFilters) -> list[Any]:
    vector = await embedder.embed([query])
    if mode == "text":
        return list(await backend.search_text(query, filters, 10, vector))
    if mode == "vector":
        return list(await backend.search_vector(vector, filters, 10))
    return list(await backend.search_hybrid(query, vector, filters, 10))


MODES = ["text", "vector", "hybrid"]


@pytest.mark.parametrize("mode", MODES)
async def test_relevant_document_ranks_first(indexed: tuple[Any, Any], mode: str) -> None:
    hits = await _search(*indexed, mode, "how many weeks of parental leave", SearchFilters())
    assert hits[0].segment.doc_id == "leave"
    assert len({h.segment.chunk_id for h in hits}) == len(hits)
    assert all(-1.0 <= h.cosine <= 1.0 for h in hits)


@pytest.mark.parametrize("mode", MODES)
async def test_collection_filter_excludes(indexed: tuple[Any, Any], mode: str) -> None:
    hits = await _search(*indexed, mode, "parental leave weeks", SearchFilters(collections=["eng"]))
    assert all(h.segment.collection == "eng" for h in hits)
    assert await _search(*indexed, mode, "parental leave", SearchFilters(collections=[])) == []


@pytest.mark.parametrize("mode", MODES)
async def test_date_filter_excludes_out_of_range_and_undated(indexed: tuple[Any, Any], mode: str) -> None:
    window = SearchFilters(date_start=dt.date(2024, 1, 1), date_end=dt.date(2024, 12, 31))
    hits = await _search(*indexed, mode, "release pipeline tests solar panel", window)
    assert {h.segment.doc_id for h in hits} <= {"deploy"}
    assert hits, "the in-range document must be found"


async def test_hybrid_orders_by_fused_score_and_reports_ranks(indexed: tuple[Any, Any]) -> None:
    hits = await _search(*indexed, "hybrid", "solar panel width in millimetres", SearchFilters())
    assert hits[0].segment.doc_id == "panel"
    scores = [h.rrf_score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert hits[0].vector_rank is not None


async def test_upsert_replaces_and_delete_removes(indexed: tuple[Any, Any]) -> None:
    backend, embedder = indexed
    await index(
        backend,
        embedder,
        "leave",
        "hr",
        dt.date(2025, 1, 1),
        "Parental leave",
        "Parents now receive 26 weeks of parental leave.",
    )
    hits = await _search(backend, embedder, "hybrid", "parental leave weeks", SearchFilters())
    leave = [h for h in hits if h.segment.doc_id == "leave"]
    assert len(leave) == 1 and "26 weeks" in leave[0].segment.text
    await backend.delete_document("leave")
    await backend.refresh()
    hits = await _search(backend, embedder, "hybrid", "parental leave weeks", SearchFilters())
    assert all(h.segment.doc_id != "leave" for h in hits)
    health = await backend.health()
    assert health.ok and health.documents == 3 and health.segments == 3


async def test_segments_at_returns_the_segments_stored_at_those_places(indexed: tuple[Any, Any]) -> None:
    backend, embedder = indexed
    record = DocumentRecord(
        doc_id="plan",
        collection="eng",
        title="Settlement plan",
        source_path="/plan.md",
        relative_path="plan.md",
        media_type="text/markdown",
        content_hash="plan",
    )
    texts = ["Settlements will require three kinds of terms:", "Advanced monitoring.", "Electronic reporting."]
    segments = [
        Segment(chunk_id=f"plan:{i}", doc_id="plan", collection="eng", position=i, text=t, title=record.title)
        for i, t in enumerate(texts)
    ]
    await backend.upsert_document(record, segments, await embedder.embed([s.embedding_text() for s in segments]))
    await backend.refresh()
    found = await backend.segments_at([("plan", 1), ("plan", 2), ("plan", 3), ("leave", 1), ("deploy", 0)])
    assert sorted((s.doc_id, s.position, s.text) for s in found) == [
        ("deploy", 0, DOCS["deploy"][3]),
        ("plan", 1, "Advanced monitoring."),
        ("plan", 2, "Electronic reporting."),
    ]
    assert await backend.segments_at([]) == []
