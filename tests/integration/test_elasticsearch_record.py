"""Re-recording the Elasticsearch response fixtures.

With THREADWISE_ELASTICSEARCH_URL and THREADWISE_RECORD_FIXTURES=1 set, the fixtures in
`tests/fixtures/elasticsearch/` are rewritten from that cluster; otherwise that test is skipped
and says why. The recorder itself is always exercised, against the loopback server.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests import es_fixtures
from tests.es_recorder import record_fixtures
from tests.integration.test_elasticsearch_wire import FakeElasticsearch

WIRE_FIXTURES = {p.stem for p in es_fixtures.FOLDER.glob("*.json")}


@pytest.mark.elasticsearch
@pytest.mark.skipif(
    not (os.environ.get("THREADWISE_ELASTICSEARCH_URL") and os.environ.get("THREADWISE_RECORD_FIXTURES") == "1"),
    reason="re-recording needs THREADWISE_ELASTICSEARCH_URL and THREADWISE_RECORD_FIXTURES=1",
)
async def test_record_the_fixtures_from_the_live_cluster() -> None:
    written = await record_fixtures(os.environ["THREADWISE_ELASTICSEARCH_URL"])
    assert set(written) >= WIRE_FIXTURES


async def test_the_recorder_writes_labelled_fixtures_of_every_kind(tmp_path: Path) -> None:
    server = await FakeElasticsearch().start()
    try:
        written = await record_fixtures(server.url, tmp_path)
    finally:
        await server.stop()
    assert set(written) == WIRE_FIXTURES
    for name in written:
        data = json.loads((tmp_path / f"{name}.json").read_text())
        assert data["_fixture"]["synthetic"] is False and data["_fixture"]["recorded_from"].startswith("Elasticsearch")
        assert "threadwise-fixture-" not in json.dumps(data["body"])
    hits = json.loads((tmp_path / "search_knn.json").read_text())["body"]["hits"]["hits"]
    assert [h["_id"] for h in hits][:1] == ["d2:0"]
