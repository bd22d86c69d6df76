"""Export links: the "export" command answers with a signed link under THREADWISE_PUBLIC_URL; `curl`
on the link returns the CSV from the database; an expired, forged or altered token gets 403."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import stat
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bots.exports import CsvExporter, ExportLinks, export_secret
from bots.server import ServerState, create_web_app
from core.clock import FixedClock, SystemClock
from core.contracts import TableResult
from core.orchestrator.commands import Commands
from core.records import ThreadMemory
from storage.database import Database
from storage.repositories import SqlResultSetStore
from tests.unit.test_back_pressure import slack_turn

SECRET = b"a-test-export-secret"
ROWS = [["Panel A", "1,134 mm", "EUR 1,200"], ["Panel B, wide", "1,722 mm", 'EUR "1,900"']]


@dataclass
class Served:
    url: str
    links: ExportLinks
    exporter: CsvExporter
    store: SqlResultSetStore
    store_folder: Path
    result_set_id: str


@pytest.fixture(scope="module")
async def served(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    folder = tmp_path_factory.mktemp("exports")
    database = Database(url=f"sqlite+aiosqlite:///{folder / 'threadwise.db'}")
    await database.upgrade()
    store = SqlResultSetStore(database=database)
    table = TableResult(columns=["product", "width", "price"], rows=ROWS, total=2, shown=2)
    result_set_id = await store.save(table, ROWS, SystemClock().now())
    state = ServerState(ready=True, detail="ready")
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    links = ExportLinks(secret=SECRET, public_url=url + "/", ttl_s=24 * 3600, clock=SystemClock())
    exporter = CsvExporter(result_sets=store, folder=folder / "files", links=links)
    state.exporter, state.export_links = exporter, links
    yield Served(url=url, links=links, exporter=exporter, store=store, store_folder=folder, result_set_id=result_set_id)
    await runner.cleanup()
    await database.dispose()


async def curl(url: str) -> tuple[int, str]:
    """GET with the real `curl` command: the status and the body."""

    def run() -> tuple[int, str]:
        done = subprocess.run(
            ["curl", "-s", "-w", "\n%{http_code}", url], capture_output=True, text=True, check=True, timeout=30
        )
        body, _, code = done.stdout.rpartition("\n")
        return int(code), body

    return await asyncio.to_thread(run)


async def test_the_export_command_answers_with_a_link_that_returns_the_csv(served: Served) -> None:
    commands = Commands(result_sets=served.store, exporter=served.exporter)
    memory = ThreadMemory(result_set_id=served.result_set_id, result_total=2)
    result, _ = await commands.run("export", memory, slack_turn(1))
    link = next(word for word in result.answer.split() if word.startswith(served.url))
    assert link.startswith(served.url + "/exports/") and link.endswith(".csv") and served.result_set_id not in link
    status, body = await curl(link)
    assert status == 200
    lines = body.splitlines()
    assert lines[0] == "product,width,price"
    assert lines[1:] == ['Panel A,"1,134 mm","EUR 1,200"', '"Panel B, wide","1,722 mm","EUR ""1,900"""']
    assert not (served.store_folder / "files").exists()  # served from the database, no file left on the server


async def test_expired_forged_and_altered_tokens_get_403(served: Served) -> None:
    yesterday = FixedClock(at=dt.datetime.now(dt.UTC) - dt.timedelta(hours=25))
    old = ExportLinks(secret=SECRET, public_url=served.url, ttl_s=24 * 3600, clock=yesterday)
    status, _ = await curl(old.link(served.result_set_id))
    assert status == 403
    forger = ExportLinks(secret=b"guessed", public_url=served.url, ttl_s=24 * 3600, clock=SystemClock())
    status, _ = await curl(forger.link(served.result_set_id))
    assert status == 403
    good = served.links.link(served.result_set_id)
    token = good.removeprefix(served.url + "/exports/").removesuffix(".csv")
    # Altered inside the signature: the last base64 character can carry unused bits only.
    at = len(token) - 10
    tampered = token[:at] + ("A" if token[at] != "A" else "B") + token[at + 1 :]
    status, _ = await curl(f"{served.url}/exports/{tampered}.csv")
    assert status == 403
    status, _ = await curl(f"{served.url}/exports/not-a-token.csv")
    assert status == 403
    status, body = await curl(served.links.link("a-result-set-that-was-purged"))
    assert status == 404 and "no longer kept" in body
    async with aiohttp.ClientSession() as session, session.get(good) as response:
        assert response.status == 200 and response.content_type == "text/csv"
        assert response.headers["Cache-Control"] == "private, no-store"
        assert "attachment" in response.headers["Content-Disposition"]


async def test_without_links_the_export_is_a_file(served: Served, tmp_path: Path) -> None:
    exporter = CsvExporter(result_sets=served.store, folder=tmp_path / "exports")
    where = await exporter.export(served.result_set_id)
    assert Path(where).read_bytes().startswith(b"product,width,price\r\n")


def test_the_secret_is_made_once_in_the_data_dir_unless_configured(tmp_path: Path) -> None:
    first = export_secret(None, tmp_path / "data")
    assert len(first) >= 48 and export_secret(None, tmp_path / "data") == first
    assert stat.S_IMODE(os.stat(tmp_path / "data" / "export-secret").st_mode) == 0o600
    assert export_secret("configured", tmp_path / "data") == b"configured"
