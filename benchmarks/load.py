"""Load: a burst of signed Slack events and concurrent Teams activities against one `threadwise serve`.

    PYTHONPATH=. python benchmarks/load.py [--slack 500] [--teams 100] [--deadline 900] [--data-dir DIR]

Loopback only: the Slack Web API and the Bot Framework connector are the test suite's recording
servers (`tests/servers.py`); the server is the real `threadwise serve` subprocess over the sample
corpus (ingested with `threadwise ingest examples/corpus` unless `--data-dir` already holds it).
The Slack burst mixes first deliveries with retries (same event id, `X-Slack-Retry-Num`) and the
`message` twin Slack sends for every @mention (another event id); only first deliveries are turns.
Bounded in count and time: every figure is taken once all turns are answered or the deadline passed.
Event-loop lag is the server's own `/metrics` histogram (a 100 ms timer's lateness), its growth
between the warm-up and the last answer, given as the bucket bound that p50 and p99 fall under.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.servers import (  # noqa: E402  (the loopback platforms live with the tests)
    BOT_USER,
    BotConnectorServer,
    SlackApiServer,
    slack_event,
    slack_signature_headers,
    teams_activity,
)

SECRET = "load-signing-secret"
QUESTIONS = [
    "How many weeks of parental leave do new parents get?",
    "What is the hotel limit per night?",
    "How many days of annual leave do employees get?",
    "Who approves travel expenses?",
    "What is the notice period?",
]
NOTICE = "in line"  # "you are 5th in line": a queued turn's notice before its answer (bots/replies.py)
TURNED_AWAY = ("too busy", "questions in the last minute")  # the final reply of a turn not answered


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def _rss_kib(pid: int) -> tuple[int, int]:
    """(current RSS, peak RSS) of a process, in KiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def _slack_requests(count: int, rng: random.Random, run: int) -> tuple[list[tuple[str, dict[str, str]]], set[str]]:
    """`count` signed deliveries: about 70 % first deliveries, 15 % retries, 15 % message twins."""
    deliveries: list[tuple[str, dict[str, str]]] = []
    turns: set[str] = set()
    firsts: list[tuple[str, dict[str, Any]]] = []
    n = 0
    while len(deliveries) < count:
        kind = rng.random()
        if firsts and kind < 0.15:  # a retry of an earlier delivery: same body, same event id
            body, _ = rng.choice(firsts)
            headers = slack_signature_headers(SECRET, body) | {
                "X-Slack-Retry-Num": "1",
                "X-Slack-Retry-Reason": "http_timeout",
            }
            deliveries.append((body, headers))
            continue
        if firsts and kind < 0.30:  # the `message` twin of a mention: another event id, same message
            _, event = rng.choice(firsts)
            twin = {**event, "type": "message", "channel_type": "channel"}
            body = slack_event(twin, f"EvTwin{event['ts'].replace('.', '')}")
            deliveries.append((body, slack_signature_headers(SECRET, body)))
            continue
        n += 1
        ts = f"{run:05d}{n:05d}.{n:06d}"  # new message keys every run: a reused data dir has a ledger
        event = {
            "type": "app_mention",
            "user": f"U{n % 40:04d}",
            "text": f"<@{BOT_USER}> {QUESTIONS[n % len(QUESTIONS)]}",
            "ts": ts,
            "channel": f"C{n % 25:04d}",
        }
        body = slack_event(event, f"Ev{ts.replace('.', '')}")
        firsts.append((body, event))
        turns.add(ts)
        deliveries.append((body, slack_signature_headers(SECRET, body)))
    return deliveries, turns


async def _post(
    session: aiohttp.ClientSession, url: str, body: str, headers: dict[str, str], delay_s: float = 0.0
) -> tuple[int, float]:
    if delay_s:
        await asyncio.sleep(delay_s)  # paced delivery: request i leaves at i / rate
    started = time.perf_counter()
    async with session.post(url, data=body, headers=headers) as response:
        await response.read()
        return response.status, (time.perf_counter() - started) * 1000


async def _wait_ready(url: str, process: asyncio.subprocess.Process) -> None:
    deadline = time.monotonic() + 300
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            if process.returncode is not None:
                raise SystemExit("threadwise serve exited during start-up")
            try:
                async with session.get(url + "/readyz") as ready:
                    if ready.status == 200:
                        return
                async with session.get(url + "/healthz") as health:
                    if ready.status == 404 and health.status == 200 and (await health.json()).get("ready", True):
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.5)
    raise SystemExit("threadwise serve never became ready")


def _replies(slack: SlackApiServer, connector: BotConnectorServer) -> tuple[Counter[str], Counter[str], int, int]:
    """Final replies per Slack thread and per Teams conversation, how many were "busy" or "too many"
    replies rather than answers, and how many queue notices were posted (notices are not replies)."""
    posts = [(str(c.body.get("thread_ts")), str(c.body.get("text", ""))) for c in slack.named("chat.postMessage")]
    posts += [(c.path, str(c.body.get("text", ""))) for c in connector.calls if c.method == "message"]
    notices = sum(NOTICE in text for _, text in posts)
    final = [(where, text) for where, text in posts if NOTICE not in text]
    turned_away = sum(any(t in text for t in TURNED_AWAY) for _, text in final)
    slack_final = Counter(where for where, _ in final if not where.startswith("a:"))
    teams_final = Counter(where for where, _ in final if where.startswith("a:"))
    return slack_final, teams_final, turned_away, notices


async def _profile(pid: int, output: str) -> asyncio.subprocess.Process:
    """py-spy recording the server (all threads, idle ones too) until interrupted, as speedscope JSON."""
    command = ["py-spy", "record", "--pid", str(pid), "--rate", "500", "--threads", "--idle"]
    recorder = await asyncio.create_subprocess_exec(
        *command, "--format", "speedscope", "--output", output, stdout=asyncio.subprocess.PIPE
    )
    assert recorder.stdout is not None
    while b"Sampling process" not in (line := await recorder.stdout.readline()):  # attached
        if not line:
            raise SystemExit(f"py-spy could not attach to the server (pid {pid})")
    return recorder


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(15)
    data = Path(args.data_dir or tempfile.mkdtemp(prefix="threadwise-load-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("THREADWISE_", "SLACK_", "Microsoft"))}
    env |= {"THREADWISE_DATA_DIR": str(data), "PYTHONPATH": str(REPO)}
    if not (data / "threadwise.db").exists():
        ingest = ["threadwise", "ingest", str(REPO / "examples" / "corpus")]
        await asyncio.to_thread(subprocess.run, ingest, env=env, check=True)
    slack, connector = await SlackApiServer().start(), await BotConnectorServer().start()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env |= {"SLACK_BOT_TOKEN": "xoxb-load", "SLACK_SIGNING_SECRET": SECRET, "THREADWISE_SLACK_API_URL": slack.api_url}
    env |= {"THREADWISE_RATE_LIMIT_PER_MINUTE": str(args.rate_limit)}
    if args.queue_size is not None:
        env |= {"THREADWISE_TURN_QUEUE_SIZE": str(args.queue_size)}
    log = (data / "serve.log").open("wb")
    server = await asyncio.create_subprocess_exec(
        "threadwise", "serve", "--host", "127.0.0.1", "--port", str(port), env=env, stdout=log, stderr=log
    )
    rss: list[int] = []
    try:
        await _wait_ready(url, server)
        rss_idle = _rss_kib(server.pid)[0]
        run_id = int(time.time()) % 100_000
        deliveries, slack_turns = _slack_requests(args.slack, rng, run_id)
        activities = [
            teams_activity(
                activity_id=f"load-{run_id}-{i}",
                text=QUESTIONS[i % len(QUESTIONS)],
                service_url=connector.url,
                conversation_id=f"a:load-{run_id}-{i}",
                conversation_type="personal",
                mention=False,
            )
            for i in range(args.teams)
        ]
        connection = aiohttp.TCPConnector(limit=0)
        await _warm_up(url, slack)
        lag_before = await _loop_lag(url)
        started = time.monotonic()
        async with aiohttp.ClientSession(connector=connection) as session:
            sampling = asyncio.create_task(_sample(server.pid, rss))
            profiler = await _profile(server.pid, args.profile) if args.profile else None
            slack_acks, teams_acks = await asyncio.gather(
                asyncio.gather(
                    *(
                        _post(session, url + "/slack/events", b, h, i / args.rate if args.rate else 0.0)
                        for i, (b, h) in enumerate(deliveries)
                    )
                ),
                asyncio.gather(
                    *(
                        _post(session, url + "/api/messages", json.dumps(a), {"Content-Type": "application/json"})
                        for a in activities
                    )
                ),
            )
            if profiler is not None:  # the acks only: the burst's arrival, not the answers after it
                profiler.send_signal(signal.SIGINT)
                await profiler.wait()
            expected = len(slack_turns) + len(activities)
            while time.monotonic() - started < args.deadline:
                slack_posts, teams_posts, _, _ = _replies(slack, connector)
                if len(slack_posts) + len(teams_posts) >= expected:
                    break
                await asyncio.sleep(0.5)
            answered_at = time.monotonic()
            sampling.cancel()
        slack_posts, teams_posts, turned_away, notices = _replies(slack, connector)
        rss_now, rss_peak = _rss_kib(server.pid)
        lag = _lag_quantiles(lag_before, await _loop_lag(url))
    finally:
        server.terminate()
        await asyncio.wait_for(server.wait(), timeout=120)
        await slack.stop()
        await connector.stop()
    replied = len(set(slack_posts) & slack_turns) + len(teams_posts)
    slack_ms = [ms for _, ms in slack_acks]
    teams_ms = [ms for _, ms in teams_acks]
    return {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPU, Python {platform.python_version()}",
        "slack_deliveries": len(deliveries),
        "slack_rate_per_s": args.rate or "all at once",
        "queue_size": args.queue_size or "default",
        "rate_limit_per_minute": args.rate_limit,
        "slack_turns": len(slack_turns),
        "teams_activities": len(activities),
        "slack_ack_ms": {"p50": round(_percentile(slack_ms, 0.5), 1), "p99": round(_percentile(slack_ms, 0.99), 1)},
        "slack_ack_statuses": dict(Counter(status for status, _ in slack_acks)),
        "teams_ack_ms": {"p50": round(_percentile(teams_ms, 0.5), 1), "p99": round(_percentile(teams_ms, 0.99), 1)},
        "teams_ack_statuses": dict(Counter(status for status, _ in teams_acks)),
        "replied": replied,
        "turned_away": turned_away,
        "queue_notices": notices,
        "replies_per_minute": round(replied / max(answered_at - started, 1e-9) * 60, 1),
        "seconds_to_last_answer": round(answered_at - started, 1),
        "duplicates": sum(n - 1 for n in slack_posts.values() if n > 1)
        + sum(n - 1 for n in teams_posts.values() if n > 1),
        "silent_turns": len(slack_turns - set(slack_posts)) + len(activities) - len(teams_posts),
        "event_loop_lag_ms": lag,
        "rss_mib": {
            "idle": round(rss_idle / 1024),
            "median_under_load": round(statistics.median(rss) / 1024) if rss else None,
            "after": round(rss_now / 1024),
            "peak": round(rss_peak / 1024),
        },
        "data_dir": str(data),
    }


async def _warm_up(url: str, slack: SlackApiServer) -> None:
    """One answered question first, so the burst measures a warm server (first-use imports, `auth.test`)."""
    ts = f"{time.time():.6f}"
    event = {"type": "app_mention", "user": "UWARM", "text": f"<@{BOT_USER}> {QUESTIONS[0]}", "ts": ts}
    body = slack_event(event | {"channel": "CWARM"}, f"EvWarm{ts}")
    async with aiohttp.ClientSession() as session:
        await _post(session, url + "/slack/events", body, slack_signature_headers(SECRET, body))
    await slack.wait_for("chat.postMessage", within=120)
    slack.calls.clear()


async def _loop_lag(url: str) -> dict[float, float]:
    """The server's own `threadwise_event_loop_lag_seconds` histogram: cumulative count per bucket bound."""
    async with aiohttp.ClientSession() as session, session.get(url + "/metrics") as response:
        text = await response.text()
    buckets: dict[float, float] = {}
    for family in text_string_to_metric_families(text):
        if family.name == "threadwise_event_loop_lag_seconds":
            for sample in family.samples:
                if sample.name.endswith("_bucket"):
                    buckets[float(sample.labels["le"])] = sample.value
    return buckets


def _lag_quantiles(before: dict[float, float], after: dict[float, float]) -> dict[str, Any]:
    """Loop lag during the burst (the histogram's growth): samples and the bucket bound of p50/p99, in ms."""
    grown = sorted((bound, after[bound] - before.get(bound, 0.0)) for bound in after)
    total = grown[-1][1] if grown else 0.0

    def bound_of(q: float) -> float | None:
        for bound, count in grown:
            if total and count >= q * total:
                return None if bound == float("inf") else round(bound * 1000, 1)
        return None

    return {"samples": int(total), "p50_at_most": bound_of(0.5), "p99_at_most": bound_of(0.99)}


async def _sample(pid: int, into: list[int]) -> None:
    while True:
        into.append(_rss_kib(pid)[0])
        await asyncio.sleep(0.5)


def main() -> None:
    """Parse the arguments, run once, print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slack", type=int, default=500, help="signed Slack deliveries in the burst")
    parser.add_argument("--teams", type=int, default=100, help="concurrent Teams activities")
    parser.add_argument("--deadline", type=float, default=900.0, help="seconds to wait for every answer")
    parser.add_argument("--rate", type=float, default=0.0, help="Slack deliveries per second (0: all at once)")
    parser.add_argument("--queue-size", type=int, help="THREADWISE_TURN_QUEUE_SIZE (default: the product's)")
    parser.add_argument("--rate-limit", type=int, default=0, help="THREADWISE_RATE_LIMIT_PER_MINUTE (0: off)")
    parser.add_argument("--profile", help="record the server with py-spy (on PATH) during the acks, to this file")
    parser.add_argument("--data-dir", help="a data directory with the sample corpus already ingested")
    args = parser.parse_args()
    if args.profile and shutil.which("py-spy") is None:
        parser.error("--profile needs py-spy on PATH (pip install py-spy)")
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()
