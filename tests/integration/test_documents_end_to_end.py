"""Every document type through ingestion; broken files reported; real filings read; a 30-page PDF cited by page."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from adapters.annotations.extract import Annotator
from adapters.annotations.units import UnitNormalizer, UnitQuantityReader
from adapters.search.embedded import EmbeddedSearchBackend
from bots.bootstrap import all_loaders
from core.calibration import Calibration
from core.clock import FixedClock
from core.concurrency import CpuExecutor
from core.contracts import SearchFilters, Turn
from core.ingest.pipeline import Ingestor
from core.llm.gateway import LlmGateway
from core.orchestrator.graph import AnswerGraph
from tests.documents import write_corrupt, write_delimited, write_docx, write_html, write_jsonl, write_pdf
from tests.fakes import HashingEmbedder, InMemoryRegistry, InMemorySearchBackend
from tests.pdf_documents import protect, with_large_array, write_filing, write_scan

CLOCK = FixedClock(at=dt.datetime(2026, 11, 21, 9, 0))


def _ingestor(backend: Any, embedder: Any, executor: CpuExecutor, registry: Any | None = None) -> Ingestor:
    return Ingestor(
        loaders=all_loaders(),
        annotator=Annotator(units=UnitNormalizer()),
        embedder=embedder,
        backend=backend,
        registry=registry or InMemoryRegistry(),
        executor=executor,
        clock=CLOCK,
    )


async def test_good_files_go_in_and_broken_ones_are_reported(tmp_path: Path, executor: CpuExecutor) -> None:
    good = [
        write_pdf(tmp_path / "manual.pdf", pages=2),
        write_docx(tmp_path / "guide.docx"),
        write_html(tmp_path / "offices.html"),
        write_delimited(tmp_path / "stock.csv", [["sku", "qty"], ["A1", "4"]]),
        write_delimited(tmp_path / "stock.tsv", [["sku", "qty"], ["B2", "7"]], "\t"),
        write_jsonl(tmp_path / "faq.jsonl", [{"title": "Parking", "text": "Visitors park in lot C."}]),
    ]
    broken = write_corrupt(tmp_path / "broken")
    report = await _ingestor(InMemorySearchBackend(), HashingEmbedder(), executor).ingest([tmp_path])
    assert sorted(report.added) == sorted(str(p) for p in good)
    failed = dict(report.failed)
    assert set(failed) == {str(p) for p in broken.values()}
    assert all(reason for reason in failed.values())
    assert not report.ok


async def test_a_folder_of_filings_goes_in_and_unreadable_pdfs_are_reported(
    tmp_path: Path, executor: CpuExecutor
) -> None:
    source = write_filing(tmp_path / "filing.pdf", pages=3)
    folder = tmp_path / "filings"
    folder.mkdir()
    good = write_filing(folder / "acme 2023 Q3.pdf", cover="Acme Turbines Inc. Third quarter report.")
    restricted = protect(source, folder / "acme-restricted.pdf")
    large = with_large_array(source, folder / "acme-large.pdf", "Backlog reached 4,210 units")
    locked = protect(source, folder / "acme-locked.pdf", user_password="s3cret")
    broken = folder / "acme-broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n1 0 obj<<>>\ngarbage without xref or pages")
    scan = write_scan(folder / "acme-scan.pdf")
    backend, registry = InMemorySearchBackend(), InMemoryRegistry()
    report = await _ingestor(backend, HashingEmbedder(), executor, registry).ingest([folder])

    assert sorted(report.added) == sorted(str(p) for p in (good, restricted, large))
    assert dict(report.failed) == {
        str(locked): "the PDF needs a password to open (a user password is set); save an unprotected copy to ingest it",
        str(broken): "not a readable PDF (the file is damaged or not a PDF)",
        str(scan): "no extractable text (a scanned PDF needs OCR first)",
    }
    dates = {Path(r.source_path).name: r.date for r in await registry.list_documents()}
    assert dates == {
        "acme 2023 Q3.pdf": dt.date(2023, 9, 30),
        "acme-restricted.pdf": dt.date(2023, 6, 30),
        "acme-large.pdf": dt.date(2023, 6, 30),
    }
    assert {s.page for s in backend.segments.values() if "Net revenue" in s.text} == {2, 3}
    assert any("Backlog reached 4,210 units" in s.text and s.page == 1 for s in backend.segments.values())


async def test_sync_removes_documents_whose_files_are_gone(tmp_path: Path, executor: CpuExecutor) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.md").write_text(f"# {name}\n\nText of {name}.\n", encoding="utf-8")
    backend, registry = InMemorySearchBackend(), InMemoryRegistry()
    ingestor = _ingestor(backend, HashingEmbedder(), executor, registry)
    await ingestor.ingest([tmp_path])
    (tmp_path / "b.md").unlink()
    kept = await ingestor.ingest([tmp_path])
    assert kept.removed == [] and len(await registry.list_documents()) == 2
    synced = await ingestor.ingest([tmp_path], sync=True)
    assert synced.removed == [str(tmp_path / "b.md")]
    assert [r.title for r in await registry.list_documents()] == ["a"]
    assert {s.title for s in backend.segments.values()} == {"a"}


async def test_a_30_page_pdf_is_cited_by_page(tmp_path: Path, onnx_embedder: Any, executor: CpuExecutor) -> None:
    write_pdf(tmp_path / "manual.pdf", pages=30)
    backend = EmbeddedSearchBackend(
        path=tmp_path / "search.sqlite3",
        executor=executor,
        model_name=onnx_embedder.model_name,
        dimension=onnx_embedder.dimension,
    )
    report = await _ingestor(backend, onnx_embedder, executor).ingest([tmp_path / "manual.pdf"])
    assert report.ok and report.segments >= 30
    vector = await onnx_embedder.embed(["Hazel-17"])
    hits = await backend.search_hybrid("Hazel-17", vector, SearchFilters(), 50)
    assert {h.segment.page for h in hits} <= set(range(1, 31)) and hits[0].segment.page == 17

    graph = AnswerGraph(
        backend=backend,
        embedder=onnx_embedder,
        calibration=Calibration(model="all-MiniLM-L6-v2"),
        clock=CLOCK,
        quantities=UnitQuantityReader(units=UnitNormalizer()),
        llm=LlmGateway(),
    )
    turn = Turn(
        platform="cli",
        tenant="t",
        channel_key="cli",
        thread="t",
        user="u",
        message_key="cli:pdf",
        text="How often must the Hazel-17 gearbox be inspected?",
        received_at=CLOCK.now(),
    )
    result = await graph.run(turn, collections=None)
    assert result.kind == "answer", result.answer
    assert "1700 operating hours" in " ".join(result.answer.split())
    assert result.citations[0].page == 17
    await backend.close()
