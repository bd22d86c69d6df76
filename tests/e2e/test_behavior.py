"""`threadwise eval behavior`: the committed set passes, a failing case fails the run, reruns agree."""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.conftest import REPO, drop_test_indices, elasticsearch_url
from tests.environment import product_env

pytestmark = pytest.mark.e2e
BEHAVIOR = REPO / "examples" / "behavior"


def run(args: list[str], tmp_path: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = product_env(**settings)
    return subprocess.run(
        ["threadwise", "eval", "behavior", *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _never_worse_than_plain_hybrid(summary: list[dict[str, object]]) -> None:
    """Issue 12's guard: no case the plain-hybrid baseline answers correctly fails on the agentic path."""
    worse = [case["id"] for case in summary if case["baseline_passed"] and not case["passed"]]
    assert worse == []
    assert sum(bool(c["passed"]) for c in summary) >= sum(bool(c["baseline_passed"]) for c in summary)


def test_the_held_out_set_is_answered_better_than_plain_hybrid(tmp_path: Path) -> None:
    """The held-out set (written from its documents, not from the code) through the real product."""
    done = run([str(REPO / "examples" / "heldout" / "cases.yaml"), "--out", str(tmp_path / "out")], tmp_path)
    assert done.returncode in (0, 1), done.stderr[-4000:]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert len(summary) == 34
    _never_worse_than_plain_hybrid(summary)
    passed = {case["id"] for case in summary if case["passed"]}
    # The kinds of question issue 12 is about, each answered right.
    assert {"ho-overtime", "ho-nonsense-mash", "ho-narrower-than-1-1-m", "ho-mileage-2024"} <= passed
    assert {"ho-contoso-q3-revenue", "ho-northwind-q2-net-income", "ho-contoso-q4-revenue"} <= passed


def test_the_committed_behaviour_set_passes(tmp_path: Path) -> None:
    done = run([str(BEHAVIOR / "cases.yaml"), "--out", str(tmp_path / "out")], tmp_path)
    assert done.returncode == 0, done.stderr[-4000:]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert len(summary) >= 40 and all(case["passed"] for case in summary)
    assert {case["route"] for case in summary} >= {"structured", "hybrid", "long_text", "direct", "clarify"}
    branches = {case["branch"] for case in summary}
    assert branches >= {
        "SUCCESS",
        "LOW_CONFIDENCE",
        "EMPTY_SET",
        "CHANNEL_MISMATCH",
        "RERANK_BYPASSED",
        "GUARDRAIL_BLOCKED",
        "INCOHERENT",
        "NEEDS_CLARIFICATION",
    }
    _never_worse_than_plain_hybrid(summary)
    result = json.loads((tmp_path / "out" / "tire-receipts.json").read_text())
    assert result["table"]["total"] == 101 and result["retrieval_report"][0]["tool"] == "annotations_search"


@pytest.mark.elasticsearch
async def test_the_committed_behaviour_set_passes_on_elasticsearch_as_on_embedded(tmp_path: Path) -> None:
    """Parity of the backends (issue 25): every case of the sample set, on the real node."""
    from elasticsearch import AsyncElasticsearch

    url, prefix = elasticsearch_url(), f"threadwise-test-{uuid.uuid4().hex[:8]}"
    settings = {
        "THREADWISE_SEARCH_BACKEND": "elasticsearch",
        "THREADWISE_ELASTICSEARCH_URL": url,
        "THREADWISE_ELASTICSEARCH_PREFIX": prefix,
        "THREADWISE_ELASTICSEARCH_REPLICAS": "0",
    }
    try:
        done = run([str(BEHAVIOR / "cases.yaml"), "--out", str(tmp_path / "out")], tmp_path, **settings)
    finally:
        client = AsyncElasticsearch(url)
        await drop_test_indices(client, prefix)
        await client.close()
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert len(summary) >= 61 and all(case["passed"] for case in summary)


def test_a_failing_case_fails_the_run_and_the_scratch_index_is_removed(tmp_path: Path) -> None:
    """Without --data-dir the run indexes into a throwaway folder, which is gone when it ends."""
    (tmp_path / "tmp").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "note.md").write_text("# Canteen\n\nThe canteen opens at 12:00.\n", encoding="utf-8")
    (tmp_path / "set.yaml").write_text(
        'corpus: [{path: docs}]\nclock: "2026-11-21T09:00:00Z"\ncases:\n'
        "  - {id: opens, question: 'When does the canteen open?', expect: {answer_contains: ['12:00']}}\n"
        "  - {id: wrong, question: 'When does the canteen open?', expect: {route: structured}}\n",
        encoding="utf-8",
    )
    done = run([str(tmp_path / "set.yaml"), "--out", str(tmp_path / "out")], tmp_path, TMPDIR=str(tmp_path / "tmp"))
    assert done.returncode == 1
    assert "PASS opens" in done.stderr and "FAIL wrong" in done.stderr and "1 passed, 1 failed" in done.stderr
    assert list((tmp_path / "tmp").glob("threadwise-*")) == []


def test_reruns_in_separate_processes_agree(tmp_path: Path) -> None:
    signatures = []
    for attempt in range(5):
        done = run(
            [
                str(BEHAVIOR / "stability.yaml"),
                "--json",
                "--data-dir",
                str(tmp_path / "data"),
                "--out",
                str(tmp_path / f"run{attempt}"),
            ],
            tmp_path,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        outcomes = json.loads(done.stdout)
        signatures.append([(o["id"], o["route"], o["branch"], o["citations"]) for o in outcomes])
    assert all(signature == signatures[0] for signature in signatures[1:])
