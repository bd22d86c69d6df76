"""A real aiohttp server on loopback speaking OpenAI's chat-completions protocol, scripted per test.

Each request is recorded; a script turns it into a `Reply` (content, finish reason, delay, HTTP
status). The default script follows Threadwise's prompts (`tests/llm_script.py`).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.llm_script import follow, stage_of
from tests.servers import _Recorder


@dataclass
class ChatRequest:
    """One chat-completions request as the server saw it."""

    body: dict[str, Any]
    path: str
    headers: dict[str, str]

    @property
    def messages(self) -> list[tuple[str, str]]:
        roles = {"user": "human", "assistant": "ai"}
        return [(roles.get(m["role"], m["role"]), m["content"]) for m in self.body["messages"]]

    @property
    def stage(self) -> str:
        return stage_of(self.messages[0][1])


@dataclass
class Reply:
    """What the server answers: a completion, or an HTTP error."""

    content: str = ""
    finish_reason: str = "stop"
    delay_s: float = 0.0
    status: int = 200
    error: str = "scripted failure"


Script = Callable[[ChatRequest], Reply]


def following(request: ChatRequest) -> Reply:
    """The default script: answer as a model that follows the prompts."""
    return Reply(content=follow(request.messages))


def overriding(stage: str, reply: Reply) -> Script:
    """A script that answers one stage with `reply` and follows the prompts otherwise."""

    def script(request: ChatRequest) -> Reply:
        return reply if request.stage == stage else following(request)

    return script


@dataclass
class ChatCompletionsServer(_Recorder):
    """`POST /v1/chat/completions` on 127.0.0.1, answering by `script`."""

    script: Script = following
    requests: list[ChatRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()
        self._ids = itertools.count(1)

    async def start(self) -> ChatCompletionsServer:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._complete)
        await self._start(app)
        return self

    @property
    def base_url(self) -> str:
        """What `THREADWISE_LLM_BASE_URL` is set to."""
        return f"{self.url}/v1"

    def stages(self) -> list[str]:
        """The stage of every request, in order."""
        return [r.stage for r in self.requests]

    async def _complete(self, request: web.Request) -> web.Response:
        chat = ChatRequest(body=await request.json(), path=request.path, headers=dict(request.headers))
        self.requests.append(chat)
        reply = self.script(chat)
        if reply.delay_s:
            await asyncio.sleep(reply.delay_s)
        if reply.status != 200:
            error = {"error": {"message": reply.error, "type": "server_error", "code": None}}
            return web.json_response(error, status=reply.status)
        return web.json_response(
            {
                "id": f"chatcmpl-{next(self._ids)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": chat.body.get("model", "scripted"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply.content},
                        "finish_reason": reply.finish_reason,
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        )
