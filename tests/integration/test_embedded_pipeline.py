"""The real model, the embedded backend and SQL storage together on the sample corpus."""

from __future__ import annotations

import asyncio
import datetime as dt
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from adapters.annotations.extract import Annotator
from adapters.annotations.units import UnitNormalizer
from adapters.search.embedded import EmbeddedSearchBackend
from bots.bootstrap import all_loaders
from core.clock import FixedClock
from core.contracts import SearchFilters
from core.ingest.pipeline import Ingestor
from core.knowledge import DocumentRecord, Segment
from storage.database import Database, NotMigratedError
from storage.repositories import SqlDocumentRegistry
from tests.conftest import SAMPLE_CORPUS
from tests.fakes import HashingEmbedder, InMemoryRegistry

CLOCK = FixedClock(at=dt.datetime(2026, 11, 21, 9, 0))


def _ingestor(backend: Any, embedder: Any, executor: Any, registry: Any) -> Ingestor:
    return Ingestor(
        loaders=all_loaders(),
        annotator=Annotator(units=UnitNormalizer()),
        embedder=embedder,
        backend=backend,
        registry=registry,
        executor=executor,
        clock=CLOCK,
    )


def _model_backend(tmp_path: Path, embedder: Any, executor: Any) -> EmbeddedSearchBackend:
    """An embedded index in `tmp_path` for the real model's vectors."""
    return EmbeddedSearchBackend(
        path=tmp_path / "search.sqlite3",
        executor=executor,
        model_name=embedder.model_name,
        dimension=embedder.dimension,
    )


async def test_sample_corpus_ingests_once_and_updates_changed_files(
    tmp_path: Path, database: Database, onnx_embedder: Any, executor: Any
) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLE_CORPUS, corpus)
    backend = _model_backend(tmp_path, onnx_embedder, executor)
    ingestor = _ingestor(backend, onnx_embedder, executor, SqlDocumentRegistry(database=database))
    first = await ingestor.ingest([corpus])
    markdown_and_text = [p for p in corpus.rglob("*") if p.is_file()]
    assert len(first.added) == len(markdown_and_text) and first.ok
    assert first.unsupported == [] and first.annotations > 400
    health = await backend.health()
    assert health.documents == len(markdown_and_text) and health.segments == first.segments

    second = await ingestor.ingest([corpus])
    assert (second.added, second.updated, second.segments) == ([], [], 0)
    assert len(second.unchanged) == len(markdown_and_text)
    assert (await backend.health()).segments == first.segments

    handbook = corpus / "handbook" / "employee-handbook.md"
    handbook.write_text(handbook.read_text().replace("27 days", "28 days"), encoding="utf-8")
    third = await ingestor.ingest([corpus])
    assert third.updated == [str(handbook)] and third.added == []
    vector = await onnx_embedder.embed(["annual leave days"])
    hits = await backend.search_hybrid("annual leave days", vector, SearchFilters(), 5)
    texts = " ".join(h.segment.text for h in hits)
    assert "28 days" in texts and "27 days" not in texts
    assert (await backend.health()).documents == len(markdown_and_text)
    await backend.close()


async def test_a_reader_sees_another_writers_documents(tmp_path: Path, onnx_embedder: Any, executor: Any) -> None:
    path = tmp_path / "search.sqlite3"
    kwargs = {
        "path": path,
        "executor": executor,
        "model_name": onnx_embedder.model_name,
        "dimension": onnx_embedder.dimension,
    }
    reader = EmbeddedSearchBackend(**kwargs)
    writer = EmbeddedSearchBackend(**kwargs)
    query = "how often are tyres checked"
    vector = await onnx_embedder.embed([query])
    assert await reader.search_hybrid(query, vector, SearchFilters(), 5) == []
    (tmp_path / "fleet.md").write_text("# Fleet\n\nDrivers check tyre pressure every week.\n", encoding="utf-8")
    registry = InMemoryRegistry()
    await _ingestor(writer, onnx_embedder, executor, registry).ingest([tmp_path / "fleet.md"])
    hits = await reader.search_hybrid(query, vector, SearchFilters(), 5)
    assert [h.segment.title for h in hits] == ["Fleet"]
    await reader.close()
    await writer.close()


def test_index_refuses_another_model(tmp_path: Path, executor: Any) -> None:
    EmbeddedSearchBackend(path=tmp_path / "s.sqlite3", executor=executor, model_name="a", dimension=3)
    with pytest.raises(ValueError, match="built with a"):
        EmbeddedSearchBackend(path=tmp_path / "s.sqlite3", executor=executor, model_name="b", dimension=3)


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def test_unmigrated_database_is_refused_until_upgraded(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "sqlite":
        db = Database(url=f"sqlite:///{tmp_path / 'fresh.db'}")
    else:
        import uuid

        url = request.getfixturevalue("postgres_url")
        schema = f"tw_{uuid.uuid4().hex[:12]}"
        admin = Database(url=url)
        async with admin.engine.begin() as connection:
            await connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        db = Database(url=url, search_path=schema)
    try:
        with pytest.raises(NotMigratedError, match="threadwise db upgrade"):
            await db.ensure_migrated()
        await db.upgrade()
        await db.ensure_migrated()
        await db.upgrade()  # idempotent
        assert await db.current_revision() == Database.head_revision()
    finally:
        await db.dispose()
        if kind != "sqlite":
            async with admin.engine.begin() as connection:
                await connection.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
            await admin.dispose()


HASHING = HashingEmbedder()


def _fake_backend(path: Path, executor: Any) -> EmbeddedSearchBackend:
    return EmbeddedSearchBackend(path=path, executor=executor, model_name="fake-hashing", dimension=512)


async def _put(backend: EmbeddedSearchBackend, doc_id: str, text: str) -> None:
    """One single-segment document, embedded by the hashing fake."""
    record = DocumentRecord(
        doc_id=doc_id,
        title=doc_id,
        source_path=f"/{doc_id}",
        relative_path=doc_id,
        media_type="text/plain",
        content_hash=doc_id,
    )
    segment = Segment(chunk_id=f"{doc_id}:0", doc_id=doc_id, collection="default", position=0, text=text, title=doc_id)
    await backend.upsert_document(record, [segment], await HASHING.embed([text]))


async def _bm25(backend: EmbeddedSearchBackend, query: str) -> list[str]:
    hits = await backend.search_text(query, SearchFilters(), 5, await HASHING.embed([query]))
    assert all((h.bm25_score or 0) > 0 for h in hits)
    return [h.segment.doc_id for h in hits]


async def test_an_index_written_before_tokens_were_stored_still_ranks_by_bm25(tmp_path: Path, executor: Any) -> None:
    path = tmp_path / "search.sqlite3"
    backend = _fake_backend(path, executor)
    await _put(backend, "fleet", "Winter tyres are fitted in October.")
    await backend.close()
    legacy = sqlite3.connect(path)
    legacy.execute("ALTER TABLE segments DROP COLUMN tokens")
    legacy.commit()
    legacy.close()

    reopened = _fake_backend(path, executor)
    assert await _bm25(reopened, "tyres") == ["fleet"]
    await reopened.close()


async def test_a_question_asked_again_is_not_encoded_again(onnx_embedder: Any) -> None:
    first = await onnx_embedder.embed(["How long is parental leave?"])
    again = await onnx_embedder.embed(["How long is parental leave?"])
    other = await onnx_embedder.embed(["How long is annual leave?"])
    assert again is first and not first.flags.writeable
    assert float(first[0] @ other[0]) < 0.999
    batch = await onnx_embedder.embed(["How long is parental leave?", "x"])
    assert np.allclose(batch[0], first[0], atol=1e-5)


async def test_another_processs_writes_reach_bm25_without_a_stall(tmp_path: Path, executor: Any) -> None:
    """A reader keeps answering from its BM25 index while a background rebuild takes in new rows;
    rows deleted meanwhile are never returned."""
    path = tmp_path / "search.sqlite3"
    reader, writer = _fake_backend(path, executor), _fake_backend(path, executor)
    await _put(writer, "old", "Winter tyres are fitted in October.")
    assert await _bm25(reader, "tyres") == ["old"]  # the reader's first search builds its index
    await writer.delete_document("old")
    await _put(writer, "new", "Summer tyres go back on in April.")
    assert "old" not in await _bm25(reader, "tyres")  # deleted: gone at once, before any rebuild
    for _ in range(100):
        if await _bm25(reader, "tyres") == ["new"]:
            break
        await asyncio.sleep(0.05)
    assert await _bm25(reader, "tyres") == ["new"]
    await reader.close()
    await writer.close()


async def test_a_new_process_loads_the_saved_bm25_index_instead_of_rebuilding(tmp_path: Path, executor: Any) -> None:
    path = tmp_path / "search.sqlite3"
    writer = _fake_backend(path, executor)
    await _put(writer, "fleet", "Tyres in October.")
    await writer.close()  # a process that wrote leaves the index saved
    assert [p.name for p in (tmp_path / "search.sqlite3.bm25").iterdir()] == ["1-1-1"]
    # Were the reader to re-index the stored tokens, "tyres" would no longer be found.
    db = sqlite3.connect(path)
    db.execute("UPDATE segments SET tokens = 'zzz'")
    db.commit()
    db.close()
    reader = _fake_backend(path, executor)
    assert await _bm25(reader, "tyres") == ["fleet"]
    await reader.close()


async def test_a_backend_that_cannot_refresh_is_reported_not_raised(tmp_path: Path, executor: Any) -> None:
    """What was written is still reported, and the refresh failure is one line of the report."""
    from tests.fakes import InMemorySearchBackend

    class Unrefreshable(InMemorySearchBackend):
        async def refresh(self) -> None:
            raise ConnectionError("cluster went away")

    (tmp_path / "note.md").write_text("# Canteen\n\nThe canteen opens at 12:00.\n", encoding="utf-8")
    report = await _ingestor(Unrefreshable(), HashingEmbedder(), executor, InMemoryRegistry()).ingest([tmp_path])
    assert report.added == [str(tmp_path / "note.md")]
    assert report.failed == [("(search index)", "written but not yet searchable: ConnectionError: cluster went away")]


async def test_files_read_by_an_older_reading_are_read_again(
    tmp_path: Path, database: Database, onnx_embedder: Any, executor: Any
) -> None:
    """An upgrade that reads documents differently (`READING`) reaches the files already ingested:
    their text is unchanged, but they are read again and reported as updated, once."""
    from core.ingest.pipeline import READING
    from tests.pdf_documents import write_report

    corpus = tmp_path / "reports"
    corpus.mkdir()
    write_report(
        corpus / "report.pdf",
        title="Harbor Agency Annual Report FY 2025",
        sections=[
            ("Message from the Director", "We served harbour users.", ["Tomas Verhoef", "Director", "May 4, 2026"])
        ],
    )
    backend = _model_backend(tmp_path, onnx_embedder, executor)
    registry = SqlDocumentRegistry(database=database)
    ingestor = _ingestor(backend, onnx_embedder, executor, registry)
    assert len((await ingestor.ingest([corpus])).added) == 1
    [record] = await registry.list_documents()
    assert record.facets is not None and record.facets.reading == READING
    # As an older version left it: described, but by an older reading.
    await registry.save(record.model_copy(update={"facets": record.facets.model_copy(update={"reading": 1})}))
    again = await ingestor.ingest([corpus])
    assert again.updated == [str(corpus / "report.pdf")] and again.unchanged == []
    [record] = await registry.list_documents()
    assert record.facets is not None and record.facets.reading == READING
    assert (await ingestor.ingest([corpus])).unchanged == [str(corpus / "report.pdf")]
    vector = await onnx_embedder.embed(["Tomas Verhoef"])
    hits = await backend.search_text("Tomas Verhoef", SearchFilters(), 5, vector)
    assert any("Tomas Verhoef: Director, signed May 4, 2026" in h.segment.text for h in hits)


async def test_a_moved_folder_ingested_again_replaces_its_documents(
    tmp_path: Path, database: Database, onnx_embedder: Any, executor: Any
) -> None:
    """A folder renamed and ingested from its new place holds the documents already indexed: they
    are not indexed twice (every count would double), and the old paths, gone, are removed."""
    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLE_CORPUS, corpus)
    backend = _model_backend(tmp_path, onnx_embedder, executor)
    registry = SqlDocumentRegistry(database=database)
    ingestor = _ingestor(backend, onnx_embedder, executor, registry)
    first = await ingestor.ingest([corpus])
    count = len(first.added)
    moved = corpus.rename(tmp_path / "renamed")
    again = await ingestor.ingest([moved])
    assert len(again.added) == count and sorted(again.removed) == sorted(first.added)
    records = await registry.list_documents()
    assert len(records) == count and all(r.source_path.startswith(str(moved)) for r in records)
    assert (await backend.health()).documents == count
    # A copy whose original is still in place is a document of its own.
    shutil.copy(moved / "handbook" / "employee-handbook.md", tmp_path / "copy.md")
    copy = await ingestor.ingest([tmp_path / "copy.md"])
    assert copy.added == [str(tmp_path / "copy.md")] and copy.removed == []
    await backend.close()
