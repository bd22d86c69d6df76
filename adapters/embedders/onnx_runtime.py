"""The ONNX Runtime embedder: the same model as the PyTorch one, without importing PyTorch to serve.

It reads the export cached under the models directory (made once, by `onnx_export`, on first
use) with onnxruntime and the `tokenizers` library, and does the mean pooling and L2
normalisation of sentence-transformers in numpy.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from adapters.embedders.base import LocalEmbedder, ModelNotAvailableError, resolve_model_path
from adapters.embedders.onnx_export import (
    FP32_FILE,
    INT8_FILE,
    TOKENIZER_FILE,
    ExportManifest,
    export_folder,
    export_model,
    find_export,
    quantize_model,
)
from core.concurrency import CpuExecutor

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer


class OnnxEmbedder(LocalEmbedder):
    """Normalised embeddings from an ONNX export of a mean-pooled sentence-transformers model."""

    def __init__(
        self, *, model: str, executor: CpuExecutor, models_dir: Path, quantized: bool, batch_size: int = 64
    ) -> None:
        super().__init__(model=model, executor=executor)
        self._models_dir = models_dir
        self._quantized = quantized
        self._batch_size = batch_size
        self._session: onnxruntime.InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None
        self._counter: Tokenizer | None = None
        self._manifest: ExportManifest | None = None

    async def load(self) -> None:
        """Load the export (making it first if there is none) and warm it up with one encoding."""
        await self._executor.run(self._load)
        await self.embed(["warm-up"])

    def _load(self) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        source = Path(resolve_model_path(self._name))
        if not source.is_dir():
            raise ModelNotAvailableError(
                f"embedding model {self._name!r} is not available offline: give a local folder "
                "in THREADWISE_EMBEDDING_MODEL or install the model package"
            )
        folder = export_folder(self._models_dir, self._name)
        manifest = find_export(folder, source) or export_model(source, folder)
        model_file = folder / FP32_FILE
        if self._quantized:
            model_file = folder / INT8_FILE
            if not model_file.exists():
                model_file = quantize_model(folder)
        options = onnxruntime.SessionOptions()
        # One thread a call: single questions gain nothing from a second thread, and batches
        # are split across the executor's workers instead (`encode_many`).
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])
        tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        # The shipped tokenizer.json pads and truncates at 128; sentence-transformers reads 256.
        padding = tokenizer.padding or {}
        tokenizer.enable_truncation(manifest.max_seq_length)
        tokenizer.enable_padding(pad_id=int(padding.get("pad_id", 0)), pad_token=str(padding.get("pad_token", "[PAD]")))
        counter = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        counter.no_truncation()
        counter.no_padding()
        self._tokenizer, self._counter, self._manifest = tokenizer, counter, manifest

    @property
    def manifest(self) -> ExportManifest:
        """What the loaded export was made from; `load()` must have run."""
        if self._manifest is None:
            raise RuntimeError("the embedding model is not loaded yet: await load() first")
        return self._manifest

    @property
    def max_seq_length(self) -> int:
        """The model's sequence length in wordpieces (256 for the default model)."""
        return self.manifest.max_seq_length

    @property
    def dimension(self) -> int:
        """The embedding dimension."""
        return self.manifest.dimension

    def _prepare(self, texts: Sequence[str]) -> list[str]:
        # sentence-transformers lower-cases when the model's configuration says so.
        return [t.lower() for t in texts] if self.manifest.do_lower_case else list(texts)

    def _batches(self, texts: list[str]) -> tuple[list[int], list[list[str]]]:
        """Texts longest first (so each batch pads little), cut into batches; with the order used."""
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        ordered = [texts[i] for i in order]
        return order, [ordered[i : i + self._batch_size] for i in range(0, len(ordered), self._batch_size)]

    def _unsort(self, order: list[int], parts: Sequence[npt.NDArray[np.float32]]) -> npt.NDArray[np.float32]:
        vectors = np.zeros((len(order), self.dimension), dtype=np.float32)
        if order:
            vectors[np.asarray(order)] = np.concatenate(parts)
        return vectors

    def encode_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One forward pass over `texts` (padded to the longest) with mean pooling and normalisation."""
        if self._session is None or self._tokenizer is None:
            raise RuntimeError("the embedding model is not loaded yet: await load() first")
        encodings = self._tokenizer.encode_batch(self._prepare(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        tokens = self._session.run(None, {name: feed[name] for name in self.manifest.inputs})[0]
        weights = mask.astype(np.float32)
        pooled = np.einsum("bsd,bs->bd", tokens, weights) / np.clip(weights.sum(axis=1, keepdims=True), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.clip(norms, 1e-12, None), dtype=np.float32)

    def encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Blocking encode, for callers already on the executor."""
        order, batches = self._batches(texts)
        return self._unsort(order, [self.encode_batch(batch) for batch in batches])

    async def encode_many(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Encode a batch with its sub-batches spread over the executor's workers."""
        order, batches = self._batches(texts)
        parts = await asyncio.gather(*(self._executor.run(self.encode_batch, batch) for batch in batches))
        return self._unsort(order, parts)

    def vocabulary(self) -> Iterable[str]:
        """The tokenizer's wordpieces."""
        assert self._tokenizer is not None, "load() first"
        return list(self._tokenizer.get_vocab())

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Wordpieces per text, from the model's own tokenizer (no special tokens, no truncation)."""
        if not texts:
            return []
        if self._counter is None:
            raise RuntimeError("the embedding model is not loaded yet: await load() first")
        return [len(e.ids) for e in self._counter.encode_batch(list(texts), add_special_tokens=False)]
