"""The installed `threadwise` command, driven from outside as a newcomer would."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_CORPUS
from tests.environment import product_env

pytestmark = pytest.mark.e2e
SPEC_KEYS = {
    "answer",
    "kind",
    "terminal",
    "next_action",
    "branch",
    "evidence_level",
    "confidence",
    "band",
    "final_reason",
    "applicability_note",
    "uncertainty_note",
    "citations",
    "route",
    "plan",
    "context_packet",
    "retrieval_report",
    "coverage",
    "table",
    "overflow",
    "conversation_id",
    "turn_id",
    "errors",
    "timings",
}


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["threadwise", *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path]:
    """A data directory with the sample corpus ingested by the CLI."""
    cwd = tmp_path_factory.mktemp("cli")
    env = product_env()
    env["THREADWISE_DATA_DIR"] = str(cwd / "data")
    done = run(["ingest", str(SAMPLE_CORPUS)], env, cwd)
    assert done.returncode == 0, done.stderr
    assert re.search(r"added \d+, updated 0, unchanged 0", done.stderr), done.stderr
    return env, cwd


def _sections(path: Path) -> set[str]:
    """Every heading path of a Markdown file, as the loader names sections."""
    stack: list[tuple[int, str]] = []
    sections = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^(#{2,6})\s+(.*)", line)
        if match:
            level = len(match.group(1))
            stack = [s for s in stack if s[0] < level] + [(level, match.group(2).strip())]
            sections.add(" > ".join(t for _, t in stack))
    return sections


def test_ask_json_answers_with_a_real_section(workdir: tuple[dict[str, str], Path]) -> None:
    env, cwd = workdir
    done = run(["ask", "How many weeks of parental leave do new parents get?", "--json"], env, cwd)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) >= SPEC_KEYS
    assert (result["kind"], result["branch"], result["terminal"]) == ("answer", "SUCCESS", "success")
    assert "20 weeks" in result["answer"]
    citation = result["citations"][0]
    handbook = SAMPLE_CORPUS / "handbook" / "employee-handbook.md"
    assert citation["title"] == "Brightfield Energy Employee Handbook"
    assert citation["section"] in _sections(handbook)
    assert f"[{citation['n']}]" in result["answer"]


def test_off_corpus_question_is_uncertain_and_logged(workdir: tuple[dict[str, str], Path]) -> None:
    env, cwd = workdir
    question = "What is the boiling point of mercury on Jupiter?"
    done = run(["ask", question, "--json"], env, cwd)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["kind"] == "uncertainty" and result["citations"] == []
    assert result["branch"] in ("LOW_CONFIDENCE", "EMPTY_SET")
    queries = [r["query"] for r in result["retrieval_report"]]
    assert question in queries and all(q in result["answer"] for q in queries)

    logged = run(["decisions", "--last", "1", "--json"], env, cwd)
    assert logged.returncode == 0, logged.stderr
    decision = json.loads(logged.stdout)
    assert decision["turn_id"] == result["turn_id"]
    assert decision["route"] == "hybrid" and decision["branch"] == result["branch"]
    assert {"intake", "retrieve", "evaluate", "respond"} <= set(decision["timings"])
    assert decision["attempts"][0]["matches"] >= 0


def test_second_ingest_adds_nothing_and_broken_files_are_reported(
    workdir: tuple[dict[str, str], Path], tmp_path: Path
) -> None:
    env, cwd = workdir
    again = run(["ingest", str(SAMPLE_CORPUS)], env, cwd)
    assert again.returncode == 0, again.stderr
    assert re.search(r"added 0, updated 0, unchanged \d+", again.stderr), again.stderr
    assert "; 0 segments and 0 annotations written" in again.stderr

    (tmp_path / "good.md").write_text("# Good\n\nThe cafeteria opens at 8:00.\n", encoding="utf-8")
    (tmp_path / "broken.md").write_bytes(b"# Broken\n\n\xff\xfe\x00\x00 binary, in no text encoding")
    mixed = run(["ingest", str(tmp_path), "--collection", "misc"], env, cwd)
    assert mixed.returncode == 1
    assert "added 1" in mixed.stderr and "FAILED" in mixed.stderr and "broken.md" in mixed.stderr


def test_a_wrong_setting_stops_with_its_name(tmp_path: Path) -> None:
    env = product_env()
    env["THREADWISE_SEARCH_BACKEND"] = "solr"
    done = run(["ask", "anything"], env, tmp_path)
    assert done.returncode == 2
    assert "THREADWISE_SEARCH_BACKEND" in done.stderr


def test_a_thread_continues_across_processes_with_channel_access(
    workdir: tuple[dict[str, str], Path], tmp_path: Path
) -> None:
    env, cwd = workdir
    assert run(["channels", "set", "slack:T1:C-fleet", "default"], env, cwd).returncode == 0
    assert run(["channels", "set", "slack:T1:C-empty", "archive"], env, cwd).returncode == 0
    listed = run(["channels", "list"], env, cwd)
    assert "slack:T1:C-fleet\tdefault" in listed.stdout and "slack:T1:C-empty\tarchive" in listed.stdout

    first = run(
        ["ask", "List all tire receipts", "--thread", "T-42", "--channel", "slack:T1:C-fleet", "--json"], env, cwd
    )
    assert first.returncode == 0, first.stderr
    table = json.loads(first.stdout)["table"]
    assert (table["total"], table["shown"]) == (101, 20) and table["result_set_id"]

    rest = run(["ask", "show the rest", "--thread", "T-42", "--channel", "slack:T1:C-fleet", "--json"], env, cwd)
    second = json.loads(rest.stdout)
    assert "Rows 21–40 of 101" in second["answer"]
    assert second["conversation_id"] == json.loads(first.stdout)["conversation_id"]

    exported = run(["export", table["result_set_id"], "--out", str(tmp_path / "tires.csv")], env, cwd)
    assert exported.returncode == 0, exported.stderr
    lines = (tmp_path / "tires.csv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 102 and lines[0].startswith("receipt_id,")

    walled = run(["ask", "List all tire receipts", "--channel", "slack:T1:C-empty", "--json"], env, cwd)
    assert json.loads(walled.stdout)["citations"] == []


def test_eval_retrieval_prints_the_spec_json(tmp_path: Path) -> None:
    beir = tmp_path / "tiny-beir"
    (beir / "qrels").mkdir(parents=True)
    topics = ["solar panel width", "parental leave weeks", "winter tyre season", "hotel cost limit", "train travel"]
    (beir / "corpus.jsonl").write_text(
        "".join(
            json.dumps({"_id": f"D{i}", "title": t.title(), "text": f"This note is about {t}."}) + "\n"
            for i, t in enumerate(topics)
        ),
        encoding="utf-8",
    )
    (beir / "queries.jsonl").write_text(
        "".join(json.dumps({"_id": f"Q{i}", "text": t}) + "\n" for i, t in enumerate(topics)), encoding="utf-8"
    )
    (beir / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"Q{i}\tD{i}\t1\n" for i in range(len(topics))), encoding="utf-8"
    )
    (tmp_path / "tmp").mkdir()
    env = product_env(TMPDIR=str(tmp_path / "tmp"))
    done = run(["eval", "retrieval", str(beir), "--json"], env, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert list((tmp_path / "tmp").glob("threadwise-*")) == [], "the throwaway index outlived the run"
    result = json.loads(done.stdout)
    assert (result["dataset"], result["documents"], result["queries"]) == ("tiny-beir", 5, 5)
    assert set(result["modes"]) == {"bm25", "dense", "hybrid"}
    assert set(result["modes"]["hybrid"]) == {"ndcg_at_10", "recall_at_100", "mrr_at_10"}
    assert result["modes"]["hybrid"]["ndcg_at_10"] > 0.9  # every query names its own document
    assert set(result["timings"]) == {"index_s", "query_ms_p50", "query_ms_p95"}


def test_an_error_is_not_wrapped_inside_its_path(tmp_path: Path) -> None:
    """Errors on stderr keep each line whole, however long the path they name (copied, grepped)."""
    deep = tmp_path / ("a-folder-with-a-long-name-" * 4) / "set.yaml"
    deep.parent.mkdir(parents=True)
    deep.write_text("cases: [unclosed", encoding="utf-8")
    done = run(["eval", "behavior", str(deep)], product_env(COLUMNS="80"), tmp_path)
    assert done.returncode == 2
    assert f"error: {deep} is not a valid behaviour set" in done.stderr, done.stderr
