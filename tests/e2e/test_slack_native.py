"""Slack, native: one `threadwise serve` with HTTP events and Socket Mode against the loopback Slack
Web API, checked from the outside — Block Kit, escaping, feedback, buttons, CSV export, refusal."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import subprocess
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
import yaml

from bots.slack.manifest import METHOD_SCOPES, manifest_path
from tests.conftest import SAMPLE_CORPUS
from tests.environment import product_env
from tests.serve_process import free_port, start_serve, wait_ready
from tests.servers import BOT_USER, TEAM, Call, SlackApiServer, slack_event, slack_signature_headers

pytestmark = pytest.mark.e2e
SECRET = "native-signing-secret"
CHANNEL = "C0GENERAL"
UNMAPPED = "C0SECRET"
DRILL = (
    "# Fire drill\n\nThe quarterly fire drill takes place on Friday at 10:00 in the car park, "
    "<!channel> and <@U0BOSS> included & no exceptions.\n"
)


@dataclass
class Native:
    """The running server, its loopback Slack, and its data directory (for `threadwise decisions`)."""

    url: str
    slack: SlackApiServer
    env: dict[str, str]


def _cli(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["threadwise", *args], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
async def native(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Native]:
    folder = tmp_path_factory.mktemp("native")
    (folder / "notices").mkdir()
    (folder / "notices" / "fire-drill.md").write_text(DRILL, encoding="utf-8")
    slack = await SlackApiServer().start()
    env = {
        **product_env(),
        "THREADWISE_DATA_DIR": str(folder / "data"),
        "THREADWISE_UNMAPPED_CHANNELS": "deny",
        "THREADWISE_RATE_LIMIT_PER_MINUTE": "0",  # one person asks every question here
        "SLACK_BOT_TOKEN": "xoxb-native",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_APP_TOKEN": "xapp-native",
        "THREADWISE_SLACK_API_URL": slack.api_url,
    }
    _cli(env, "ingest", str(SAMPLE_CORPUS), str(folder / "notices"))
    _cli(env, "channels", "set", f"slack:{TEAM}:{CHANNEL}", "default")
    port, log = free_port(), folder / "serve.log"
    process = start_serve(env, port, log)
    try:
        url = f"http://127.0.0.1:{port}"
        await wait_ready(url, process, log)
        yield Native(url=url, slack=slack, env=env)
    finally:
        process.terminate()
        process.wait(timeout=60)
        await slack.stop()


async def _post(native: Native, body: str, content_type: str = "application/json") -> tuple[int, float]:
    headers = {**slack_signature_headers(SECRET, body), "Content-Type": content_type}
    started = time.monotonic()
    async with (
        aiohttp.ClientSession() as session,
        session.post(native.url + "/slack/events", data=body, headers=headers) as response,
    ):
        await response.read()
        return response.status, time.monotonic() - started


def _mention(ts: str, text: str, channel: str = CHANNEL, user: str = "U0ADA") -> dict[str, str]:
    return {"type": "app_mention", "user": user, "text": f"<@{BOT_USER}> {text}", "ts": ts, "channel": channel}


def _click(message: Call, action: dict[str, Any], user: str = "U0ADA") -> dict[str, Any]:
    """The `block_actions` payload Slack sends when `user` clicks `action` on a posted message."""
    posted = message.body
    ts = f"{time.time():.6f}"
    return {
        "type": "block_actions",
        "user": {"id": user, "team_id": TEAM},
        "team": {"id": TEAM},
        "api_app_id": "A0APP",
        "channel": {"id": posted["channel"]},
        "container": {"type": "message", "message_ts": ts, "channel_id": posted["channel"]},
        "message": {"ts": ts, "thread_ts": posted.get("thread_ts"), "blocks": _blocks(message)},
        "actions": [{**action, "action_ts": ts, "block_id": "b"}],
        "trigger_id": "1.2.3",
    }


async def _post_click(native: Native, payload: dict[str, Any]) -> tuple[int, float]:
    return await _post(native, urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")


def _blocks(call: Call) -> list[dict[str, Any]]:
    blocks = call.body.get("blocks") or []
    return json.loads(blocks) if isinstance(blocks, str) else list(blocks)


def _elements(call: Call, block_type: str) -> list[dict[str, Any]]:
    return [e for b in _blocks(call) if b["type"] == block_type for e in b["elements"]]


def _section_text(call: Call) -> str:
    return "\n".join(b["text"]["text"] for b in _blocks(call) if b["type"] == "section")


async def _reply_in(native: Native, thread: str, count: int = 1) -> list[Call]:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        posts = [c for c in native.slack.named("chat.postMessage") if c.body.get("thread_ts") == thread]
        if len(posts) >= count:
            return posts
        await asyncio.sleep(0.1)
    raise AssertionError(f"no reply #{count} in thread {thread}: {[c.method for c in native.slack.calls]}")


async def _feedback(native: Native, turn_id: str) -> list[tuple[str, str]]:
    """The feedback `threadwise decisions --json` shows for a turn, once there is some (30 s at most)."""
    stored: list[dict[str, str]] = []
    for _ in range(60):
        decisions = json.loads(_cli(native.env, "decisions", "--last", "50", "--json"))
        stored = next(d for d in decisions if d["turn_id"] == turn_id)["feedback"]
        if stored:
            break
        await asyncio.sleep(0.5)
    return [(f["value"], f["user"]) for f in stored]


async def test_an_answer_is_block_kit_with_its_sources_and_feedback(native: Native) -> None:
    ts = "1763800000.000100"
    status, took = await _post(
        native, slack_event(_mention(ts, "How many weeks of parental leave do new parents get?"), "EvN1")
    )
    assert status == 200 and took < 3.0
    reply = (await _reply_in(native, ts))[0]
    blocks = _blocks(reply)
    assert 0 < len(blocks) <= 50
    assert all(len(b["text"]["text"]) <= 3000 for b in blocks if b["type"] == "section")
    assert "20 weeks" in _section_text(reply) and "[1]" in _section_text(reply)
    sources = [e["text"] for e in _elements(reply, "context")]
    assert "*Sources*" in sources and any(s.startswith("[1] ") for s in sources)
    feedback = _elements(reply, "context_actions")[0]
    assert feedback["type"] == "feedback_buttons" and feedback["positive_button"]["value"].startswith("up:")


async def test_document_mentions_reach_slack_escaped(native: Native) -> None:
    ts = "1763800100.000100"
    await _post(native, slack_event(_mention(ts, "When does the quarterly fire drill take place?"), "EvN2"))
    reply = (await _reply_in(native, ts))[0]
    sent = json.dumps(reply.body)
    assert "&lt;!channel&gt;" in sent and "&lt;@U0BOSS&gt;" in sent
    assert "<!channel>" not in sent and "<@U0BOSS>" not in sent


async def test_a_thumbs_up_is_stored_and_shown_by_decisions(native: Native) -> None:
    ts = "1763800200.000100"
    await _post(native, slack_event(_mention(ts, "What are the core hours?"), "EvN3"))
    reply = (await _reply_in(native, ts))[0]
    feedback = _elements(reply, "context_actions")[0]
    up = feedback["positive_button"]["value"]
    action = {"type": "feedback_buttons", "action_id": feedback["action_id"], "value": up}
    status, took = await _post_click(native, _click(reply, action, user="U0CAROL"))
    assert status == 200 and took < 3.0
    assert await _feedback(native, up.removeprefix("up:")) == [("up", "U0CAROL")]


async def test_buttons_work_like_typing_choice_show_more_and_export(native: Native) -> None:
    root = "1763800300.000100"
    await _post(native, slack_event(_mention(root, "List all receipts"), "EvN4"))
    question = (await _reply_in(native, root))[0]
    choices = {e["text"]["text"]: e for e in _elements(question, "actions")}
    assert {"2024", "Export CSV"} <= set(choices)

    status, took = await _post_click(native, _click(question, choices["2024"]))
    assert status == 200 and took < 3.0
    answer = (await _reply_in(native, root, count=2))[1]
    assert "82" in _section_text(answer) and "```" in _section_text(answer)
    buttons = {e["text"]["text"]: e for e in _elements(answer, "actions")}
    assert set(buttons) == {"Show more", "Export CSV"}

    status, took = await _post_click(native, _click(answer, buttons["Show more"]))
    assert status == 200 and took < 3.0
    page = (await _reply_in(native, root, count=3))[2]
    assert "Rows 21–40 of 82" in _section_text(page)

    status, took = await _post_click(native, _click(answer, buttons["Export CSV"]))
    assert status == 200 and took < 3.0
    completed = (await native.slack.wait_for("files.completeUploadExternal"))[-1]
    assert (completed.body["channel_id"], completed.body["thread_ts"]) == (CHANNEL, root)
    upload = native.slack.named("upload")[-1]
    rows = list(csv.reader(io.StringIO(upload.body["content"])))
    assert rows[0] == answer_columns(answer) and len(rows) == 1 + 82


def answer_columns(answer: Call) -> list[str]:
    """The column names of the table in an answer's code block (its first line)."""
    code = next(
        b["text"]["text"] for b in _blocks(answer) if b["type"] == "section" and b["text"]["text"].startswith("```")
    )
    return code.splitlines()[1].split()


async def test_a_refused_channel_gets_one_reply(native: Native) -> None:
    ts = "1763800400.000100"
    event = slack_event(_mention(ts, "What are the core hours?", channel=UNMAPPED), "EvN5")
    assert (await _post(native, event))[0] == 200
    refusal = (await _reply_in(native, ts))[0]
    assert "not set up" in _section_text(refusal) and "threadwise channels set" in _section_text(refusal)
    # Slack retries the event; a later question elsewhere is answered (a barrier), still one reply here.
    assert (await _post(native, event))[0] == 200
    barrier = "1763800401.000100"
    await _post(native, slack_event(_mention(barrier, "What are the core hours?"), "EvN6"))
    await _reply_in(native, barrier)
    assert len(await _reply_in(native, ts)) == 1


async def test_the_same_scenario_over_socket_mode(native: Native) -> None:
    assert native.slack.named("apps.connections.open") and native.slack.named("socket.connect")
    ts = "1763800500.000100"
    event = json.loads(slack_event(_mention(ts, "How many weeks of parental leave do new parents get?"), "EvS1"))
    took = await native.slack.send_envelope("events_api", event, "env-1")
    assert took < 3.0
    reply = (await _reply_in(native, ts))[0]
    assert "20 weeks" in _section_text(reply) and "*Sources*" in [e["text"] for e in _elements(reply, "context")]
    feedback = _elements(reply, "context_actions")[0]
    down = feedback["negative_button"]["value"]
    action = {"type": "feedback_buttons", "action_id": feedback["action_id"], "value": down}
    took = await native.slack.send_envelope("interactive", _click(reply, action, user="U0BOB"), "env-2")
    assert took < 3.0
    assert await _feedback(native, down.removeprefix("down:")) == [("down", "U0BOB")]

    root = "1763800600.000100"
    event = json.loads(slack_event(_mention(root, "List all receipts"), "EvS2"))
    assert await native.slack.send_envelope("events_api", event, "env-3") < 3.0
    question = (await _reply_in(native, root))[0]
    choice = next(e for e in _elements(question, "actions") if e["text"]["text"] == "2023")
    assert await native.slack.send_envelope("interactive", _click(question, choice), "env-4") < 3.0
    answer = (await _reply_in(native, root, count=2))[1]
    assert "```" in _section_text(answer) and "Export CSV" in [e["text"]["text"] for e in _elements(answer, "actions")]


async def test_every_web_api_method_called_is_covered_by_the_manifest(native: Native) -> None:
    called = {c.method for c in native.slack.calls} - {"upload", "socket.connect", "socket.ack"}
    assert called - set(METHOD_SCOPES) == set(), "a Web API method the code calls is not in METHOD_SCOPES"
    manifest = yaml.safe_load(manifest_path().read_text(encoding="utf-8"))
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    needed = {METHOD_SCOPES[m] for m in called if METHOD_SCOPES[m]}
    assert needed <= scopes
