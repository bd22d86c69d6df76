"""Recording the Elasticsearch response fixtures from a live node.

With THREADWISE_ELASTICSEARCH_URL set (`tests/services.sh start`, and CI), the recorder runs against
that node into a temporary folder and every answer must have the shape of the committed fixture;
with THREADWISE_RECORD_FIXTURES=1 too, it rewrites `tests/fixtures/elasticsearch/` instead. The
recorder itself is also exercised against the loopback server.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests import es_fixtures
from tests.conftest import elasticsearch_url
from tests.es_recorder import record_fixtures
from tests.integration.test_elasticsearch_wire import FakeElasticsearch

WIRE_FIXTURES = {p.stem for p in es_fixtures.FOLDER.glob("*.json")}


@pytest.mark.elasticsearch
async def test_the_live_node_answers_in_the_shape_of_the_recorded_fixtures(tmp_path: Path) -> None:
    rerecord = os.environ.get("THREADWISE_RECORD_FIXTURES") == "1"
    folder = es_fixtures.FOLDER if rerecord else tmp_path
    committed = {name: es_fixtures.load(name) for name in WIRE_FIXTURES}
    written = await record_fixtures(elasticsearch_url(), folder)
    assert set(written) == WIRE_FIXTURES
    for name in written:
        data = json.loads((folder / f"{name}.json").read_text())
        status, body = committed[name]
        assert data["status"] == status, name
        if isinstance(body, dict):
            assert set(data["body"]) == set(body), name


async def test_the_recorder_writes_labelled_fixtures_of_every_kind(tmp_path: Path) -> None:
    server = await FakeElasticsearch().start()
    try:
        written = await record_fixtures(server.url, tmp_path)
    finally:
        await server.stop()
    # The loopback server's recorded scroll has no hits, so no further page is asked for.
    assert set(written) == WIRE_FIXTURES - {"scroll"}
    for name in written:
        data = json.loads((tmp_path / f"{name}.json").read_text())
        assert data["_fixture"]["synthetic"] is False and data["_fixture"]["recorded_from"].startswith("Elasticsearch")
        assert "threadwise-fixture-" not in json.dumps(data["body"])
    hits = json.loads((tmp_path / "search_knn.json").read_text())["body"]["hits"]["hits"]
    assert [h["_id"] for h in hits][:1] == ["d2:0"]
