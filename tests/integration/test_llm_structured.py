"""JSON steps ask the server for JSON by schema (`response_format`), and still check what comes back."""

from __future__ import annotations

import json

from adapters.llm.factory import build_chat_models
from core.llm.gateway import LlmGateway, response_format
from core.prompts import reformulate as reformulate_prompt
from core.prompts import route as route_prompt
from tests.llm_server import ChatCompletionsServer, ChatRequest, Reply

MESSAGES = [("system", "You are a document assistant."), ("human", "Question: hotel limit?")]


async def test_a_json_step_sends_its_schema_and_a_prose_reply_still_falls_back(server: ChatCompletionsServer) -> None:
    models = build_chat_models(provider="openai", model="m", base_url=server.base_url, max_retries=0)
    gateway = LlmGateway(models)
    schema = reformulate_prompt.Reformulation.model_json_schema()
    server.script = lambda request: Reply(content=json.dumps({"query": "hotel nightly limit", "passage": ""}))
    found, step = await gateway.run("reformulate", MESSAGES, lambda t: reformulate_prompt.parse(t, []), schema=schema)
    assert step.path == "llm" and found is not None and found.query == "hotel nightly limit"
    sent = server.requests[-1].body["response_format"]
    assert sent == {"type": "json_schema", "json_schema": {"name": "reformulate", "schema": schema}}

    # A server without constrained decoding may still answer in prose: the step falls back, and
    # the model is not put in cool-down (its next step is asked).
    server.script = lambda request: Reply(content="I would search for the hotel limit.")
    choice, step = await gateway.run(
        "route",
        MESSAGES,
        lambda t: route_prompt.parse(t, ["hybrid"]),
        strict=True,
        schema=route_prompt.RouteChoice.model_json_schema(),
    )
    assert choice is None and step.path == "deterministic" and step.reason.startswith("invalid output")
    _, step = await gateway.run("synthesis", MESSAGES, str)
    assert step.path == "llm" and "response_format" not in server.requests[-1].body


def test_ollama_turns_the_response_format_into_its_format_field() -> None:
    from langchain_core.messages import HumanMessage
    from langchain_ollama import ChatOllama

    models = build_chat_models(provider="ollama", model="m", max_retries=0)
    assert models is not None and models.structured_output
    schema = route_prompt.RouteChoice.model_json_schema()
    params = ChatOllama(model="m")._chat_params([HumanMessage("q")], response_format=response_format("route", schema))
    assert params["format"] == schema  # what Ollama's /api/chat reads for constrained decoding


async def test_a_server_refusing_response_format_is_asked_without_it_and_the_model_stays_up(
    server: ChatCompletionsServer,
) -> None:
    """llama-cpp-python's server answers a `json_schema` response_format with a 500 naming the field."""
    refusal = "Input should be 'text' or 'json_object' (body, response_format, type)"

    def script(request: ChatRequest) -> Reply:
        if "response_format" in request.body:
            return Reply(status=500, error=refusal)
        return Reply(content=json.dumps({"query": "hotel nightly limit", "passage": ""}))

    server.script = script
    models = build_chat_models(provider="openai", model="m", base_url=server.base_url, max_retries=0)
    gateway = LlmGateway(models)
    schema = reformulate_prompt.Reformulation.model_json_schema()
    found, step = await gateway.run("reformulate", MESSAGES, lambda t: reformulate_prompt.parse(t, []), schema=schema)
    assert step.path == "llm" and found is not None and found.query == "hotel nightly limit"
    assert ["response_format" in r.body for r in server.requests] == [True, False]

    # Later JSON steps do not send it again, and the model was not put in cool-down.
    found, step = await gateway.run("reformulate", MESSAGES, lambda t: reformulate_prompt.parse(t, []), schema=schema)
    assert step.path == "llm" and len(server.requests) == 3 and "response_format" not in server.requests[-1].body


async def test_an_outage_is_not_mistaken_for_a_refused_response_format(server: ChatCompletionsServer) -> None:
    server.script = lambda request: Reply(status=503)
    models = build_chat_models(provider="openai", model="m", base_url=server.base_url, max_retries=0)
    gateway = LlmGateway(models)
    schema = reformulate_prompt.Reformulation.model_json_schema()
    found, step = await gateway.run("reformulate", MESSAGES, lambda t: reformulate_prompt.parse(t, []), schema=schema)
    assert found is None and step.reason.startswith("error:") and len(server.requests) == 1

    # The model is in cool-down (asked neither with nor without the schema).
    _, step = await gateway.run("reformulate", MESSAGES, lambda t: reformulate_prompt.parse(t, []), schema=schema)
    assert step.reason.startswith("skipped") and len(server.requests) == 1


async def test_a_schema_bound_reply_cut_at_max_tokens_is_unusable_output_not_an_outage(
    server: ChatCompletionsServer,
) -> None:
    """A weak model looping inside its JSON stops at `max_tokens`; the OpenAI client raises for that."""
    server.script = lambda request: Reply(content='{"query": "hotel hotel hotel hotel', finish_reason="length")
    models = build_chat_models(provider="openai", model="m", base_url=server.base_url, max_retries=0)
    gateway = LlmGateway(models)
    schema = reformulate_prompt.Reformulation.model_json_schema()
    found, step = await gateway.run("reformulate", MESSAGES, lambda t: reformulate_prompt.parse(t, []), schema=schema)
    assert found is None and step.reason.startswith("invalid output") and "length" in step.reason

    # Not in cool-down: the next step is asked.
    server.script = lambda request: Reply(content="The hotel limit is 180 EUR [1].")
    _, step = await gateway.run("synthesis", MESSAGES, str)
    assert step.path == "llm" and len(server.requests) == 2
