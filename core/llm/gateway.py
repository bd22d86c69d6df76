"""The one door to the optional chat model: a time limit, continuation, and the path taken (SPEC section 8).

Every caller keeps its deterministic path: `LlmGateway.run` returns the parsed output, or None
with the reason (timeout, error, invalid output), and an `LlmStep` for the decision log either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable
from langsmith import traceable

from core.contracts import LlmStage, LlmStep
from core.prompts import OUTPUT_TOKENS

log = logging.getLogger(__name__)

T = TypeVar("T")
ChatRunnable = Runnable[LanguageModelInput, BaseMessage]
Messages = Sequence[tuple[str, str]]

CONTINUE = "Continue exactly where you stopped. Do not repeat anything you already wrote."
MAX_REASON = 240
TURN_BUDGET_S = 20.0
_DEADLINE: ContextVar[float | None] = ContextVar("threadwise_llm_turn_deadline", default=None)
"""When the current turn's model budget ends (`perf_counter`); None outside a turn."""


BoundedModel = Callable[[int, bool], ChatRunnable]
"""The model limited to `n` output tokens (`max_tokens` on the wire), at temperature 0 when strict."""
JsonSchema = dict[str, Any]


def response_format(name: str, schema: JsonSchema) -> dict[str, Any]:
    """OpenAI's `response_format` asking for JSON that follows `schema` (llama.cpp, vLLM, Ollama accept it)."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}


@dataclass(frozen=True)
class ChatModels:
    """The configured chat model at its answer temperature, and the same model at temperature 0.

    `bounded` gives the model limited to a stage's output budget; without it (scripted test models)
    the stages run unbounded.
    """

    answer: ChatRunnable
    strict: ChatRunnable
    name: str
    bounded: BoundedModel | None = None
    structured_output: bool = False
    """The provider takes `response_format` (the factory's clients do; scripted test models need not)."""
    unusable: tuple[type[Exception], ...] = ()
    """The client's errors that mean "this reply is unusable", not "the server failed" (the OpenAI
    client raises when a schema-bound reply stops at `max_tokens`): invalid output, no cool-down."""


class LlmGateway:
    """Runs one LLM step with a time limit; any failure means the caller's deterministic path.

    After a timeout or an error (not an unusable answer) the model is skipped for `cooldown_s`,
    so an LLM outage costs one timeout, not one per step of every turn.
    """

    def __init__(
        self,
        models: ChatModels | None = None,
        *,
        timeout_s: float = 30.0,
        max_continuations: int = 2,
        cooldown_s: float = 60.0,
        turn_budget_s: float = TURN_BUDGET_S,
    ):
        self._models = models
        self._timeout_s = timeout_s
        self._turn_budget_s = turn_budget_s
        self._max_continuations = max_continuations
        self._cooldown_s = cooldown_s
        self._down_until = 0.0
        self._down_reason = ""
        self._schema_refused = ""
        """Why the server refused `response_format` (empty while it has not): it is not sent again."""

    @property
    def enabled(self) -> bool:
        """Whether a chat model is configured at all."""
        return self._models is not None

    @contextlib.contextmanager
    def turn_budget(self) -> Iterator[None]:
        """Bound the model time of one turn: steps started inside share `turn_budget_s` seconds.

        A weak or slow model makes many calls one after another; once the turn's budget is spent
        the remaining steps take their deterministic path, so a turn ends in bounded time.
        """
        token = _DEADLINE.set(time.perf_counter() + self._turn_budget_s)
        try:
            yield
        finally:
            _DEADLINE.reset(token)

    async def run(
        self,
        stage: LlmStage,
        messages: Messages,
        parse: Callable[[str], T],
        *,
        strict: bool = False,
        continuations: bool = False,
        keep_going: Callable[[str], bool] | None = None,
        schema: JsonSchema | None = None,
    ) -> tuple[T | None, LlmStep]:
        """Ask the model and parse its reply; `(None, step)` says why the deterministic path runs.

        `strict` uses temperature 0; `continuations` asks again when the model stopped for length,
        and only while `keep_going` accepts the text so far (a partial answer worth finishing);
        `schema` asks the server for JSON following it (`response_format`): a weak model that would
        write prose is held to the schema by the server's constrained decoding. `parse` still checks.
        """
        if self._models is None:
            return None, LlmStep(stage=stage, path="deterministic", reason="no LLM configured")
        model = self._models.strict if strict else self._models.answer
        if self._models.bounded is not None:
            # A model that never stops would generate to its context limit and jam the server
            # for every later request; each stage asks for only what it can use.
            model = self._models.bounded(OUTPUT_TOKENS[stage], strict)
        plain = model
        if schema is not None and self._models.structured_output and not self._schema_refused:
            model = model.bind(response_format=response_format(stage, schema))
        started = time.perf_counter()
        if started < self._down_until:
            reason = f"skipped: the model failed {started - self._down_until + self._cooldown_s:.0f} s ago"
            return None, LlmStep(stage=stage, path="deterministic", reason=f"{reason} ({self._down_reason})")
        timeout, cut = self._timeout_s, False
        deadline = _DEADLINE.get()
        if deadline is not None:
            left = deadline - started
            if left <= 0:
                reason = f"skipped: the turn's model budget ({self._turn_budget_s:g} s) is spent"
                return None, LlmStep(stage=stage, path="deterministic", reason=reason)
            timeout, cut = min(timeout, left), left < timeout
        rounds = self._max_continuations if continuations else 0
        unusable: tuple[type[Exception], ...] = (ValueError, *self._models.unusable)
        try:
            async with asyncio.timeout(timeout):
                text = await self._ask(stage, model, plain, messages, rounds, keep_going)
            value = parse(text)
        except TimeoutError:
            if cut:  # the turn's budget ran out, not the model: no cool-down for later turns
                reason = f"the turn's model budget ({self._turn_budget_s:g} s) ran out after {timeout:.1f} s"
            else:
                reason = self._down(f"timed out after {timeout:g} s")
        except unusable as exc:  # includes JSON and pydantic validation errors
            reason = f"invalid output: {_short(exc)}"
        except Exception as exc:  # a provider error must never fail the turn
            reason = self._down(f"error: {type(exc).__name__}: {_short(exc)}")
        else:
            return value, LlmStep(stage=stage, path="llm", reason="ok", took_ms=_ms(started))
        log.warning("LLM %s step (%s) fell back to the deterministic path: %s", stage, self._models.name, reason)
        return None, LlmStep(stage=stage, path="deterministic", reason=reason, took_ms=_ms(started))

    async def _ask(
        self,
        stage: LlmStage,
        model: ChatRunnable,
        plain: ChatRunnable,
        messages: Messages,
        rounds: int,
        keep_going: Callable[[str], bool] | None,
    ) -> str:
        """The reply; a server that refuses `response_format` is asked again without it, and never again with it.

        General case: an OpenAI-compatible server that does not implement structured output (for
        example llama-cpp-python's, which knows only `json_object`) answers such a request with an
        error naming the field. That says nothing about the model, so it must not put the model in
        cool-down; the step's JSON is then held only by `parse`, as with any model. Any other error
        (an outage, a 5xx) takes the usual path.
        """
        try:
            return await _traced(stage)(model, messages, rounds, keep_going)
        except Exception as exc:
            if model is plain or not _names_response_format(exc):
                raise
            text = await _traced(stage)(plain, messages, rounds, keep_going)
            self._schema_refused = _short(exc)
            log.warning(
                "LLM server (%s) refused response_format; JSON steps go on without it: %s",
                self._models.name if self._models else "?",
                self._schema_refused,
            )
            return text

    def _down(self, reason: str) -> str:
        """The model failed: skip it for the cool-down."""
        self._down_until, self._down_reason = time.perf_counter() + self._cooldown_s, reason
        return reason


@functools.cache
def _traced(stage: str) -> Callable[[ChatRunnable, Messages, int, Callable[[str], bool] | None], Awaitable[str]]:
    """`complete` as a LangSmith run named after the stage; a no-op unless LangSmith's environment is set."""
    return traceable(name=f"threadwise.{stage}", run_type="chain")(complete)


async def complete(
    model: ChatRunnable, messages: Messages, continuations: int, keep_going: Callable[[str], bool] | None = None
) -> str:
    """The model's reply text; when it stops for length, ask it to go on, up to `continuations` times,
    while `keep_going` accepts the text so far (a partial answer that would be rejected anyway is not
    worth another generation)."""
    history: list[BaseMessage | tuple[str, str]] = list(messages)
    parts: list[str] = []
    for attempt in range(continuations + 1):
        reply = await model.ainvoke(history)
        parts.append(reply.text)
        if attempt == continuations or not stopped_for_length(reply):
            break
        if keep_going is not None and not keep_going("".join(parts)):
            break
        history += [AIMessage(content=reply.text), HumanMessage(content=CONTINUE)]
    return "".join(parts).strip()


def stopped_for_length(reply: BaseMessage) -> bool:
    """OpenAI-compatible servers say `finish_reason: length`, Ollama `done_reason: length`."""
    meta = reply.response_metadata
    return "length" in (meta.get("finish_reason"), meta.get("done_reason"))


def _names_response_format(exc: BaseException) -> bool:
    """The server's error names the structured-output field it refused (OpenAI's wire names)."""
    text = str(exc)
    return "response_format" in text or "json_schema" in text


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 1] + "…"


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
