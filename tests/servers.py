"""Real aiohttp servers on loopback that speak the Slack Web API and the Bot Framework connector
protocol, recording every call, so the edges are tested against the wire, not patched functions."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web
from slack_sdk.signature import SignatureVerifier

BOT_USER = "UBOT"
TEAM = "T0TEAM"


@dataclass
class Call:
    """One recorded request."""

    method: str
    body: dict[str, Any]
    path: str = ""
    headers: dict[str, str] = field(default_factory=dict)


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._runner: web.AppRunner | None = None
        self.url = ""

    async def _start(self, app: web.Application) -> None:
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self._runner:
            await self._runner.cleanup()

    def named(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    async def wait_for(self, method: str, count: int = 1, within: float = 90.0) -> list[Call]:
        """Wait until `count` calls of `method` arrived; fail with what did arrive."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if len(self.named(method)) >= count:
                return self.named(method)
            await asyncio.sleep(0.1)
        raise AssertionError(f"expected {count} {method} call(s), got {[c.method for c in self.calls]}")


class SlackApiServer(_Recorder):
    """The Slack Web API methods the bot uses: auth.test, chat.postMessage, reactions.*."""

    def __init__(self) -> None:
        super().__init__()
        self._ts = itertools.count(1)

    async def start(self) -> SlackApiServer:
        app = web.Application()
        app.router.add_post("/api/{method}", self._handle)
        await self._start(app)
        return self

    @property
    def api_url(self) -> str:
        return self.url + "/api/"

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        raw = await request.text()
        body = json.loads(raw) if request.content_type == "application/json" and raw else dict(parse_qsl(raw))
        body = {**dict(request.query), **body}  # slack_sdk sends some arguments as query parameters
        self.calls.append(Call(method=method, body=body, headers=dict(request.headers)))
        if not request.headers.get("Authorization", "").startswith("Bearer xoxb-"):
            return web.json_response({"ok": False, "error": "not_authed"})
        if method == "auth.test":
            return web.json_response(
                {
                    "ok": True,
                    "url": "https://acme.slack.test/",
                    "team": "Acme",
                    "user": "threadwise",
                    "team_id": TEAM,
                    "user_id": BOT_USER,
                    "bot_id": "BBOT",
                    "is_enterprise_install": False,
                }
            )
        if method == "chat.postMessage":
            ts = f"{int(time.time())}.{next(self._ts):06d}"
            return web.json_response({"ok": True, "channel": body.get("channel"), "ts": ts, "message": {"ts": ts}})
        if method == "chat.update":
            return web.json_response({"ok": True, "channel": body.get("channel"), "ts": body.get("ts")})
        if method in ("reactions.add", "reactions.remove"):
            return web.json_response({"ok": True})
        return web.json_response({"ok": False, "error": "unknown_method"})


def slack_signature_headers(secret: str, body: str, timestamp: int | None = None) -> dict[str, str]:
    """The headers Slack signs a request with, made by slack_sdk's own verifier."""
    stamp = str(timestamp if timestamp is not None else int(time.time()))
    return {
        "Content-Type": "application/json",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": SignatureVerifier(secret).generate_signature(timestamp=stamp, body=body),
    }


def slack_event(event: dict[str, Any], event_id: str) -> str:
    """An Events API envelope around `event`."""
    return json.dumps(
        {
            "token": "verification-token-unused",
            "team_id": TEAM,
            "api_app_id": "A0APP",
            "event": event,
            "type": "event_callback",
            "event_id": event_id,
            "event_time": int(time.time()),
            "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
        }
    )


class BotConnectorServer(_Recorder):
    """The Bot Framework connector endpoints a bot posts replies to."""

    async def start(self) -> BotConnectorServer:
        app = web.Application()
        app.router.add_post("/v3/conversations/{conversation}/activities", self._handle)
        app.router.add_post("/v3/conversations/{conversation}/activities/{reply_to}", self._handle)
        app.router.add_put("/v3/conversations/{conversation}/activities/{reply_to}", self._update)
        await self._start(app)
        return self

    async def _handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        conversation = request.match_info["conversation"]
        self.calls.append(
            Call(method=str(body.get("type")), body=body, path=conversation, headers=dict(request.headers))
        )
        return web.json_response({"id": f"reply-{len(self.calls)}"})

    async def _update(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.calls.append(
            Call(method="update", body=body, path=request.match_info["reply_to"], headers=dict(request.headers))
        )
        return web.json_response({"id": request.match_info["reply_to"]})


def teams_activity(
    *,
    activity_id: str,
    text: str,
    service_url: str,
    conversation_id: str,
    conversation_type: str,
    mention: bool = True,
) -> dict[str, Any]:
    """A message activity as Teams sends it (channel mention or personal chat)."""
    entities = (
        [
            {
                "type": "mention",
                "text": "<at>Threadwise</at>",
                "mentioned": {"id": "28:bot-id", "name": "Threadwise"},
            }
        ]
        if mention
        else []
    )
    return {
        "type": "message",
        "id": activity_id,
        "timestamp": "2026-11-21T09:00:00.000Z",
        "serviceUrl": service_url,
        "channelId": "msteams",
        "from": {"id": "29:user-id", "name": "Ada", "aadObjectId": "aad-ada"},
        "conversation": {
            "id": conversation_id,
            "conversationType": conversation_type,
            "tenantId": "tenant-1",
        },
        "recipient": {"id": "28:bot-id", "name": "Threadwise"},
        "text": ("<at>Threadwise</at> " if mention else "") + text,
        "entities": entities,
        "channelData": {"tenant": {"id": "tenant-1"}},
    }
