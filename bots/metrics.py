"""Prometheus series of the service, on a registry the composition root builds and passes in."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from core.contracts import OrchestrationResult

NONE = "none"
"""The route and branch label of a turn the edge turned away before the core (rate limit, full queue)."""
# Seconds: a stage takes milliseconds, an answer with an LLM tens of seconds.
STAGE_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
LAG_PROBE_S = 0.1
"""How often the event loop's lag is sampled."""
TURN_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)


class ServiceMetrics:
    """Turns, stage and end-to-end latency, LLM steps, errors, duplicates, queue depth and feedback."""

    def __init__(self, *, registry: CollectorRegistry) -> None:
        self.registry = registry
        self.turns = Counter(
            "threadwise_turns",
            "Turns handled, by platform, route, branch and outcome (the reply kind, or why none was computed).",
            ["platform", "route", "branch", "outcome"],
            registry=registry,
        )
        self.stage_seconds = Histogram(
            "threadwise_stage_seconds",
            "Time spent in each stage of the answer graph.",
            ["stage"],
            buckets=STAGE_BUCKETS,
            registry=registry,
        )
        self.turn_seconds = Histogram(
            "threadwise_turn_seconds",
            "End to end, from the edge receiving a turn to its reply posted (queue wait included).",
            ["platform"],
            buckets=TURN_BUCKETS,
            registry=registry,
        )
        self.llm_steps = Counter(
            "threadwise_llm_steps",
            "Places an LLM could be used, by stage and the path that ran (llm or deterministic).",
            ["stage", "path"],
            registry=registry,
        )
        self.errors = Counter(
            "threadwise_errors",
            "Failures: `core` (a turn answered with an apology or with errors), `post` (the reply not delivered).",
            ["where"],
            registry=registry,
        )
        self.duplicates = Counter(
            "threadwise_duplicate_deliveries",
            "Deliveries of a message already claimed (platform retries, twins), dropped without a reply.",
            ["platform"],
            registry=registry,
        )
        self.queue_depth = Gauge(
            "threadwise_queue_depth", "Turns waiting for a free answering slot.", registry=registry
        )
        self.in_progress = Gauge("threadwise_turns_in_progress", "Turns being answered now.", registry=registry)
        self.loop_lag = Histogram(
            "threadwise_event_loop_lag_seconds",
            "How late the event loop ran a timer (acks wait this long when the loop is blocked).",
            buckets=LAG_BUCKETS,
            registry=registry,
        )
        self.feedback = Counter(
            "threadwise_feedback", "Feedback clicks on answers, by value (up or down).", ["value"], registry=registry
        )

    def watch_queue(self, depth: Callable[[], int], running: Callable[[], int]) -> None:
        """Read the queue's depth and the running turns at each scrape."""
        self.queue_depth.set_function(lambda: float(depth()))
        self.in_progress.set_function(lambda: float(running()))

    async def watch_loop(self, stop: asyncio.Event, every_s: float = LAG_PROBE_S) -> None:
        """Sample the event loop's lag until `stop`: a timer due in `every_s` runs this much late."""
        while not stop.is_set():
            due = time.perf_counter() + every_s
            await asyncio.sleep(every_s)
            self.loop_lag.observe(max(0.0, time.perf_counter() - due))

    def answered(self, platform: str, result: OrchestrationResult, outcome: str) -> None:
        """One turn the core computed: its labels, stage timings and LLM steps."""
        self.turns.labels(platform, result.route.route, result.branch, outcome).inc()
        for stage, took_ms in result.timings.items():
            self.stage_seconds.labels(stage).observe(took_ms / 1000)
        for step in result.llm_steps:
            self.llm_steps.labels(step.stage, step.path).inc()
        if result.errors:
            self.errors.labels("core").inc()

    def turned_away(self, platform: str, outcome: str) -> None:
        """A turn the edge answered without the core (rate-limited, queue full)."""
        self.turns.labels(platform, NONE, NONE, outcome).inc()

    def exposition(self) -> tuple[bytes, str]:
        """The text format a Prometheus scrape reads, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
