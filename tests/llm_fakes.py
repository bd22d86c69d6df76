"""A scripted LangChain chat model that follows the prompts (`tests/llm_script.py`)."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import FakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from core.llm.gateway import ChatModels
from tests.llm_script import follow, stage_of

ROLES = {"system": "system", "human": "human", "ai": "ai"}


class PromptFollowingChatModel(FakeChatModel):
    """LangChain's fake chat model, answering each prompt by the rules of `follow`."""

    calls: list[list[tuple[str, str]]] = Field(default_factory=list)
    overrides: dict[str, str] = Field(default_factory=dict)  # stage → the reply to give instead

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        pairs = [(ROLES.get(m.type, m.type), m.text) for m in messages]
        self.calls.append(pairs)
        text = self.overrides.get(stage_of(pairs[0][1])) or follow(pairs)
        reply = AIMessage(content=text, response_metadata={"finish_reason": "stop"})
        return ChatResult(generations=[ChatGeneration(message=reply)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._generate(messages, stop=stop, **kwargs)

    @property
    def _llm_type(self) -> str:
        return "prompt-following-fake"


def scripted_models(**overrides: str) -> ChatModels:
    """The scripted model as both the answer and the strict (temperature 0) model; `overrides` by stage."""
    model = PromptFollowingChatModel(calls=[], overrides=overrides)
    return ChatModels(answer=model, strict=model, name="scripted")
