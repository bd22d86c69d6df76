"""`threadwise eval behavior FILE`: the reviewed behaviour set, run through the real product."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field

from bots.bootstrap import App, build_app, build_turn_service
from bots.evaluation.baseline import plain_hybrid_answer
from bots.settings import Settings
from core.contracts import OrchestrationResult, Turn
from core.ingest.pipeline import IngestProgress
from core.llm.gateway import ChatModels
from core.orchestrator.graph import AnswerGraph
from core.orchestrator.service import OPERATOR_CHANNEL, TurnService


class Expectation(BaseModel):
    """What a case must show; every field is optional, lists mean "any of"."""

    route: str | list[str] | None = None
    branch: str | list[str] | None = None
    kind: str | list[str] | None = None
    band: str | list[str] | None = None
    final_reason: str | list[str] | None = None
    cites: list[str] = Field(default_factory=list)
    cites_only: list[str] = Field(default_factory=list)
    answer_contains: list[str] = Field(default_factory=list)
    answer_excludes: list[str] = Field(default_factory=list)
    table_total: int | None = None
    table_shown: int | None = None
    table_columns: list[str] = Field(default_factory=list)
    overflow: int | None = None
    years: list[int] | None = None
    citations_min: int | None = None
    notes_contains: list[str] = Field(default_factory=list)
    redacted: list[str] = Field(default_factory=list)


class Case(BaseModel):
    """One reviewed question, with the thread before it."""

    id: str
    question: str
    history: list[str] = Field(default_factory=list)
    channel: str | None = None
    reranker: str | None = None
    expect: Expectation


class CorpusEntry(BaseModel):
    path: str
    collection: str = "default"


class BehaviorSet(BaseModel):
    """The whole file."""

    corpus: list[CorpusEntry]
    clock: dt.datetime
    channels: dict[str, list[str]] = Field(default_factory=dict)
    channel_mismatch_probe: bool = False
    cases: list[Case]


def check(case: Case, result: OrchestrationResult, sources: dict[str, str]) -> list[str]:
    """Every way `result` differs from the case's expectation (empty when it passes)."""
    expect, problems = case.expect, []
    for name in ("route", "branch", "kind", "band", "final_reason"):
        wanted = getattr(expect, name)
        actual = result.route.route if name == "route" else getattr(result, name)
        if wanted is not None and actual not in ([wanted] if isinstance(wanted, str) else wanted):
            problems.append(f"{name}: expected {wanted}, got {actual}")
    cited = {sources.get(c.doc_id, c.doc_id) for c in result.citations} | {c.title for c in result.citations}
    problems += [f"does not cite {name}" for name in expect.cites if name not in cited]
    if expect.cites_only:
        stray = {sources.get(c.doc_id, c.doc_id) for c in result.citations} - set(expect.cites_only)
        problems += [f"cites {name}, outside {expect.cites_only}" for name in sorted(stray)]
    text = result.answer.lower()
    problems += [f"answer lacks “{s}”" for s in expect.answer_contains if s.lower() not in text]
    problems += [f"answer contains “{s}”" for s in expect.answer_excludes if s.lower() in text]
    table = result.table
    for name, wanted in (("total", expect.table_total), ("shown", expect.table_shown)):
        actual = getattr(table, name) if table else None
        if wanted is not None and actual != wanted:
            problems.append(f"table {name}: expected {wanted}, got {actual}")
    if expect.table_columns and (table is None or not set(expect.table_columns) <= set(table.columns)):
        problems.append(f"table columns: expected {expect.table_columns}, got {table.columns if table else None}")
    if expect.overflow is not None and result.overflow != expect.overflow:
        problems.append(f"overflow: expected {expect.overflow}, got {result.overflow}")
    if expect.years is not None:
        years = sorted({c.date.year for c in result.citations if c.date})
        if years != expect.years:
            problems.append(f"cited years: expected {expect.years}, got {years}")
    notes = " ".join(n for n in (result.applicability_note, result.uncertainty_note) if n).lower()
    problems += [f"notes lack “{s}”" for s in expect.notes_contains if s.lower() not in notes]
    dumped = result.model_dump_json()
    problems += [f"“{s}” was not redacted" for s in expect.redacted if s in dumped]
    if expect.citations_min is not None and len(result.citations) < expect.citations_min:
        problems.append(f"citations: expected at least {expect.citations_min}, got {len(result.citations)}")
    return problems


class BehaviorRunner:
    """Ingests the set's corpus into a data directory and asks every case through the turn service."""

    def __init__(
        self,
        *,
        spec: BehaviorSet,
        base: Path,
        settings: Settings,
        chat_models: ChatModels | None = None,
        corpus: Path | None = None,
        progress: IngestProgress | None = None,
    ) -> None:
        self._spec = spec
        self._base = base
        self._settings = settings
        self._chat_models = chat_models
        self._corpus = corpus
        self._progress = progress

    async def run(self) -> list[dict[str, Any]]:
        """Run every case; each outcome carries its full result for the report."""
        app = await build_app(self._settings, chat_models=self._chat_models)
        try:
            entries = [(self._base / e.path, e.collection) for e in self._spec.corpus]
            if self._corpus is not None:
                entries = [(self._corpus, "default")]
            for path, collection in entries:
                report = await app.ingestor.ingest([path.resolve()], collection=collection, progress=self._progress)
                if not report.ok:
                    raise RuntimeError(f"behaviour corpus failed to ingest: {report.failed}")
            for channel, collections in self._spec.channels.items():
                await app.storage.channels.set(channel, collections)
            sources = {r.doc_id: Path(r.relative_path).name for r in await app.storage.registry.list_documents()}
            return [await self._case(app, case, sources) for case in self._spec.cases]
        finally:
            await app.close()

    def _service(self, app: App, case: Case) -> TurnService:
        if case.reranker != "unavailable":
            return app.service
        graph = AnswerGraph(
            backend=app.backend,
            embedder=app.embedder,
            calibration=app.calibration,
            clock=app.clock,
            quantities=app.quantities,
            result_sets=app.storage.result_sets,
            reranker=None,
            reranker_configured=True,
            llm=app.llm,
        )
        return build_turn_service(
            app.settings, app.storage, graph, exporter=app.exporter, embedder=app.embedder, llm=app.llm, clock=app.clock
        )

    async def _case(self, app: App, case: Case, sources: dict[str, str]) -> dict[str, Any]:
        service = self._service(app, case)
        thread = f"behavior-{case.id}-{uuid.uuid4().hex[:8]}"
        result: OrchestrationResult | None = None
        for text in [*case.history, case.question]:
            turn = Turn(
                platform="cli",
                tenant="behavior",
                channel_key=case.channel or OPERATOR_CHANNEL,
                thread=thread,
                user="reviewer",
                message_key=f"cli:{uuid.uuid4()}",
                text=text,
                received_at=app.clock.now(),
            )
            answer = await service.answer(turn)
            result = answer.result
        assert result is not None
        problems = check(case, result, sources)
        collections = await app.service.collections_for(turn)
        baseline = await plain_hybrid_answer(
            case.question, result, backend=app.backend, embedder=app.embedder, collections=collections
        )
        baseline_problems = check(case, baseline, sources)
        return {
            "result": result.model_dump(mode="json"),
            "id": case.id,
            "passed": not problems,
            "problems": problems,
            "baseline_passed": not baseline_problems,
            "route": result.route.route,
            "branch": result.branch,
            "kind": result.kind,
            "band": result.band,
            "citations": [sources.get(c.doc_id, c.doc_id) for c in result.citations],
            "rounds": [r.model_dump(mode="json") for r in result.retrieval_report],
        }


def load_behavior(path: Path) -> BehaviorSet:
    """Read and validate a behaviour file."""
    return BehaviorSet.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def default_out() -> Path:
    """A fresh folder for one run's outputs."""
    return Path("behavior-results") / dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")


@contextlib.contextmanager
def data_dir_or_scratch(data_dir: Path | None) -> Iterator[Path]:
    """`data_dir` when given; else a throwaway data directory, so a run never touches the operator's
    index, removed when the run ends (an evaluation's index is large: up to ~145 MB here)."""
    if data_dir is not None:
        yield data_dir
        return
    with tempfile.TemporaryDirectory(prefix="threadwise-scratch-", ignore_cleanup_errors=True) as folder:
        yield Path(folder)


def write_report(out: Path, outcomes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One JSON file per case (its full result) and `summary.json`; returns the outcomes without results."""
    out.mkdir(parents=True, exist_ok=True)
    summary = []
    for outcome in outcomes:
        result = outcome.pop("result")
        (out / f"{outcome['id']}.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
        summary.append(outcome)
    (out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary
