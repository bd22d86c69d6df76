"""A scripted LangChain chat model that follows the prompts (`tests/llm_script.py`)."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import FakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from core.llm.gateway import ChatModels
from tests.llm_script import follow

ROLES = {"system": "system", "human": "human", "ai": "ai"}


class PromptFollowingChatModel(FakeChatModel):
    """LangChain's fake chat model, answering each prompt by the rules of `follow`."""

    calls: list[list[tuple[str, str]]] = []

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        pairs = [(ROLES.get(m.type, m.type), m.text) for m in messages]
        self.calls.append(pairs)
        reply = AIMessage(content=follow(pairs), response_metadata={"finish_reason": "stop"})
        return ChatResult(generations=[ChatGeneration(message=reply)])

    @property
    def _llm_type(self) -> str:
        return "prompt-following-fake"


def scripted_models() -> ChatModels:
    """The scripted model as both the answer and the strict (temperature 0) model."""
    model = PromptFollowingChatModel(calls=[])
    return ChatModels(answer=model, strict=model, name="scripted")
