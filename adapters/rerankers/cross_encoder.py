"""An optional sentence-transformers CrossEncoder reranker, loaded from disk only."""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.concurrency import CpuExecutor

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder

log = logging.getLogger(__name__)


class CrossEncoderReranker:
    """Scores (query, passage) pairs as probabilities of relevance."""

    def __init__(self, *, model: CrossEncoder, executor: CpuExecutor) -> None:
        self._model = model
        self._executor = executor
        self._lock = threading.Lock()

    @classmethod
    async def load(cls, *, name: str, executor: CpuExecutor) -> CrossEncoderReranker | None:
        """The reranker, or None (logged) when the model is not on this machine."""

        def build() -> CrossEncoder:
            from sentence_transformers import CrossEncoder

            model: CrossEncoder = CrossEncoder(name, device="cpu", local_files_only=True)
            return model

        try:
            return cls(model=await executor.run(build), executor=executor)
        except ImportError:
            log.warning("reranker %r needs PyTorch: pip install 'threadwise[torch]'; answers go on without it", name)
            return None
        except Exception as exc:  # answers go on without it; RERANK_BYPASSED says so
            log.warning("reranker %r is unavailable and will be skipped: %s", name, exc)
            return None

    async def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        """Sigmoid of the cross-encoder's logit for each text."""
        if not texts:
            return []

        def score() -> list[float]:
            with self._lock:
                logits = self._model.predict([(query, t) for t in texts], show_progress_bar=False)
            return [1.0 / (1.0 + math.exp(-float(x))) for x in logits]

        return await self._executor.run(score)
