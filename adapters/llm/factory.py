"""The chat-model factory: `none`, `openai` (any OpenAI-compatible endpoint) or `ollama` (SPEC section 8)."""

from __future__ import annotations

import functools
from typing import Literal

import httpx
from pydantic import SecretStr

from core.llm.gateway import ChatModels, ChatRunnable

# The provider clients (langchain_openai, langchain_ollama) are imported where they are built:
# with no LLM configured, a command does not pay the second it takes to import them.
Provider = Literal["none", "openai", "ollama"]
OLLAMA_URL = "http://127.0.0.1:11434"
# Errors worth another attempt against Ollama; the OpenAI client retries its own (429, 5xx, connection).
OLLAMA_RETRYABLE = (httpx.TransportError, ConnectionError)


class LlmConfigError(ValueError):
    """An LLM setting is missing or wrong; the message names the variable."""


def build_chat_models(
    *,
    provider: Provider,
    model: str | None,
    base_url: str | None = None,
    api_key: SecretStr | None = None,
    timeout_s: float = 30.0,
    max_retries: int = 2,
    temperature: float = 0.2,
) -> ChatModels | None:
    """The configured model at its answer temperature and at temperature 0, or None for `none`."""
    if provider == "none":
        return None
    if not model:
        raise LlmConfigError(f"THREADWISE_LLM_MODEL: required when THREADWISE_LLM_PROVIDER={provider}")
    if provider == "openai":
        if api_key is None and base_url is None:
            raise LlmConfigError(
                "THREADWISE_LLM_API_KEY: required for api.openai.com "
                "(or set THREADWISE_LLM_BASE_URL to a local OpenAI-compatible server)"
            )
        # Local servers (Ollama, vLLM, llama.cpp) accept any key; the client insists on one.
        key = api_key or SecretStr("not-needed")

        from langchain_openai import ChatOpenAI
        from openai import ContentFilterFinishReasonError, LengthFinishReasonError

        def openai_at(t: float) -> ChatRunnable:
            return ChatOpenAI(
                model=model,
                base_url=base_url,
                api_key=key,
                timeout=timeout_s,
                max_retries=max_retries,
                temperature=t,
            )

        answer, strict = openai_at(temperature), openai_at(0.0)

        def openai_bounded(tokens: int, is_strict: bool) -> ChatRunnable:
            chat = strict if is_strict else answer
            if base_url is None:  # api.openai.com: langchain sends `max_completion_tokens`
                return chat.bind(max_tokens=tokens)
            # Compatible servers (llama.cpp, vLLM, Ollama, LM Studio) read `max_tokens`.
            return chat.bind(extra_body={"max_tokens": tokens})

        return ChatModels(
            answer=answer,
            strict=strict,
            name=f"openai:{model}",
            bounded=openai_bounded,
            structured_output=True,
            # A schema-bound reply cut at `max_tokens` (a weak model looping inside the JSON) is unusable
            # output, not an outage: it must not put the model in cool-down.
            unusable=(LengthFinishReasonError, ContentFilterFinishReasonError),
        )

    from langchain_ollama import ChatOllama

    @functools.cache
    def ollama_at(t: float, tokens: int | None = None) -> ChatRunnable:
        chat = ChatOllama(
            model=model,
            base_url=base_url or OLLAMA_URL,
            temperature=t,
            num_predict=tokens,
            client_kwargs={"timeout": timeout_s},
        )
        if max_retries <= 0:
            return chat
        return chat.with_retry(retry_if_exception_type=OLLAMA_RETRYABLE, stop_after_attempt=max_retries + 1)

    def ollama_bounded(tokens: int, is_strict: bool) -> ChatRunnable:
        return ollama_at(0.0 if is_strict else temperature, tokens)

    return ChatModels(
        answer=ollama_at(temperature),
        strict=ollama_at(0.0),
        name=f"ollama:{model}",
        bounded=ollama_bounded,
        structured_output=True,  # langchain-ollama turns `response_format` into Ollama's `format`
    )
