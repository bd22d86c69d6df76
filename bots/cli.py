"""The `threadwise` command line (SPEC section 9)."""

from __future__ import annotations

import asyncio
import getpass
import json
import sys
import uuid
from pathlib import Path
from typing import Annotated

import typer

import bots.cli_manifest  # registers the manifest commands
import bots.cli_tools  # noqa: F401 - registers the eval, index, channels and export commands
from bots.cli_common import app, db_app, err, out
from bots.cli_common import load_or_exit as _settings
from bots.cli_common import run as _run
from bots.terminal import IngestBar, decisions_table, facet_lines, render_answer, report_lines


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
            written = set(report.added) | set(report.updated)
            described = [r for r in await app_.storage.registry.list_documents(collection) if r.source_path in written]
        finally:
            await app_.close()
        # What the bot now believes each new or changed document is (`threadwise documents` lists all).
        for record in described:
            for line in facet_lines(record):
                out.print(line, markup=False, highlight=False, soft_wrap=True)
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
    from core.contracts import Turn

    settings = _settings()

    async def main() -> str:
        app_ = await build_app(settings)
        try:
            turn = Turn(**_turn_text(question, thread, channel), received_at=app_.clock.now())
            with err.status("thinking…") as status:

                async def progress(stage: str) -> None:
                    status.update(f"{stage}…")

                answer = await app_.service.answer(turn, progress=progress)
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
    from core.contracts import Turn

    settings = _settings()
    thread = f"chat-{uuid.uuid4()}"

    async def main() -> None:
        app_ = await build_app(settings)
        try:
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
                answer = await app_.service.answer(turn)
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
    """Serve Slack, Teams, `/healthz`, `/readyz`, `/metrics` and `/exports`; logs are JSON lines on stderr."""
    from bots.logs import configure_logging
    from bots.server import run_server

    settings = _settings()
    configure_logging()
    _run(lambda: run_server(settings, host, port))


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


@db_app.command("purge")
def db_purge(
    days: Annotated[
        int | None, typer.Option(help="Keep this many days (default: THREADWISE_RETENTION_DAYS).", min=1)
    ] = None,
) -> None:
    """Delete conversations, turns, decisions, feedback and result sets older than the retention period."""
    import datetime as dt
    import json

    from storage.database import Database
    from storage.retention import purge_expired

    settings = _settings()

    async def main() -> dict[str, int]:
        database = Database(url=settings.resolved_database_url)
        try:
            await database.ensure_migrated()
            now = settings.fixed_now or dt.datetime.now(dt.UTC)
            report = await purge_expired(database, now, days or settings.retention_days)
            return report.as_dict()
        finally:
            await database.dispose()

    out.print_json(json.dumps({"retention_days": days or settings.retention_days, "deleted": _run(main)}))


def main() -> None:
    """Console-script entry point."""
    app()
