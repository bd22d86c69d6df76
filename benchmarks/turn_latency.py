"""Turn latency: one question through the TurnService door, no LLM, over the sample corpus (issue 16).

    python -P benchmarks/turn_latency.py [--turns 200] [--warmup 10] [--data-dir DIR] [--cases FILE]

Ingests `examples/corpus` as the behaviour set does (handbook + policies -> default, specs ->
products, receipts -> finance) into a fresh data directory (or reuses `--data-dir` if it already
holds the corpus), builds the product with `build_app` (embedded SQLite storage, LLM provider
"none", no reranker, the behaviour set's fixed clock), warms up, then asks `--turns` questions
through `app.service.answer(Turn(...))`, each on its own thread. The questions are the
single-turn `question`s of examples/behavior/cases.yaml (with their channel, if any), cycled
with small textual variations so that the embedder's cache of recent queries does not hide the
encoding cost. Prints a JSON summary: p50/p95/max of the whole turn (wall clock around
`answer`) and of each stage (`result.timings`), and embeddings per turn, counted by wrapping
this embedder instance's `embed` and `encode` in the benchmark only (texts asked for, and
texts actually run through the model, i.e. the single-text cache's misses plus every batch).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bots.bootstrap import build_app  # noqa: E402
from bots.settings import Settings  # noqa: E402
from core.contracts import Turn  # noqa: E402
from core.orchestrator.service import OPERATOR_CHANNEL  # noqa: E402

CASES = REPO / "examples" / "behavior" / "cases.yaml"
# Small variations: a different text each cycle (so no cached query embedding), same meaning.
VARIANTS: list[Callable[[str], str]] = [
    lambda q: q,
    lambda q: f"Quick question: {q}",
    lambda q: q.rstrip("?") + ", please?",
    lambda q: f"Hi, {q[0].lower()}{q[1:]}",
    lambda q: f"Can you tell me: {q}",
    lambda q: q.rstrip("?") + "? Thanks!",
]


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def describe(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 2),
        "p95": round(pct(values, 95), 2),
        "max": round(max(values), 2),
        "mean": round(statistics.fmean(values), 2),
    }


class EmbedCounter:
    """Counts the texts asked of `embed` and those actually encoded, on this one instance."""

    def __init__(self, embedder: Any) -> None:
        self.asked = 0
        self.encoded = 0
        self.calls = 0
        embed = embedder.embed
        # The ONNX encoder's every forward pass goes through `encode_batch`; other encoders' through `encode`.
        name = "encode_batch" if hasattr(embedder, "encode_batch") else "encode"
        forward = getattr(embedder, name)

        async def counted_embed(texts: Any) -> Any:
            self.calls += 1
            self.asked += len(texts)
            return await embed(texts)

        def counted_forward(texts: list[str]) -> Any:
            self.encoded += len(texts)
            return forward(texts)

        embedder.embed = counted_embed
        setattr(embedder, name, counted_forward)

    def take(self) -> tuple[int, int, int]:
        out = (self.calls, self.asked, self.encoded)
        self.calls = self.asked = self.encoded = 0
        return out


class CallTimer:
    """Wall time spent in chosen async methods of this app's instances during one turn (benchmark only)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)

    def wrap(self, obj: Any, method: str, label: str) -> None:
        inner = getattr(obj, method)

        async def timed(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await inner(*a, **k)
            finally:
                self.spent[label] += (time.perf_counter() - t0) * 1000

        setattr(obj, method, timed)

    def take(self) -> dict[str, float]:
        out = dict(self.spent)
        self.spent.clear()
        return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    spec = yaml.safe_load(args.cases.read_text(encoding="utf-8"))
    base = args.cases.resolve().parent
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="threadwise-turnbench-"))
    settings = Settings().model_copy(
        update={
            "data_dir": data_dir,
            "database_url": None,
            "fixed_now": dt.datetime.fromisoformat(str(spec["clock"]).replace("Z", "+00:00")),
            "channel_mismatch_probe": spec.get("channel_mismatch_probe", False),
            "reranker_model": None,
            "llm_provider": "none",
        }
    )
    started = time.perf_counter()
    app = await build_app(settings)
    build_s = time.perf_counter() - started
    try:
        started = time.perf_counter()
        if not await app.storage.registry.list_documents():
            for entry in spec["corpus"]:
                report = await app.ingestor.ingest([(base / entry["path"]).resolve()], collection=entry["collection"])
                if not report.ok:
                    raise RuntimeError(f"corpus failed to ingest: {report.failed}")
        ingest_s = time.perf_counter() - started
        for channel, collections in spec.get("channels", {}).items():
            await app.storage.channels.set(channel, collections)
        cases = [c for c in spec["cases"] if not c.get("history") and c.get("reranker") != "unavailable"]
        counter = EmbedCounter(app.embedder)
        timer = CallTimer()
        storage = app.storage
        timer.wrap(app.service._graph, "run", "graph.run (all stages, wall)")
        for obj, method in (
            (storage.conversations, "open"),
            (storage.conversations, "save"),
            (storage.ledger, "claim"),
            (storage.decisions, "record"),
            (storage.channels, "mapping"),
        ):
            timer.wrap(obj, method, f"storage.{type(obj).__name__}.{method}")

        async def ask(i: int) -> tuple[float, Any, str]:
            case = cases[i % len(cases)]
            text = VARIANTS[(i // len(cases)) % len(VARIANTS)](case["question"])
            turn = Turn(
                platform="cli",
                tenant="turnbench",
                channel_key=case.get("channel") or OPERATOR_CHANNEL,
                thread=f"turnbench-{i}-{uuid.uuid4().hex[:8]}",
                user="bench",
                message_key=f"cli:{uuid.uuid4()}",
                text=text,
                received_at=app.clock.now(),
            )
            t0 = time.perf_counter()
            answer = await app.service.answer(turn)
            took = (time.perf_counter() - t0) * 1000
            return took, answer.result, case["id"]

        # Warm-up: different texts from the measured ones (offset into the variants), not timed.
        for i in range(args.warmup):
            await ask(len(cases) * len(VARIANTS) * 7 + i)  # cycles back to variant 1, 2 …; cache emptied below
        counter.take()
        timer.take()
        getattr(app.embedder, "_recent", {}).clear()

        turns: list[float] = []
        stages: dict[str, list[float]] = defaultdict(list)
        per_case: dict[str, list[float]] = defaultdict(list)
        calls, asked, encoded = [], [], []
        kinds: dict[str, int] = defaultdict(int)
        around: dict[str, list[float]] = defaultdict(list)
        for i in range(args.turns):
            took, result, case_id = await ask(i)
            c, a, e = counter.take()
            spent = timer.take()
            for label, ms in spent.items():
                around[label].append(ms)
            storage_ms = sum(v for k, v in spent.items() if k.startswith("storage."))
            around["storage (all five calls)"].append(storage_ms)
            around["turn outside graph.run"].append(took - spent.get("graph.run (all stages, wall)", 0.0))
            turns.append(took)
            per_case[case_id].append(took)
            calls.append(c)
            asked.append(a)
            encoded.append(e)
            if result is not None:
                kinds[result.kind] += 1
                for stage, ms in result.timings.items():
                    stages[stage].append(ms)
                stages["(sum of stages)"].append(sum(result.timings.values()))
        slowest = sorted(((statistics.median(v), k) for k, v in per_case.items()), reverse=True)[:5]
        return {
            "machine": {
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
                "encoder": settings.encoder if hasattr(settings, "encoder") else None,
            },
            "data_dir": str(data_dir),
            "build_s": round(build_s, 2),
            "ingest_s": round(ingest_s, 2),
            "questions": len(cases),
            "turns": args.turns,
            "warmup": args.warmup,
            "turn_ms": describe(turns),
            "stages_ms": {k: describe(v) for k, v in sorted(stages.items(), key=lambda kv: -statistics.median(kv[1]))},
            "around_the_graph_ms": {k: describe(v) for k, v in sorted(around.items())},
            "embeddings_per_turn": {
                "embed_calls": describe([float(x) for x in calls]),
                "texts_asked": describe([float(x) for x in asked]),
                "texts_encoded": describe([float(x) for x in encoded]),
            },
            "kinds": dict(kinds),
            "slowest_questions_p50_ms": [{"id": k, "p50": round(v, 1)} for v, k in slowest],
            "targets": {
                "p50_le_60ms": statistics.median(turns) <= 60,
                "p95_le_150ms": pct(turns, 95) <= 150,
            },
        }
    finally:
        await app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--cases", type=Path, default=CASES)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()
