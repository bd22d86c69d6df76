"""Rendering for the terminal: answers with their Sources list, decisions, ingest progress."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bots.presentation import source_line, table_text
from core.contracts import OrchestrationResult
from core.ingest.pipeline import IngestReport, Outcome
from core.knowledge import DocumentRecord
from core.records import DecisionRecord


def render_answer(result: OrchestrationResult) -> str:
    """The plain-text reply: answer, table, notes, Sources."""
    lines = [result.answer]
    if result.table is not None and result.kind == "answer":
        lines.append("\n" + table_text(result.table))
    for note in (result.applicability_note, result.uncertainty_note):
        if note:
            lines.append(f"\nNote: {note}")
    if result.citations:
        lines.append("\nSources:")
        lines.extend(f"  {source_line(c)}" for c in result.citations)
    if result.kind == "answer":
        lines.append(f"\n(confidence {result.confidence:.2f}, {result.band})")
    return "\n".join(lines)


def decisions_table(decisions: list[DecisionRecord]) -> Table:
    """Recent router decisions as a table."""
    table = Table(title="Router decisions")
    for column in ("when", "query", "route", "branch", "evidence", "confidence", "band", "total ms", "llm"):
        table.add_column(column)
    for d in decisions:
        # "synthesis:llm reflection:deterministic (timed out after 30 s)" — which path each LLM step took.
        llm = " ".join(
            f"{s.stage}:{s.path}" + (f" ({s.reason})" if s.path == "deterministic" else "") for s in d.llm_steps
        )
        table.add_row(
            d.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            d.query[:60],
            d.route,
            d.branch,
            d.evidence_level,
            f"{d.confidence:.2f}",
            d.band,
            f"{sum(d.timings.values()):.0f}",
            llm or "-",
        )
    return table


class IngestBar:
    """A rich progress bar fed by the ingestor (counts and rate)."""

    def __init__(self, console: Console) -> None:
        self._progress = Progress(
            TextColumn("[bold]ingest"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} files/s"),
            TimeElapsedColumn(),
            TextColumn("{task.fields[last]}"),
            console=console,
            transient=False,
        )
        self._task = self._progress.add_task("ingest", total=0, rate="-", last="")

    def __enter__(self) -> IngestBar:
        self._progress.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._progress.stop()

    def start(self, total: int) -> None:
        """Set the number of files."""
        self._progress.update(self._task, total=total)

    def advance(self, path: Path, outcome: Outcome) -> None:
        """One file done."""
        task = self._progress.tasks[0]
        elapsed = task.elapsed or 0.0
        rate = f"{(task.completed + 1) / elapsed:.1f}" if elapsed > 0 else "-"
        self._progress.update(self._task, advance=1, rate=rate, last=f"{outcome}: {path.name}")


def facet_lines(record: DocumentRecord) -> list[str]:
    """What the bot believes a document is: its title, kind, names and periods, each once."""
    lines = [f"{record.relative_path}: {record.title}"]
    facets = record.facets
    if facets is None:
        return [*lines, "  (not described yet: ingest it again)"]
    if facets.kind:
        lines.append(f"  kind: {facets.kind}")
    if facets.entities:
        names = [e.name + (f" ({', '.join(e.aliases)})" if e.aliases else "") for e in facets.entities]
        lines.append(f"  about: {'; '.join(names)}")
    if facets.identifiers:
        lines.append(f"  ids: {', '.join(i.value for i in facets.identifiers)}")
    if facets.periods:
        lines.append(f"  periods: {'; '.join(f'{p.label} ({p.source})' for p in facets.periods)}")
    return lines


def report_lines(report: IngestReport) -> list[str]:
    """A summary of an ingest run, failures with their reasons."""
    lines = [
        f"added {len(report.added)}, updated {len(report.updated)}, unchanged {len(report.unchanged)}, "
        f"removed {len(report.removed)}, unsupported {len(report.unsupported)}, failed {len(report.failed)}; "
        f"{report.segments} segments and {report.annotations} annotations written"
    ]
    lines.extend(f"  skipped (no loader for this file type): {p}" for p in report.unsupported)
    lines.extend(f"  index of {n} documents (read for their kinds, not searched): {p}" for p, n in report.indexes)
    lines.extend(f"  removed (file gone): {p}" for p in report.removed)
    unwritten = [p for p, reason in report.failed if report.stopped and reason.startswith("not written:")]
    lines.extend(f"  FAILED {p}: {reason}" for p, reason in report.failed if p not in unwritten)
    if report.stopped:
        lines.append(
            f"  STOPPED: {report.stopped}. {len(unwritten)} files were not written; "
            "run the ingestion again once it is back (files already written are kept and skipped):"
        )
        lines.extend(f"    not written: {p}" for p in unwritten)
    return lines
