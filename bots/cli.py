"""The `threadwise` command line (SPEC section 9)."""

from __future__ import annotations

import asyncio
import getpass
import json
import sys
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console

from bots.settings import Settings, SettingsError, load_settings
from bots.terminal import IngestBar, decisions_table, render_answer, report_lines

T = TypeVar("T")

app = typer.Typer(help="Threadwise: answers from your documents, with citations.", no_args_is_help=True)
db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)
app.add_typer(db_app, name="db")
eval_app = typer.Typer(help="Evaluate the product on a behaviour set.", no_args_is_help=True)
app.add_typer(eval_app, name="eval")
channels_app = typer.Typer(help="Which collections each channel may read.", no_args_is_help=True)
app.add_typer(channels_app, name="channels")
index_app = typer.Typer(help="Search index maintenance.", no_args_is_help=True)
app.add_typer(index_app, name="index")
out = Console()
err = Console(stderr=True)


def _settings() -> Settings:
    try:
        return load_settings()
    except SettingsError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from None


def _run(coro_factory: Callable[[], Awaitable[T]]) -> T:
    """Run one async command; expected failures become a message and exit status 2."""
    from storage.database import NotMigratedError

    try:
        return asyncio.run(coro_factory())  # type: ignore[arg-type]
    except (NotMigratedError, NotImplementedError, FileNotFoundError, ValueError) as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders to ingest.")],
    collection: Annotated[str, typer.Option(help="Collection to write to.")] = "default",
    sync: Annotated[bool, typer.Option("--sync", help="Remove documents whose files are gone.")] = False,
) -> None:
    """Ingest documents; unchanged files are skipped, changed ones replaced, broken ones reported."""
    from bots.bootstrap import build_app

    settings = _settings()

    async def main() -> bool:
        app_ = await build_app(settings)
        try:
            with IngestBar(err) as bar:
                report = await app_.ingestor.ingest(paths, collection=collection, progress=bar, sync=sync)
        finally:
            await app_.close()
        for line in report_lines(report):
            err.print(line, markup=False, highlight=False, soft_wrap=True)
        return report.ok

    if not _run(main):
        raise typer.Exit(1)


def _turn_text(question: str, thread: str | None, channel: str | None) -> dict[str, object]:
    return {
        "platform": "cli",
        "tenant": "local",
        "channel_key": channel or "cli",
        "thread": thread or f"cli-{uuid.uuid4()}",
        "user": getpass.getuser(),
        "message_key": f"cli:{uuid.uuid4()}",
        "text": question,
        "is_direct": True,
    }


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question.")],
    thread: Annotated[str | None, typer.Option(help="Continue this conversation thread.")] = None,
    channel: Annotated[str | None, typer.Option(help="Ask as this channel key (its collections only).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full result as JSON.")] = False,
) -> None:
    """Ask one question and print the answer with its sources."""
    from bots.bootstrap import build_app
    from core.access import readable_collections
    from core.contracts import Turn

    settings = _settings()

    async def main() -> str:
        app_ = await build_app(settings)
        try:
            collections = readable_collections(
                channel, await app_.storage.channels.mapping(), settings.unmapped_channels
            )
            turn = Turn(**_turn_text(question, thread, channel), received_at=app_.clock.now())
            with err.status("thinking…") as status:

                async def progress(stage: str) -> None:
                    status.update(f"{stage}…")

                answer = await app_.service.answer(turn, collections=collections, progress=progress)
            await app_.service.delivered(answer.turn_id, None)
            assert answer.result is not None
            return answer.result.model_dump_json(indent=2) if as_json else render_answer(answer.result)
        finally:
            await app_.close()

    sys.stdout.write(_run(main) + "\n")


@app.command()
def chat(
    channel: Annotated[str | None, typer.Option(help="Chat as this channel key.")] = None,
) -> None:
    """A conversation thread in the terminal; type 'quit' to leave."""
    from bots.bootstrap import build_app
    from core.access import readable_collections
    from core.contracts import Turn

    settings = _settings()
    thread = f"chat-{uuid.uuid4()}"

    async def main() -> None:
        app_ = await build_app(settings)
        try:
            collections = readable_collections(
                channel, await app_.storage.channels.mapping(), settings.unmapped_channels
            )
            out.print("Threadwise chat: ask a question, 'quit' to leave.", style="bold")
            while True:
                try:
                    question = await asyncio.to_thread(input, "\nyou › ")
                except EOFError:
                    return
                if question.strip().lower() in {"quit", "exit", ":q"}:
                    return
                if not question.strip():
                    continue
                turn = Turn(**_turn_text(question, thread, channel), received_at=app_.clock.now())
                answer = await app_.service.answer(turn, collections=collections)
                await app_.service.delivered(answer.turn_id, None)
                assert answer.result is not None
                out.print("\nthreadwise ›", style="bold cyan")
                sys.stdout.write(render_answer(answer.result) + "\n")
        finally:
            await app_.close()

    _run(main)


@app.command()
def decisions(
    last: Annotated[int, typer.Option(help="How many recent decisions.", min=1)] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (an object, or a list when --last > 1).")] = False,
) -> None:
    """Show the most recent router decisions."""
    from bots.bootstrap import build_storage

    settings = _settings()

    async def main() -> list[object]:
        storage = await build_storage(settings)
        try:
            return list(await storage.decisions.latest(last))
        finally:
            await storage.close()

    records = _run(main)
    if as_json:
        payload = [r.model_dump(mode="json") for r in records]  # type: ignore[attr-defined]
        sys.stdout.write(json.dumps(payload[-1] if last == 1 and payload else payload, indent=2) + "\n")
    else:
        out.print(decisions_table(records))  # type: ignore[arg-type]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 3978,
) -> None:
    """Serve Slack (`/slack/events`), Teams (`/api/messages`) and `/healthz`."""
    import logging

    from bots.server import run_server

    settings = _settings()
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    _run(lambda: run_server(settings, host, port))


@eval_app.command("behavior")
def eval_behavior(
    file: Annotated[Path, typer.Argument(help="A behaviour set (YAML).", exists=True, dir_okay=False)],
    out: Annotated[Path | None, typer.Option(help="Folder for outputs and per-round reports.")] = None,
    data_dir: Annotated[Path | None, typer.Option(help="Data directory to ingest into (default: a fresh one).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcomes as JSON.")] = False,
) -> None:
    """Run a behaviour set; exit 1 when any case fails."""
    import yaml
    from pydantic import ValidationError

    from bots.evaluation.behavior import BehaviorRunner, default_out, load_behavior, scratch_dir, write_report

    try:
        spec = load_behavior(file)
    except (yaml.YAMLError, ValidationError) as exc:
        err.print(f"[red]error:[/red] {file} is not a valid behaviour set: {exc}", highlight=False)
        raise typer.Exit(2) from None
    folder = out or default_out()
    settings = _settings().model_copy(
        update={
            "data_dir": data_dir or scratch_dir(),
            "database_url": None,
            "fixed_now": spec.clock,
            "channel_mismatch_probe": spec.channel_mismatch_probe,
            "reranker_model": None,
        }
    )
    runner = BehaviorRunner(spec=spec, base=file.resolve().parent, settings=settings)
    outcomes = write_report(folder, _run(runner.run))
    failed = [o for o in outcomes if not o["passed"]]
    if as_json:
        sys.stdout.write(json.dumps(outcomes, indent=2) + "\n")
    for outcome in outcomes:
        mark = "PASS" if outcome["passed"] else "FAIL"
        err.print(f"{mark} {outcome['id']}: {outcome['route']} {outcome['branch']} {outcome['kind']}", highlight=False)
        for problem in outcome["problems"]:
            err.print(f"     {problem}", markup=False, highlight=False)
    err.print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed; outputs in {folder}")
    if failed:
        raise typer.Exit(1)


@eval_app.command("retrieval")
def eval_retrieval(
    folder: Annotated[Path, typer.Argument(help="A BEIR folder: corpus.jsonl, queries.jsonl, qrels/test.tsv.")],
    split: Annotated[str, typer.Option(help="Which qrels file to judge with.")] = "test",
    data_dir: Annotated[Path | None, typer.Option(help="Data directory to index into (default: a fresh one).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (SPEC section 9).")] = False,
) -> None:
    """nDCG@10, Recall@100 and MRR@10 for bm25, dense and hybrid, through the product's own code."""
    from bots.bootstrap import build_app
    from bots.evaluation.behavior import scratch_dir
    from bots.evaluation.retrieval import evaluate_retrieval

    for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv"):
        if not (folder / name).exists():
            err.print(f"[red]error:[/red] {folder / name} is missing (BEIR layout expected)")
            raise typer.Exit(2)
    settings = _settings().model_copy(update={"data_dir": data_dir or scratch_dir(), "database_url": None})

    async def main() -> dict[str, object]:
        app_ = await build_app(settings)
        try:
            with IngestBar(err) as bar:
                return await evaluate_retrieval(app_, folder, split=split, progress=bar)
        finally:
            await app_.close()

    result = _run(main)
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    for mode, metrics in result["modes"].items():  # type: ignore[attr-defined]
        out.print(f"{mode:7} " + "  ".join(f"{k} {v:.4f}" for k, v in metrics.items()), highlight=False)
    out.print(f"timings {result['timings']}", highlight=False)


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


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Apply pending database migrations."""
    from storage.database import Database

    settings = _settings()

    async def main() -> str | None:
        database = Database(url=settings.resolved_database_url)
        try:
            await database.upgrade()
            return await database.current_revision()
        finally:
            await database.dispose()

    revision = _run(main)
    err.print(f"database at revision {revision}")


def main() -> None:
    """Console-script entry point."""
    app()
