"""The orchestration graph as a LangGraph `StateGraph` (SPEC section 3)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from core.calibration import Calibration
from core.contracts import Budgets, OrchestrationResult, SearchFilters, Turn
from core.errors import GuardrailsViolationError
from core.llm.gateway import LlmGateway
from core.orchestrator.answer import AnswerWriter
from core.orchestrator.clarify import Clarifier
from core.orchestrator.executor import Executor
from core.orchestrator.intake import run_intake
from core.orchestrator.planner import Planner
from core.orchestrator.probe import ChannelProbe
from core.orchestrator.recovery import Recovery
from core.orchestrator.respond import build_result
from core.orchestrator.state import GraphState
from core.orchestrator.structured import StructuredPlanner
from core.ports import (
    Clock,
    DocumentRegistry,
    Embedder,
    ProgressCallback,
    QuantityReader,
    Reranker,
    ResultSetStore,
    SearchBackend,
)
from core.text import words

Update = dict[str, Any]
Node = Callable[[GraphState], Awaitable[Update]]


class AnswerGraph:
    """Builds the graph once from its dependencies and runs it for each turn."""

    def __init__(
        self,
        *,
        backend: SearchBackend,
        embedder: Embedder,
        calibration: Calibration,
        clock: Clock,
        quantities: QuantityReader,
        budgets: Budgets | None = None,
        result_sets: ResultSetStore | None = None,
        reranker: Reranker | None = None,
        reranker_configured: bool = False,
        channel_mismatch_probe: bool = False,
        llm: LlmGateway,
        documents: DocumentRegistry | None = None,
    ) -> None:
        self._backend = backend
        self._embedder = embedder
        self._executor = Executor(
            backend=backend,
            embedder=embedder,
            calibration=calibration,
            clock=clock,
            result_sets=result_sets,
            reranker=reranker,
            reranker_configured=reranker_configured,
        )
        self._planner = Planner(
            backend=backend,
            embedder=embedder,
            calibration=calibration,
            structured=StructuredPlanner(backend=backend, embedder=embedder),
            llm=llm,
            documents=documents,
        )
        self._recovery = Recovery(llm=llm)
        self._writer = AnswerWriter(embedder=embedder, calibration=calibration, llm=llm, backend=backend)
        self._clarifier = Clarifier(llm=llm)
        self._probe = ChannelProbe(backend=backend, embedder=embedder, calibration=calibration)
        self._probe_enabled = channel_mismatch_probe
        self._clock = clock
        self._quantities = quantities
        self._budgets = budgets or Budgets()
        self._graph = self._build().compile()

    async def run(
        self,
        turn: Turn,
        *,
        collections: list[str] | None,
        progress: ProgressCallback | None = None,
        history: str | None = None,
        focus: list[str] | None = None,
        summary: str = "",
    ) -> OrchestrationResult:
        """Run one turn to completion; node errors end in a safe reply, never an exception.

        `history` is the thread's last question; `focus` the documents "those" refers to;
        `summary` the conversation so far, for the LLM router.
        """
        state = GraphState(
            turn=turn,
            collections=collections,
            budgets=self._budgets,
            history=history,
            summary=summary,
            focus_doc_ids=focus,
        )
        config: RunnableConfig = {"configurable": {"progress": progress}, "recursion_limit": 40}
        final = await self._graph.ainvoke(state, config=config)
        result = final["result"]
        assert isinstance(result, OrchestrationResult)
        # respond's own time is known only after it returned.
        return result.model_copy(update={"timings": dict(final["timings"]), "llm_steps": list(final["llm_steps"])})

    def _build(self) -> StateGraph[GraphState]:
        graph = StateGraph(GraphState)
        nodes: dict[str, Callable[[GraphState], Awaitable[Update]]] = {
            "intake": self._intake,
            "plan": self._planner.plan,
            "retrieve": self._executor.retrieve,
            "evaluate": self._executor.evaluate,
            "recover": self._recovery.recover,
            "synthesize": self._writer.synthesize,
            "validate_citations": _sync(self._writer.validate_citations),
            "reflect": self._writer.reflect,
            "probe": self._probe.probe,
            "respond": self._respond,
        }
        for name, node in nodes.items():
            graph.add_node(name, _Stage(name, node))
        graph.add_edge(START, "intake")
        graph.add_conditional_edges("intake", _after_intake, ["plan", "respond"])
        graph.add_conditional_edges("plan", _after_plan, ["retrieve", "respond"])
        graph.add_edge("retrieve", "evaluate")
        graph.add_conditional_edges("evaluate", self._after_evaluate, ["synthesize", "recover", "probe", "respond"])
        graph.add_edge("probe", "respond")
        graph.add_edge("recover", "retrieve")
        graph.add_edge("synthesize", "validate_citations")
        graph.add_conditional_edges("validate_citations", _after_validate, ["reflect", "respond"])
        graph.add_conditional_edges("reflect", self._after_reflect, ["recover", "respond"])
        graph.add_edge("respond", END)
        return graph

    async def _intake(self, state: GraphState) -> Update:
        try:
            today = self._clock.now().date()
            intake = run_intake(state.turn.text, today=today, quantities=self._quantities, last_query=state.history)
        except GuardrailsViolationError as exc:
            return {"guardrail": (exc.reason, exc.safe_reply)}
        wordy = intake.coherence == "coherent" and intake.intent not in ("chit_chat", "command")
        if wordy and not await self._has_known_word(intake.normalized_query, state):
            intake = intake.model_copy(
                update={
                    "coherence": "incoherent",
                    "coherence_reason": "none of its words is in the documents or the model's vocabulary",
                }
            )
        return {"intake": intake}

    async def _has_known_word(self, text: str, state: GraphState) -> bool:
        """A word the model's tokenizer knows whole, or (checked only when none) one the index holds."""
        candidates = [w for w in words(text) if len(w) >= 2 and any(c.isalpha() for c in w)]
        if not candidates or self._embedder.known_words(candidates):
            return True
        vector = await self._embedder.embed([text])
        return bool(await self._backend.search_text(text, SearchFilters(collections=state.collections), 1, vector))

    def _after_evaluate(self, state: GraphState) -> Literal["synthesize", "recover", "probe", "respond"]:
        if state.errors:
            return "respond"
        if state.evidence_level in ("high", "medium"):
            return "synthesize"
        if self._recovery.next_step(state):
            return "recover"
        return "probe" if self._probe_enabled and state.collections is not None else "respond"

    def _after_reflect(self, state: GraphState) -> Literal["recover", "respond"]:
        """An answer the support gate withholds gets the next recovery step (another route) first."""
        unsupported = state.reflection is not None and state.reflection.unsupported
        return "recover" if unsupported and not state.errors and self._recovery.next_step(state) else "respond"

    async def _respond(self, state: GraphState) -> Update:
        result = build_result(state, self._clock)
        reworded, steps = await self._clarifier.word(state, result)
        return {"result": reworded, "llm_steps": steps}


def _after_intake(state: GraphState) -> Literal["plan", "respond"]:
    intake = state.intake
    if state.errors or state.guardrail or intake is None:
        return "respond"
    if intake.coherence == "incoherent" or intake.blocking_ambiguity:
        return "respond"
    return "plan"


def _after_plan(state: GraphState) -> Literal["retrieve", "respond"]:
    if state.errors or state.route is None or state.route.route in ("direct", "clarify"):
        return "respond"
    return "retrieve"


def _after_validate(state: GraphState) -> Literal["reflect", "respond"]:
    draft = state.draft
    return "reflect" if not state.errors and draft is not None and draft.citations else "respond"


def _sync(fn: Callable[[GraphState], Update]) -> Node:
    async def node(state: GraphState) -> Update:
        return fn(state)

    return node


class _Stage:
    """A node wrapper: reports progress, times the node, and turns an exception into an error."""

    def __init__(self, name: str, node: Node) -> None:
        self.name = name
        self.node = node

    async def __call__(self, state: GraphState, config: RunnableConfig) -> Update:
        progress = (config.get("configurable") or {}).get("progress")
        if progress is not None:
            # A failing status update must never fail the turn.
            with contextlib.suppress(Exception):
                await progress(self.name)
        started = time.perf_counter()
        try:
            update = await self.node(state)
        except Exception as exc:
            if self.name == "respond":
                raise
            update = {"errors": [f"{self.name}: {type(exc).__name__}: {exc}"]}
        update["timings"] = {self.name: round((time.perf_counter() - started) * 1000, 3)}
        return update
