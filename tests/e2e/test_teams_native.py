"""Teams, from the outside: `threadwise serve` answering Bot Framework activities posted to
`/api/messages`, replying to a loopback connector (citations, cards, feedback, streaming, refusal)."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import jsonschema
import pytest

from tests.conftest import SAMPLE_CORPUS
from tests.environment import product_env
from tests.schemas import CARD_SCHEMA, optional_schema
from tests.serve_process import free_port, start_serve, wait_ready
from tests.servers import BotConnectorServer, Call, teams_activity

pytestmark = pytest.mark.e2e
TENANT = "tenant-1"
CHANNEL = "19:general@thread.tacv2"
REFUSED = "19:not-set-up@thread.tacv2"
CARD_TYPE = "application/vnd.microsoft.card.adaptive"


@dataclass
class Served:
    """A running `threadwise serve` (unmapped channels denied) and the connector it replies to."""

    url: str
    connector: BotConnectorServer
    env: dict[str, str]


def _threadwise(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["threadwise", *args], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
async def served(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    folder = tmp_path_factory.mktemp("teams")
    env = product_env()
    env.update({"THREADWISE_DATA_DIR": str(folder / "data"), "THREADWISE_UNMAPPED_CHANNELS": "deny"})
    _threadwise(env, "ingest", *(str(SAMPLE_CORPUS / part) for part in ("handbook", "policies", "receipts")))
    for key in (f"teams:{TENANT}:{CHANNEL}", f"teams:{TENANT}:dm:aad-ada"):
        _threadwise(env, "channels", "set", key, "default")
    connector = await BotConnectorServer().start()
    port, log = free_port(), folder / "serve.log"
    process = start_serve(env, port, log)
    try:
        await wait_ready(f"http://127.0.0.1:{port}", process, log)
        yield Served(url=f"http://127.0.0.1:{port}", connector=connector, env=env)
    finally:
        process.terminate()
        process.wait(timeout=60)
        await connector.stop()


async def _post(served: Served, activity: dict[str, Any]) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(served.url + "/api/messages", json=activity) as response,
    ):
        raw = await response.text()
        return response.status, json.loads(raw) if raw else None


def _in(served: Served, conversation: str, kind: str = "message") -> list[Call]:
    return [c for c in served.connector.named(kind) if c.path == conversation]


async def _reply(served: Served, conversation: str, count: int) -> Call:
    """Wait for the `count`th message posted to `conversation`."""
    for _ in range(900):
        if len(_in(served, conversation)) >= count:
            return _in(served, conversation)[count - 1]
        await served.connector.wait_for("message", count=len(served.connector.named("message")) + 1)
    raise AssertionError(f"no message {count} in {conversation}")


def _channel(activity_id: str, thread: str, text: str, *, conversation: str = CHANNEL) -> dict[str, Any]:
    return teams_activity(
        activity_id=activity_id,
        text=text,
        service_url="",
        conversation_id=f"{conversation};messageid={thread}",
        conversation_type="channel",
    )


def _with_connector(served: Served, activity: dict[str, Any]) -> dict[str, Any]:
    return {**activity, "serviceUrl": served.connector.url}


def _card(call: Call) -> dict[str, Any]:
    cards = [a["content"] for a in call.body.get("attachments") or [] if a["contentType"] == CARD_TYPE]
    assert len(cards) == 1, call.body
    card: dict[str, Any] = cards[0]
    assert len(json.dumps(card).encode()) < 28_000
    # Checked here when ../shared is present; tests/unit/test_teams_render.py skips with the reason.
    schema = optional_schema(CARD_SCHEMA)
    if schema is not None:
        jsonschema.validate(card, schema)
    return card


def _click(served: Served, activity_id: str, thread: str, data: dict[str, Any]) -> dict[str, Any]:
    """An `Action.Submit` click as Teams sends it: a message whose `value` is the button's data."""
    click = _with_connector(served, _channel(activity_id, thread, ""))
    return {**click, "text": None, "entities": [], "value": data}


async def test_channel_answer_cites_refusal_replies_once_and_a_like_is_stored(served: Served) -> None:
    question = _with_connector(served, _channel("1763800000001", "1763800000001", "How many weeks of parental leave?"))
    status, _ = await _post(served, question)
    assert status in (200, 201)
    conversation = f"{CHANNEL};messageid=1763800000001"
    reply = await _reply(served, conversation, 1)
    text, entities = reply.body["text"], reply.body["entities"]
    message = next(e for e in entities if e["type"] == "https://schema.org/Message")
    markers = sorted({int(n) for n in re.findall(r"\[(\d+)\]", text)})
    assert "20 weeks" in text and markers and [c["position"] for c in message["citation"]] == markers
    assert message["citation"][0]["appearance"]["name"] == "Brightfield Energy Employee Handbook"
    assert message["citation"][0]["appearance"]["url"] == "https://intranet.brightfield.example/handbook"
    assert "additionalType" not in message  # no LLM configured: the extractive path wrote it
    assert reply.body["channelData"]["feedbackLoop"] == {"type": "default"}
    assert _in(served, conversation, "typing")

    # The same activity again, then a refused channel: its one reply is the barrier for both.
    assert (await _post(served, question))[0] in (200, 201)
    refused = f"{REFUSED};messageid=1763800000002"
    await _post(served, _with_connector(served, _channel("1763800000002", "1763800000002", "Hi", conversation=REFUSED)))
    refusal = await _reply(served, refused, 1)
    assert "not set up" in refusal.body["text"] and "feedbackLoop" not in refusal.body["channelData"]
    assert len(_in(served, conversation)) == 1 and len(_in(served, refused)) == 1

    like = {
        **question,
        "type": "invoke",
        "name": "message/submitAction",
        "id": "f:1",
        "replyToId": reply.reply_id,
        "value": {"actionName": "feedback", "actionValue": {"reaction": "like", "feedback": '{"feedbackText":""}'}},
    }
    status, _ = await _post(served, like)
    assert status == 200
    decisions = json.loads(_threadwise(served.env, "decisions", "--last", "5", "--json"))
    rated = [d for d in decisions if d["feedback"]]
    assert len(rated) == 1 and "parental leave" in rated[0]["query"]
    assert [(f["value"], f["user"]) for f in rated[0]["feedback"]] == [("up", "aad-ada")]


async def test_a_card_choice_resumes_the_clarification_and_show_more_pages(served: Served) -> None:
    thread = "1763800000100"
    conversation = f"{CHANNEL};messageid={thread}"
    await _post(served, _with_connector(served, _channel(thread, thread, "List all receipts")))
    clarification = await _reply(served, conversation, 1)
    buttons = next(i for i in _card(clarification)["body"] if i["type"] == "ActionSet")["actions"]
    year = next(b for b in buttons if b["title"] == "2024")
    await _post(served, _click(served, "1763800000101", thread, year["data"]))
    table_reply = await _reply(served, conversation, 2)
    card = _card(table_reply)
    table = next(i for i in card["body"] if i["type"] == "Table")
    assert len(table["rows"]) == 21 and "20 of 82 rows" in json.dumps(card)
    assert [a["title"] for a in card["actions"]] == ["Show more", "Export CSV"]

    # "Show more" as an `Action.Execute` invoke this time: the same command, answered in the invoke too.
    more = next(a for a in card["actions"] if a["title"] == "Show more")
    execute = {
        **_click(served, "1763800000102", thread, {}),
        "type": "invoke",
        "name": "adaptiveCard/action",
        "value": {"action": {"type": "Action.Execute", "verb": more["data"]["threadwise"], "data": more["data"]}},
    }
    status, body = await _post(served, execute)
    assert status == 200 and body["statusCode"] == 200
    page = await _reply(served, conversation, 3)
    assert "Rows 21–40 of 82" in page.body["text"]
    assert len(next(i for i in _card(page)["body"] if i["type"] == "Table")["rows"]) == 21

    # "Export CSV" types "export": the core's export reply (its link) comes back in the thread.
    export = next(a for a in card["actions"] if a["title"] == "Export CSV")
    await _post(served, _click(served, "1763800000103", thread, export["data"]))
    exported = await _reply(served, conversation, 4)
    assert "The full table (82 rows) is exported as CSV" in exported.body["text"]


async def test_channel_follow_ups_need_no_mention_only_in_threads_the_bot_answers(served: Served) -> None:
    thread, stranger = "1763800000300", "1763800000400"
    await _post(served, _with_connector(served, _channel(thread, thread, "What are the core hours?")))
    await _reply(served, f"{CHANNEL};messageid={thread}", 1)
    # With the RSC permission Teams delivers every channel message: one in a thread the bot never
    # answered is not for it; a follow-up in its own thread is (and its answer is the barrier).
    lunch = {**_channel("1763800000401", stranger, "lunch?"), "entities": []}
    lunch["text"] = "lunch?"
    await _post(served, _with_connector(served, lunch))
    follow_up = {**_channel("1763800000301", thread, ""), "entities": [], "text": "And how long must passwords be?"}
    await _post(served, _with_connector(served, follow_up))
    answer = await _reply(served, f"{CHANNEL};messageid={thread}", 2)
    assert "14 characters" in answer.body["text"]
    assert not [c for c in served.connector.calls if c.path == f"{CHANNEL};messageid={stranger}"]


async def test_a_personal_chat_streams_an_informative_update_then_one_final_message(served: Served) -> None:
    chat = "a:1personal-stream"
    activity = teams_activity(
        activity_id="1763800000200",
        text="What is the home office allowance?",
        service_url=served.connector.url,
        conversation_id=chat,
        conversation_type="personal",
        mention=False,
    )
    await _post(served, activity)
    final = await _reply(served, chat, 1)
    updates = _in(served, chat, "typing")
    assert updates and updates[0].body["channelData"]["streamType"] == "informative"
    first = updates[0].body
    assert first["text"] == "Searching the documents…" and first["channelData"]["streamSequence"] == 1
    assert {"type": "streaminfo", "streamType": "informative", "streamSequence": 1} in first["entities"]
    stream_id = updates[0].reply_id
    assert final.body["channelData"]["streamType"] == "final" and final.body["channelData"]["streamId"] == stream_id
    assert {"type": "streaminfo", "streamId": stream_id, "streamType": "final"} in final.body["entities"]
    assert "EUR 400" in final.body["text"] and final.at - updates[-1].at >= 1.0
    assert all(u.body["channelData"]["streamType"] == "informative" for u in updates)  # no bare typing
    assert [b.at - a.at >= 1.0 for a, b in itertools.pairwise(updates)] == [True] * (len(updates) - 1)
    assert len(_in(served, chat)) == 1
