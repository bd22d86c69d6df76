"""The event loop's lag series: a loop blocked by synchronous work shows as late timers."""

from __future__ import annotations

import asyncio
import time

from prometheus_client import CollectorRegistry

from bots.metrics import ServiceMetrics


async def test_a_blocked_loop_shows_in_the_lag_series() -> None:
    metrics = ServiceMetrics(registry=CollectorRegistry())
    stop = asyncio.Event()
    watching = asyncio.create_task(metrics.watch_loop(stop, every_s=0.01))
    await asyncio.sleep(0)  # the watcher's first timer is now set
    time.sleep(0.08)  # noqa: ASYNC251 -- blocking the loop is what this test measures
    stop.set()
    await watching  # the watcher wakes from its late timer, observes the lag, and sees `stop`
    samples = {sample.name: sample.value for metric in metrics.registry.collect() for sample in metric.samples}
    assert samples["threadwise_event_loop_lag_seconds_count"] >= 1
    assert samples["threadwise_event_loop_lag_seconds_sum"] >= 0.06
    body, _ = metrics.exposition()
    assert b"threadwise_event_loop_lag_seconds_bucket" in body
