"""The CHANNEL_MISMATCH probe: does the answer exist only where this channel may not read?"""

from __future__ import annotations

from core.calibration import Calibration
from core.contracts import SearchFilters
from core.orchestrator.state import GraphState
from core.ports import Embedder, SearchBackend


class ChannelProbe:
    """Counts relevant hits in other collections; it never returns or names them (SPEC section 5)."""

    def __init__(self, *, backend: SearchBackend, embedder: Embedder, calibration: Calibration) -> None:
        self._backend = backend
        self._embedder = embedder
        self._calibration = calibration

    async def probe(self, state: GraphState) -> dict[str, object]:
        """How many medium-or-better hits lie outside the readable collections."""
        assert state.plan is not None
        readable = set(state.collections or [])
        query = state.plan.revised_query
        hits = await self._backend.search_hybrid(query, await self._embedder.embed([query]), SearchFilters(), 20)
        elsewhere = [h for h in hits if h.segment.collection not in readable and h.cosine >= self._calibration.medium]
        return {"mismatch_hits": len(elsewhere)}
