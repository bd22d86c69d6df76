"""The ingestion pipeline: files → loaded documents → segments → embeddings → backend + registry."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from core.concurrency import CpuExecutor
from core.errors import SearchUnavailableError
from core.ingest.facets import describe
from core.ingest.fields import join_fields
from core.ingest.files import discover, document_id, hash_file, unreadable
from core.ingest.furniture import strip_furniture
from core.ingest.index import listed_files, with_kind
from core.ingest.segmenter import Segmenter
from core.ingest.shape import detect_category, summarize
from core.knowledge import DEFAULT_COLLECTION, Annotation, DocumentRecord, LoadedDocument, Segment
from core.ports import Annotator, Clock, DocumentLoader, DocumentRegistry, Embedder, SearchBackend
from core.text import normalize_label

Outcome = Literal["added", "updated", "unchanged", "failed", "unsupported", "removed", "index"]

READING = 9
"""The version of how a file is read into segments, facts and facets. Raise it when that reading changes (signature
blocks in 2, written "…, signed <date>" in 3; a file name's code spelled out by the text in 4; an item's number
heading the sentence after it in 7; segments ending where sentences do and names as whole words in 8; a line that
stops on "of" or "which" read with the next in 9; 6, a page-break reading, was reverted): the next run reads files it
had read before again, reported as updated, so an upgrade reaches documents already ingested."""


class IngestProgress(Protocol):
    """Told how many files there are, then of each file's outcome."""

    def start(self, total: int) -> None: ...

    def advance(self, path: Path, outcome: Outcome) -> None: ...


@dataclass
class IngestReport:
    """What one ingest run did, file by file."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    indexes: list[tuple[str, int]] = field(default_factory=list)
    """Tables that list the collection's files (`core.ingest.index`), with how many they describe:
    read for the documents' kinds, not searched."""
    segments: int = 0
    annotations: int = 0
    stopped: str | None = None
    """Why the run stopped writing (the search index became unreachable); the rest is in `failed`."""

    @property
    def ok(self) -> bool:
        """True when no file failed."""
        return not self.failed


@dataclass
class _Pending:
    path: Path
    record: DocumentRecord
    segments: list[Segment]
    annotations: list[Annotation]
    outcome: Outcome
    moved_from: DocumentRecord | None = None  # the same file's record at a path that is gone


def _not_written(report: IngestReport, path: Path, progress: IngestProgress | None) -> None:
    """A file left unwritten because the search index became unreachable during the run."""
    report.failed.append((str(path), f"not written: {report.stopped}; run the ingestion again once it is back"))
    if progress:
        progress.advance(path, "failed")


class Ingestor:
    """Ingests files into a search backend, skipping files whose content has not changed."""

    def __init__(
        self,
        *,
        loaders: Sequence[DocumentLoader],
        embedder: Embedder,
        backend: SearchBackend,
        registry: DocumentRegistry,
        executor: CpuExecutor,
        clock: Clock,
        annotator: Annotator | None = None,
        source_base_url: str | None = None,
        batch_segments: int = 1024,
    ) -> None:
        self._loaders = {suffix: loader for loader in loaders for suffix in loader.suffixes}
        self._embedder = embedder
        self._backend = backend
        self._registry = registry
        self._executor = executor
        self._clock = clock
        self._annotator = annotator
        self._known_labels: set[str] | None = None
        self._base_url = source_base_url.rstrip("/") + "/" if source_base_url else None
        self._batch = batch_segments
        self._segmenter = Segmenter(count_tokens=embedder.count_tokens, max_seq_length=embedder.max_seq_length)

    async def ingest(
        self,
        paths: Sequence[Path],
        *,
        collection: str = DEFAULT_COLLECTION,
        progress: IngestProgress | None = None,
        sync: bool = False,
    ) -> IngestReport:
        """Ingest every file under `paths` into `collection`; broken files are reported, not fatal.

        With `sync`, documents of the collection whose files under `paths` are gone are removed.
        """
        files = discover(paths)
        report = IngestReport()
        if progress:
            progress.start(len(files))
        pending: list[_Pending] = []
        gone = await self._gone(collection)
        indexes = await self._indexes(files)
        kinds = {doc: kind for listed in indexes.values() for doc, kind in listed.items() if kind}
        for path, root in files:
            if report.stopped:
                _not_written(report, path, progress)
                continue
            if path in indexes:
                outcome: Outcome | None = await self._as_index(path, collection, len(indexes[path]), report)
            else:
                outcome = await self._prepare(path, root, collection, report, pending, gone, kinds.get(path))
            if outcome is not None and progress:
                progress.advance(path, outcome)
            if sum(len(p.segments) for p in pending) >= self._batch:
                await self._flush(pending, report, progress)
        await self._flush(pending, report, progress)
        if sync and not report.stopped:
            await self._remove_missing(paths, {str(p) for p, _ in files}, collection, report, progress)
        await self._refresh(report)
        return report

    async def ingest_documents(
        self,
        documents: Sequence[tuple[str, LoadedDocument]],
        *,
        collection: str = DEFAULT_COLLECTION,
        progress: IngestProgress | None = None,
    ) -> IngestReport:
        """Ingest already-loaded documents (a benchmark corpus), each under its own source id."""
        report = IngestReport()
        if progress:
            progress.start(len(documents))
        pending: list[_Pending] = []
        for source_id, loaded in documents:
            if report.stopped:
                _not_written(report, Path(source_id), progress)
                continue
            text = "\n".join(b.text for b in loaded.blocks)
            content_hash = hashlib.sha256(text.encode()).hexdigest()
            previous = await self._registry.find(collection, source_id)
            if previous is not None and previous.content_hash == content_hash:
                report.unchanged.append(source_id)  # already indexed: a rerun only measures
                continue
            record = DocumentRecord(
                doc_id=source_id,
                collection=collection,
                title=loaded.title,
                source_path=source_id,
                relative_path=source_id,
                date=loaded.date,
                media_type=loaded.media_type,
                content_hash=content_hash,
            )
            segments, annotations = await self._executor.run(self._shape, loaded, record)
            pending.append(_Pending(Path(source_id), record, segments, annotations, "added"))
            if sum(len(p.segments) for p in pending) >= self._batch:
                await self._flush(pending, report, progress)
        await self._flush(pending, report, progress)
        await self._refresh(report)
        return report

    async def _refresh(self, report: IngestReport) -> None:
        """Make the run's writes searchable; a backend that fails here is reported, not raised, so the
        run's report (what was written) still reaches the person."""
        try:
            await self._backend.refresh()
        except Exception as exc:
            report.failed.append(("(search index)", f"written but not yet searchable: {type(exc).__name__}: {exc}"))

    async def _remove_missing(
        self,
        paths: Sequence[Path],
        present: set[str],
        collection: str,
        report: IngestReport,
        progress: IngestProgress | None,
    ) -> None:
        roots = [p.resolve() for p in paths]
        for record in await self._registry.list_documents(collection):
            source = Path(record.source_path)
            under = any(source == root or root in source.parents for root in roots)
            if under and record.source_path not in present:
                await self._backend.delete_document(record.doc_id)
                await self._registry.remove(record.doc_id)
                report.removed.append(record.source_path)
                if progress:
                    progress.advance(source, "removed")

    async def _indexes(self, files: list[tuple[Path, Path]]) -> dict[Path, dict[Path, str | None]]:
        """The tables among `files` that list the others (`core.ingest.index`), with what they list.
        A table that cannot be read here is ingested as any file, and reported there if broken."""
        present = {path for path, _ in files}
        roots = list(dict.fromkeys(root for _, root in files))
        found: dict[Path, dict[Path, str | None]] = {}
        for path, _ in files:
            loader = self._loaders.get(path.suffix.lower())
            if loader is None or path.suffix.lower() not in (".csv", ".tsv"):
                continue
            try:
                loaded = await self._executor.run(loader.load, path)
            except Exception:  # broken: `_prepare` reports it
                continue
            if loaded.tables and (listed := listed_files(loaded.tables[0], path.parent, roots, present)):
                found[path] = listed
        return found

    async def _as_index(self, path: Path, collection: str, described: int, report: IngestReport) -> Outcome:
        """An index is not a document: a copy ingested before it was known as one is removed."""
        previous = await self._registry.find(collection, str(path))
        if previous is not None:
            await self._backend.delete_document(previous.doc_id)
            await self._registry.remove(previous.doc_id)
        report.indexes.append((str(path), described))
        return "index"

    async def _gone(self, collection: str) -> dict[str, DocumentRecord]:
        """The collection's documents whose files are no longer where they were read, by content hash.

        General case: a folder moved or renamed and ingested again from its new place. Its files
        are the documents already indexed; kept under the old paths as well, every document would
        be there twice (and every total counted twice), with no path left to `--sync`."""
        records = await self._registry.list_documents(collection)
        missing = await self._executor.run(lambda: [r for r in records if not Path(r.source_path).exists()])
        return {r.content_hash: r for r in missing}

    async def _prepare(
        self,
        path: Path,
        root: Path,
        collection: str,
        report: IngestReport,
        pending: list[_Pending],
        gone: dict[str, DocumentRecord] | None = None,
        kind: str | None = None,
    ) -> Outcome | None:
        """Load and segment one file; returns its outcome now, or None while it awaits embedding."""
        loader = self._loaders.get(path.suffix.lower())
        if loader is None:
            report.unsupported.append(str(path))
            return "unsupported"
        try:
            content_hash = await self._executor.run(hash_file, path)
            previous = await self._registry.find(collection, str(path))
            # A document read by an older version of the reading (or never described) is read again.
            # … and one whose kind an index changed, too.
            facets = previous.facets if previous is not None else None
            read = facets.reading if facets is not None and (kind is None or facets.kind == kind) else None
            if previous is not None and previous.content_hash == content_hash and read == READING:
                report.unchanged.append(str(path))
                return "unchanged"
            loaded = await self._executor.run(loader.load, path)
            record = await self._executor.run(self._record, path, root, collection, loaded, content_hash, kind)
            segments, annotations = await self._executor.run(self._shape, loaded, record)
        except Exception as exc:  # a broken file must not stop the run
            report.failed.append((str(path), unreadable(exc)))
            return "failed"
        outcome: Outcome = "updated" if previous is not None else "added"
        moved_from = gone.pop(content_hash, None) if gone is not None and previous is None else None
        pending.append(_Pending(path, record, segments, annotations, outcome, moved_from))
        return None

    def _shape(self, loaded: LoadedDocument, record: DocumentRecord) -> tuple[list[Segment], list[Annotation]]:
        """Segments, annotations, category and summaries of one document (CPU work); its running
        headers and footers are left out and form fields joined (the facets read it as it was)."""
        loaded = join_fields(strip_furniture(loaded))
        segments = self._segmenter.segment(loaded, record)
        annotations = self._annotator.annotate(loaded, record, segments) if self._annotator else []
        record.category = detect_category(loaded, segments, annotations)
        for annotation in annotations:
            annotation.category = record.category
        summaries = summarize(record, segments, self._embedder.count_tokens)
        return segments + summaries, annotations

    async def _flush(self, pending: list[_Pending], report: IngestReport, progress: IngestProgress | None) -> None:
        """Embed the pending documents' segments in one batch and write each document."""
        if not pending:
            return
        texts = [s.embedding_text() for p in pending for s in p.segments]
        vectors = await self._embedder.embed(texts)
        rows = vectors.tolist() if len(texts) else []
        offset = 0
        for item in pending:
            count = len(item.segments)
            offset += count
            if report.stopped:
                _not_written(report, item.path, progress)
                continue
            item.record.segment_count = sum(1 for s in item.segments if s.kind == "segment")
            item.record.ingested_at = self._clock.now()
            try:
                await self._backend.upsert_document(
                    item.record, item.segments, _Rows(rows[offset - count : offset]), item.annotations
                )
                await self._registry.save(item.record)
                await self._embed_labels(item.annotations)
            except Exception as exc:
                await self._undo(item.record.doc_id)
                if isinstance(exc, SearchUnavailableError):
                    report.stopped = str(exc)
                    _not_written(report, item.path, progress)
                    continue
                report.failed.append((str(item.path), f"{type(exc).__name__}: {exc}"))
                if progress:
                    progress.advance(item.path, "failed")
                continue
            if item.moved_from is not None:
                # Written at its new path: the copy indexed under the path that is gone goes.
                await self._backend.delete_document(item.moved_from.doc_id)
                await self._registry.remove(item.moved_from.doc_id)
                report.removed.append(item.moved_from.source_path)
            report.segments += sum(1 for s in item.segments if s.kind == "segment")
            report.annotations += len(item.annotations)
            getattr(report, item.outcome).append(str(item.path))
            if progress:
                progress.advance(item.path, item.outcome)
        pending.clear()

    async def _undo(self, doc_id: str) -> None:
        """A document whose write failed is in neither the registry nor, when the backend still
        answers, the index: nothing stays half-written. When the backend is gone, what it kept is
        replaced by the next run (a write deletes the document's old entries first), because the
        registry no longer lists the document."""
        for step in (self._registry.remove, self._backend.delete_document):
            try:
                await step(doc_id)
            except Exception:  # unreachable: the next run replaces what is there; the file is reported
                continue

    async def _embed_labels(self, annotations: Sequence[Annotation]) -> None:
        """Embed labels the backend has not seen, for fuzzy label matching ("qty" → "Quantity")."""
        if self._known_labels is None:
            self._known_labels = set(await self._backend.known_labels())
        labels = {a.label for a in annotations if a.kind == "fact"}
        labels.update(c for a in annotations if a.kind == "row" for c in a.properties)
        new = sorted(label for label in labels if normalize_label(label) not in self._known_labels)
        if new:
            await self._backend.upsert_labels(new, await self._embedder.embed(new))
            self._known_labels.update(normalize_label(label) for label in new)

    def _record(
        self, path: Path, root: Path, collection: str, loaded: LoadedDocument, content_hash: str, kind: str | None
    ) -> DocumentRecord:
        relative = path.relative_to(root).as_posix()
        url = loaded.url or (self._base_url + relative if self._base_url else None)
        facets = describe(loaded, path.name).model_copy(update={"reading": READING})
        if kind:  # the kind a collection's index gives (`core.ingest.index`)
            titled = with_kind(facets.title, kind)
            facets = facets.model_copy(update={"kind": kind, "kind_from": "index", "title": titled})
        return DocumentRecord(
            doc_id=document_id(collection, str(path)),
            collection=collection,
            title=facets.title,
            facets=facets,
            source_path=str(path),
            relative_path=relative,
            url=url,
            date=loaded.date,
            media_type=loaded.media_type,
            content_hash=content_hash,
        )


class _Rows:
    """A slice of an embedding matrix as plain rows (satisfies the `Embeddings` port)."""

    def __init__(self, rows: list[list[float]]) -> None:
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    def tolist(self) -> list[list[float]]:
        return self._rows
