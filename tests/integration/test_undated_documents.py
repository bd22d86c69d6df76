"""Undated documents (no stated date, no modification time in its place) search like the rest."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from adapters.search.embedded import EmbeddedSearchBackend
from bots.bootstrap import all_loaders
from core.clock import FixedClock
from core.concurrency import CpuExecutor
from core.contracts import SearchFilters
from core.ingest.pipeline import Ingestor
from tests.fakes import DIMENSION, HashingEmbedder, InMemoryRegistry, InMemorySearchBackend

QUERY = "When does the canteen serve lunch?"


@pytest.mark.parametrize("kind", ["in-memory", "embedded"])
async def test_undated_documents_are_found_boosted_never_and_kept_out_of_date_windows(
    tmp_path: Path, executor: CpuExecutor, kind: str
) -> None:
    for name in ("2021-03-01-canteen.md", "2025-03-01-canteen.md", "canteen-notice.md"):
        (tmp_path / name).write_text(
            "# Canteen notice\n\nThe canteen serves lunch from 12:00 to 14:00.\n", encoding="utf-8"
        )
    embedder = HashingEmbedder()
    backend = (
        InMemorySearchBackend()
        if kind == "in-memory"
        else EmbeddedSearchBackend(
            path=tmp_path / "search.sqlite3", executor=executor, model_name=embedder.model_name, dimension=DIMENSION
        )
    )
    registry = InMemoryRegistry()
    ingestor = Ingestor(
        loaders=all_loaders(),
        embedder=embedder,
        backend=backend,
        registry=registry,
        executor=executor,
        clock=FixedClock(at=dt.datetime(2026, 11, 21)),
    )
    assert (await ingestor.ingest([tmp_path])).ok
    assert sorted((r.date for r in await registry.list_documents()), key=str) == [
        dt.date(2021, 3, 1),
        dt.date(2025, 3, 1),
        None,
    ]
    vector = await embedder.embed([QUERY])
    boosted = await backend.search_hybrid(QUERY, vector, SearchFilters(), 10, recency_boost=0.5)
    segments = [h.segment for h in boosted if h.segment.kind == "segment"]
    # The newest first; the undated one is still found, with no bonus (as the oldest gets).
    assert segments[0].date == dt.date(2025, 3, 1)
    assert {s.date for s in segments[1:]} == {dt.date(2021, 3, 1), None}
    window = SearchFilters(date_start=dt.date(2025, 1, 1), date_end=dt.date(2025, 12, 31))
    inside = await backend.search_hybrid(QUERY, vector, window, 10)
    assert {h.segment.date for h in inside} == {dt.date(2025, 3, 1)}
    await backend.close()
