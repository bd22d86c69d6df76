"""The gateway: the deterministic path when there is no model, the cool-down after a failure, continuation."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import FakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from core.llm.gateway import CONTINUE, ChatModels, LlmGateway

MESSAGES = [("system", "Answer."), ("human", "Question?")]


class Scripted(FakeChatModel):
    """Answers from a list (each with a finish reason), or raises when told to; records what it saw."""

    replies: list[tuple[str, str]] = Field(default_factory=list)
    fail: bool = False
    seen: list[list[BaseMessage]] = Field(default_factory=list)

    async def _agenerate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any):  # type: ignore[no-untyped-def]
        self.seen.append(list(messages))
        if self.fail:
            raise RuntimeError("connection refused")
        text, finish = self.replies[len(self.seen) - 1]
        message = AIMessage(content=text, response_metadata={"finish_reason": finish})
        return ChatResult(generations=[ChatGeneration(message=message)])


def _gateway(model: Scripted, **kwargs: Any) -> LlmGateway:
    return LlmGateway(ChatModels(answer=model, strict=model, name="scripted"), **kwargs)


async def test_without_a_model_the_deterministic_path_runs() -> None:
    value, step = await LlmGateway().run("synthesis", MESSAGES, str)
    assert value is None and (step.path, step.reason) == ("deterministic", "no LLM configured")


async def test_after_a_failure_the_model_is_skipped_for_the_cool_down() -> None:
    model = Scripted(fail=True)
    gateway = _gateway(model, cooldown_s=60)
    first = await gateway.run("route", MESSAGES, str)
    second = await gateway.run("synthesis", MESSAGES, str)
    assert first[1].reason == "error: RuntimeError: connection refused"
    assert second[1].reason.startswith("skipped: the model failed 0 s ago (error: RuntimeError")
    assert len(model.seen) == 1


async def test_without_a_cool_down_every_step_tries_again() -> None:
    model = Scripted(fail=True)
    gateway = _gateway(model, cooldown_s=0)
    await gateway.run("route", MESSAGES, str)
    _, step = await gateway.run("synthesis", MESSAGES, str)
    assert step.reason.startswith("error:") and len(model.seen) == 2


async def test_an_unusable_answer_does_not_stop_the_next_step() -> None:
    model = Scripted(replies=[("not json", "stop"), ("fine", "stop")])
    gateway = _gateway(model)

    def parse(text: str) -> str:
        if text != "fine":
            raise ValueError("not what the stage needs")
        return text

    first = await gateway.run("route", MESSAGES, parse)
    second = await gateway.run("route", MESSAGES, parse)
    assert first == (None, first[1]) and first[1].reason == "invalid output: not what the stage needs"
    assert second[0] == "fine" and second[1].path == "llm"


async def test_a_reply_cut_for_length_is_continued_at_most_twice() -> None:
    model = Scripted(replies=[("one ", "length"), ("two ", "length"), ("three", "length")])
    value, step = await _gateway(model).run("synthesis", MESSAGES, str, continuations=True)
    assert value == "one two three" and step.path == "llm" and len(model.seen) == 3
    assert model.seen[1][-2].text == "one " and model.seen[1][-1].text == CONTINUE


async def test_without_continuations_a_cut_reply_is_taken_as_it_is() -> None:
    model = Scripted(replies=[("one ", "length")])
    value, _ = await _gateway(model).run("summary", MESSAGES, str)
    assert value == "one" and len(model.seen) == 1
