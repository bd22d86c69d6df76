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
    at: float = field(default_factory=time.monotonic)
    reply_id: str = ""


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


_OK_METHODS = {
    "reactions.add",
    "reactions.remove",
    "chat.appendStream",
    "chat.stopStream",
    "assistant.threads.setStatus",
    "assistant.threads.setTitle",
    "assistant.threads.setSuggestedPrompts",
}


class SlackApiServer(_Recorder):
    """The Slack Web API methods the bot uses, the upload URL of `files_upload_v2`, and a Socket Mode
    WebSocket (`apps.connections.open` hands out its ws:// URL; it says `hello`, then sends envelopes)."""

    def __init__(self) -> None:
        super().__init__()
        self._ts = itertools.count(1)
        self._files = itertools.count(1)
        self.socket: web.WebSocketResponse | None = None
        self.rate_limited: dict[str, int] = {}
        """Method → how many more calls get `429 Too Many Requests` with `Retry-After: 1`."""
        self.refused: dict[str, str] = {}
        """Method → the error its next call answers with (`ok: false`), once."""
        self.delayed: dict[str, float] = {}
        """Method → seconds its next call waits before answering (holds a turn's slot), once."""
        self._connected = asyncio.Event()

    async def start(self) -> SlackApiServer:
        app = web.Application()
        app.router.add_post("/api/{method}", self._handle)
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_get("/socket", self._socket)
        await self._start(app)
        return self

    async def _upload(self, request: web.Request) -> web.Response:
        content = (await request.read()).decode("utf-8")
        self.calls.append(Call(method="upload", body={"file_id": request.match_info["file_id"], "content": content}))
        return web.Response(text="OK - uploaded")

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        self.calls.append(Call(method="socket.connect", body={}))
        await socket.send_json({"type": "hello", "num_connections": 1, "debug_info": {"host": "loopback"}})
        self.socket = socket
        self._connected.set()
        async for message in socket:
            if message.type == web.WSMsgType.TEXT:
                self.calls.append(Call(method="socket.ack", body=json.loads(message.data)))
        return socket

    async def send_envelope(self, kind: str, payload: dict[str, Any], envelope_id: str, within: float = 60.0) -> float:
        """Send an envelope over the Socket Mode connection; returns how long its ack took."""
        await asyncio.wait_for(self._connected.wait(), within)
        assert self.socket is not None
        started = time.monotonic()
        envelope = {"envelope_id": envelope_id, "type": kind, "accepts_response_payload": kind != "events_api"}
        await self.socket.send_json({**envelope, "payload": payload, "retry_attempt": 0, "retry_reason": ""})
        while time.monotonic() - started < within:
            if any(c.body.get("envelope_id") == envelope_id for c in self.named("socket.ack")):
                return time.monotonic() - started
            await asyncio.sleep(0.05)
        raise AssertionError(f"envelope {envelope_id} was never acknowledged")

    @property
    def api_url(self) -> str:
        return self.url + "/api/"

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        raw = await request.text()
        body = json.loads(raw) if request.content_type == "application/json" and raw else dict(parse_qsl(raw))
        body = {**dict(request.query), **body}  # slack_sdk sends some arguments as query parameters
        self.calls.append(Call(method=method, body=body, headers=dict(request.headers)))
        if self.rate_limited.get(method, 0) > 0:
            self.rate_limited[method] -= 1
            return web.json_response({"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": "1"})
        if method in self.delayed:
            await asyncio.sleep(self.delayed.pop(method))
        if method in self.refused:
            return web.json_response({"ok": False, "error": self.refused.pop(method)})
        token = request.headers.get("Authorization", "")
        if method == "apps.connections.open":  # the only method that takes the app-level token
            if not token.startswith("Bearer xapp-"):
                return web.json_response({"ok": False, "error": "not_allowed_token_type"})
            return web.json_response({"ok": True, "url": self.url.replace("http://", "ws://") + "/socket"})
        if not token.startswith("Bearer xoxb-"):
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
        if method in ("chat.postMessage", "chat.startStream"):
            ts = f"{int(time.time())}.{next(self._ts):06d}"
            return web.json_response({"ok": True, "channel": body.get("channel"), "ts": ts, "message": {"ts": ts}})
        if method == "chat.update":
            return web.json_response({"ok": True, "channel": body.get("channel"), "ts": body.get("ts")})
        if method == "files.getUploadURLExternal":
            file_id = f"F{next(self._files):04d}"
            return web.json_response({"ok": True, "upload_url": f"{self.url}/upload/{file_id}", "file_id": file_id})
        if method == "files.completeUploadExternal":
            files = body["files"] if isinstance(body["files"], list) else json.loads(body["files"])
            return web.json_response({"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in files]})
        if method in _OK_METHODS:
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
        reply_id = f"reply-{len(self.calls) + 1}"
        self.calls.append(
            Call(
                method=str(body.get("type")),
                body=body,
                path=conversation,
                headers=dict(request.headers),
                reply_id=reply_id,
            )
        )
        return web.json_response({"id": reply_id})

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
