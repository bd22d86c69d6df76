"""`threadwise eval`, `index`, `channels` and `export`: evaluation and administration commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from bots.cli_common import app, channels_app, err, eval_app, index_app, out
from bots.cli_common import load_or_exit as _settings
from bots.cli_common import run as _run
from bots.terminal import IngestBar, facet_lines
from core.knowledge import DocumentRecord


@eval_app.command("behavior")
def eval_behavior(
    file: Annotated[Path, typer.Argument(help="A behaviour set (YAML).", exists=True, dir_okay=False)],
    out: Annotated[Path | None, typer.Option(help="Folder for outputs and per-round reports.")] = None,
    data_dir: Annotated[
        Path | None, typer.Option(help="Data directory to ingest into (default: a throwaway one).")
    ] = None,
    corpus: Annotated[
        Path | None,
        typer.Option(help="Ingest this folder (collection `default`) instead of the set's own corpus.", exists=True),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcomes as JSON.")] = False,
) -> None:
    """Run a behaviour set; exit 1 when any case fails.

    Every case is also answered by a plain-hybrid baseline (top hits, most similar sentences),
    graded by the same check, so the agentic path can be compared with it.
    """
    import yaml
    from pydantic import ValidationError

    from bots.evaluation.behavior import BehaviorRunner, data_dir_or_scratch, default_out, load_behavior, write_report

    try:
        spec = load_behavior(file)
    except (yaml.YAMLError, ValidationError) as exc:
        err.print(f"[red]error:[/red] {file} is not a valid behaviour set: {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from None
    folder = out or default_out()
    with data_dir_or_scratch(data_dir) as where, IngestBar(err) as bar:
        settings = _settings().model_copy(
            update={
                "data_dir": where,
                "database_url": None,
                "fixed_now": spec.clock,
                "channel_mismatch_probe": spec.channel_mismatch_probe,
                "reranker_model": None,
            }
        )
        runner = BehaviorRunner(spec=spec, base=file.resolve().parent, settings=settings, corpus=corpus, progress=bar)
        outcomes = write_report(folder, _run(runner.run))
    failed = [o for o in outcomes if not o["passed"]]
    if as_json:
        sys.stdout.write(json.dumps(outcomes, indent=2) + "\n")
    for outcome in outcomes:
        mark = "PASS" if outcome["passed"] else "FAIL"
        err.print(f"{mark} {outcome['id']}: {outcome['route']} {outcome['branch']} {outcome['kind']}", highlight=False)
        for problem in outcome["problems"]:
            err.print(f"     {problem}", markup=False, highlight=False)
    baseline = sum(1 for o in outcomes if o["baseline_passed"])
    worse = [o["id"] for o in outcomes if o["baseline_passed"] and not o["passed"]]
    err.print(f"plain-hybrid baseline: {baseline} of {len(outcomes)} passed", highlight=False)
    if worse:
        err.print(f"the baseline passes where the agentic answer fails: {', '.join(worse)}", highlight=False)
    err.print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed; outputs in {folder}")
    if failed:
        raise typer.Exit(1)


@eval_app.command("retrieval")
def eval_retrieval(
    folder: Annotated[Path, typer.Argument(help="A BEIR folder: corpus.jsonl, queries.jsonl, qrels/test.tsv.")],
    split: Annotated[str, typer.Option(help="Which qrels file to judge with.")] = "test",
    data_dir: Annotated[
        Path | None, typer.Option(help="Data directory to index into (default: a throwaway one).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (SPEC section 9).")] = False,
) -> None:
    """nDCG@10, Recall@100 and MRR@10 for bm25, dense and hybrid, through the product's own code."""
    from bots.bootstrap import build_app
    from bots.evaluation.behavior import data_dir_or_scratch
    from bots.evaluation.retrieval import evaluate_retrieval

    for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv"):
        if not (folder / name).exists():
            err.print(f"[red]error:[/red] {folder / name} is missing (BEIR layout expected)")
            raise typer.Exit(2)

    async def main(where: Path) -> dict[str, object]:
        app_ = await build_app(_settings().model_copy(update={"data_dir": where, "database_url": None}))
        try:
            with IngestBar(err) as bar:
                return await evaluate_retrieval(app_, folder, split=split, progress=bar)
        finally:
            await app_.close()

    with data_dir_or_scratch(data_dir) as where:
        result = _run(lambda: main(where))
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    for mode, metrics in result["modes"].items():  # type: ignore[attr-defined]
        out.print(f"{mode:7} " + "  ".join(f"{k} {v:.4f}" for k, v in metrics.items()), highlight=False)
    out.print(f"timings {result['timings']}", highlight=False)


@eval_app.command("calibrate")
def eval_calibrate(
    folder: Annotated[Path, typer.Argument(help="A BEIR folder with judged queries (e.g. NFCorpus, dev split).")],
    split: Annotated[str, typer.Option(help="Which qrels file to fit on.")] = "dev",
    index_dir: Annotated[
        Path | None, typer.Option(help="Where to index the corpus (default: a throwaway one).")
    ] = None,
) -> None:
    """Fit the evidence-level thresholds for the configured model; write them where answers read them."""
    from bots.bootstrap import build_app
    from bots.evaluation.behavior import data_dir_or_scratch
    from bots.evaluation.calibrate import calibrate, write_calibration

    settings = _settings()

    async def main(where: Path) -> tuple[object, dict[str, object]]:
        app_ = await build_app(settings.model_copy(update={"data_dir": where, "database_url": None}))
        try:
            return await calibrate(app_, folder, split=split)
        finally:
            await app_.close()

    with data_dir_or_scratch(index_dir) as where:
        calibration, report = _run(lambda: main(where))
    write_calibration(settings.calibration_path, calibration)  # type: ignore[arg-type]
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    err.print(f"thresholds written to {settings.calibration_path}", highlight=False)


@index_app.command("reindex")
def index_reindex() -> None:
    """Elasticsearch: copy every index into a new version and swap its alias (no downtime)."""
    from bots.bootstrap import build_app

    settings = _settings()
    if settings.search_backend != "elasticsearch":
        err.print("[red]error:[/red] reindex applies to THREADWISE_SEARCH_BACKEND=elasticsearch only")
        raise typer.Exit(2)

    async def main() -> dict[str, str]:
        app_ = await build_app(settings)
        try:
            return await app_.backend.reindex()  # type: ignore[attr-defined, no-any-return]
        finally:
            await app_.close()

    for alias, index in _run(main).items():
        err.print(f"{alias} → {index}", highlight=False)


@index_app.command("optimize")
def index_optimize() -> None:
    """Elasticsearch: merge the segments index into one Lucene segment, for faster kNN after a bulk
    ingestion (minutes at a million entries; later writes add segments again)."""
    from bots.bootstrap import build_app

    settings = _settings()
    if settings.search_backend != "elasticsearch":
        err.print("[red]error:[/red] optimize applies to THREADWISE_SEARCH_BACKEND=elasticsearch only")
        raise typer.Exit(2)

    async def main() -> int:
        app_ = await build_app(settings)
        try:
            merging = lambda seconds: err.print(f"merging… {seconds:.0f} s", highlight=False)  # noqa: E731
            return await app_.backend.optimize(merging)  # type: ignore[attr-defined, no-any-return]
        finally:
            await app_.close()

    err.print(f"merged: {_run(main)} Lucene segment(s) left", highlight=False)


@channels_app.command("set")
def channels_set(
    key: Annotated[str, typer.Argument(help="Channel key, e.g. slack:T0123:C0456 or teams:<tenant>:<channel>.")],
    collections: Annotated[list[str], typer.Argument(help="Collections the channel may read.")],
) -> None:
    """Map a channel key to the collections it may read (replacing its earlier mapping)."""
    from bots.bootstrap import build_storage

    settings = _settings()

    async def main() -> None:
        storage = await build_storage(settings)
        try:
            await storage.channels.set(key, collections)
        finally:
            await storage.close()

    _run(main)
    err.print(f"{key} reads: {', '.join(dict.fromkeys(collections))}", highlight=False)


@channels_app.command("list")
def channels_list() -> None:
    """Show every mapped channel and how unmapped channels are treated."""
    from bots.bootstrap import build_storage

    settings = _settings()

    async def main() -> dict[str, list[str]]:
        storage = await build_storage(settings)
        try:
            return await storage.channels.mapping()
        finally:
            await storage.close()

    mapping = _run(main)
    for key, names in mapping.items():
        sys.stdout.write(f"{key}\t{', '.join(names)}\n")
    err.print(f"unmapped channels: {settings.unmapped_channels} (THREADWISE_UNMAPPED_CHANNELS)", highlight=False)


@app.command()
def export(
    result_set: Annotated[str, typer.Argument(help="A result set id (from `ask --json`: table.result_set_id).")],
    out_file: Annotated[Path, typer.Option("--out", help="Where to write the CSV.")],
) -> None:
    """Write every row of a stored result set as CSV."""
    from bots.bootstrap import build_storage
    from bots.exports import CsvExporter, ResultSetNotFoundError

    settings = _settings()

    async def main() -> int:
        storage = await build_storage(settings)
        try:
            exporter = CsvExporter(result_sets=storage.result_sets, folder=settings.data_dir / "exports")
            return await exporter.write(result_set, out_file)
        except ResultSetNotFoundError as exc:
            raise ValueError(str(exc)) from None
        finally:
            await storage.close()

    rows = _run(main)
    err.print(f"wrote {rows} rows to {out_file}", highlight=False)


@app.command()
def documents(
    collection: Annotated[str | None, typer.Option(help="Only this collection.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the documents and their facets as JSON.")] = False,
) -> None:
    """List the ingested documents with what the bot believes each is: title, kind, names, periods."""
    from bots.bootstrap import build_storage

    settings = _settings()

    async def main() -> list[DocumentRecord]:
        storage = await build_storage(settings)
        try:
            return await storage.registry.list_documents(collection)
        finally:
            await storage.close()

    records = _run(main)
    if as_json:
        sys.stdout.write(json.dumps([r.model_dump(mode="json") for r in records], indent=2) + "\n")
        return
    for record in records:
        for line in facet_lines(record):
            out.print(line, markup=False, highlight=False, soft_wrap=True)
    err.print(f"{len(records)} documents", highlight=False)
