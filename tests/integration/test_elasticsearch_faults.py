"""A real Elasticsearch node stops during an ingestion and during a turn (issue 25).

Each test runs the product (`build_app`, the real embedder) against a node of its own, started by
`tests/services.sh node-start` so that stopping it leaves the suite's shared node alone. The node is
stopped at a fixed point of the work, never after a sleep: during an ingestion, from the progress
callback once two documents are written; during a turn, when the turn first embeds (after it has
begun, before its search). Then it is started again on the same port and data.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from adapters.search.elasticsearch import ElasticsearchBackend
from bots.bootstrap import App, build_app
from bots.settings import Settings
from bots.terminal import report_lines
from core.ingest.pipeline import Outcome, document_id
from core.knowledge import DEFAULT_COLLECTION
from tests.asking import ask
from tests.conftest import REPO, drop_test_indices, elasticsearch_url

pytestmark = [pytest.mark.elasticsearch, pytest.mark.model]

SERVICES = REPO / "tests" / "services.sh"
CORPUS = REPO / "examples" / "corpus"
NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
QUESTION = "How many weeks of parental leave do new parents get?"


@dataclass
class Node:
    """A node with its data in `run`, stopped and started again by the project's own script."""

    run: str
    url: str

    def stop(self) -> None:
        subprocess.run(["bash", str(SERVICES), "node-stop", self.run], check=True, capture_output=True)

    def start(self) -> None:
        subprocess.run(["bash", str(SERVICES), "node-start", self.run], check=True, capture_output=True)


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    elasticsearch_url()  # skips without the suite's node (fails under CI=true): the distribution is cached
    done = subprocess.run(["bash", str(SERVICES), "node-start"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    run, url = done.stdout.split()[-2:]
    try:
        yield Node(run, url)
    finally:
        subprocess.run(["bash", str(SERVICES), "node-stop", run, "--remove"], capture_output=True)


@pytest.fixture
async def app(node: Node, tmp_path: Path) -> AsyncIterator[App]:
    prefix = f"threadwise-test-{uuid.uuid4().hex[:8]}"
    settings = Settings(
        data_dir=tmp_path / "data",
        fixed_now=NOW,
        search_backend="elasticsearch",
        elasticsearch_url=node.url,
        elasticsearch_prefix=prefix,
        elasticsearch_replicas=0,
    )
    application = await build_app(settings)
    try:
        yield application
    finally:
        await drop_test_indices(_client(application), prefix)
        await application.close()


class StopAfterWrites:
    """Ingestion progress that stops the node once `count` documents are written."""

    def __init__(self, node: Node, count: int) -> None:
        self.node, self.count = node, count
        self.outcomes: list[tuple[Path, Outcome]] = []

    def start(self, total: int) -> None:
        self.total = total

    def advance(self, path: Path, outcome: Outcome) -> None:
        self.outcomes.append((path, outcome))
        if sum(o == "added" for _, o in self.outcomes) == self.count and outcome == "added":
            self.node.stop()  # blocks the loop until the node has exited: the next write meets no node


def _client(app: App) -> Any:
    assert isinstance(app.backend, ElasticsearchBackend)
    return app.backend.client


async def _entries(app: App, doc_id: str) -> int:
    """How many entries (segments, summaries, annotations) the node holds for a document."""
    client = _client(app)
    prefix = app.settings.elasticsearch_prefix
    await client.indices.refresh(index=f"{prefix}-*")
    found = await client.count(index=f"{prefix}-segments,{prefix}-annotations", query={"term": {"doc_id": doc_id}})
    return int(found["count"])


async def test_a_node_stopped_during_an_ingestion_leaves_nothing_half_written(app: App, node: Node) -> None:
    progress = StopAfterWrites(node, count=2)
    report = await app.ingestor.ingest([CORPUS], progress=progress)
    files = sorted(str(p) for p in CORPUS.rglob("*") if p.is_file())
    written = report.added
    assert len(written) == 2 and report.stopped and "Elasticsearch is unreachable" in report.stopped
    unwritten = [path for path, reason in report.failed if reason.startswith("not written:")]
    assert sorted(written + unwritten) == files  # every file is either written or said to be not written
    assert len(progress.outcomes) == len(files)
    printed = "\n".join(report_lines(report))
    assert "STOPPED: Elasticsearch is unreachable" in printed and f"{len(unwritten)} files were not written" in printed
    assert "Traceback" not in printed

    node.start()
    registered = {r.source_path: r for r in await app.storage.registry.list_documents()}
    assert sorted(registered) == sorted(written)  # the registry lists only what was written
    for path in written:
        assert await _entries(app, registered[path].doc_id) > registered[path].segment_count > 0
    for path in unwritten:
        assert await _entries(app, document_id(DEFAULT_COLLECTION, path)) == 0

    again = await app.ingestor.ingest([CORPUS])
    assert again.ok and sorted(again.added) == sorted(unwritten) and sorted(again.unchanged) == sorted(written)
    result = await ask(app, QUESTION, now=NOW)
    assert result.kind == "answer" and "20 weeks" in result.answer and result.citations


async def test_a_node_stopped_during_a_turn_gets_the_clear_reply_and_the_next_turn_answers(
    app: App, node: Node
) -> None:
    assert (await app.ingestor.ingest([CORPUS])).ok
    assert (await ask(app, QUESTION, now=NOW)).kind == "answer"

    embedder: Any = app.embedder
    embed = embedder.embed

    async def stop_then_embed(texts: Sequence[str]) -> np.ndarray:
        embedder.embed = embed  # once: the node stops after the turn has begun, before it searches
        await asyncio.to_thread(node.stop)
        return await embed(texts)

    embedder.embed = stop_then_embed
    told = await ask(app, QUESTION, now=NOW)
    assert embedder.embed == embed, "the turn never embedded: the node was not stopped during it"
    assert told.kind != "answer" and not told.citations
    assert "can't reach the document search" in told.answer
    assert "Traceback" not in told.answer and "ConnectionError" not in told.answer
    health = await app.backend.health()
    assert not health.ok

    node.start()
    assert (await app.backend.health()).ok
    result = await ask(app, QUESTION, now=NOW)
    assert result.kind == "answer" and "20 weeks" in result.answer and result.citations
