"""The answer graph of a server whose model is still loading: turns are claimed at once and wait here."""

from __future__ import annotations

import asyncio

from core.contracts import OrchestrationResult, Turn
from core.orchestrator.graph import AnswerGraph
from core.ports import ProgressCallback


class WarmingGraph:
    """Stands in for the answer graph until `set`: a turn's `run` waits for it, then runs on it.

    A server acknowledges and claims platform requests while the embedding model loads (SPEC
    section 10: no platform request is refused while warming); their answers start here once the
    graph is built. A start-up that fails (`fail`) fails the waiting turns with its error, so each
    gets the apology reply and the claim is marked, not lost.
    """

    def __init__(self) -> None:
        self._built = asyncio.Event()
        self._graph: AnswerGraph | None = None
        self._error: BaseException | None = None

    def set(self, graph: AnswerGraph) -> None:
        """The graph is built: every waiting and later turn runs on it."""
        self._graph = graph
        self._built.set()

    def fail(self, error: BaseException) -> None:
        """Start-up failed: every waiting and later turn raises `error`."""
        self._error = error
        self._built.set()

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
        """`AnswerGraph.run`, once the graph is built."""
        await self._built.wait()
        if self._graph is None:
            raise RuntimeError(f"the answer graph could not be built: {self._error}")
        return await self._graph.run(
            turn, collections=collections, progress=progress, history=history, focus=focus, summary=summary
        )
