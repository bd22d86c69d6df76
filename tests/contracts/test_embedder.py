"""The embedder contract (core.ports.Embedder), run against every implementation.

The PyTorch sentence-transformers encoder is the reference; the ONNX Runtime encoders serve the
same model and must agree with it (fp32: cosine >= 0.999, same token counts). Without the [torch]
extra they are checked against the reference's recorded vectors (`fixtures/encoder`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.fakes import HashingEmbedder

RECORDED = Path(__file__).resolve().parent.parent / "fixtures" / "encoder"

LONG = " ".join(f"Segment {i} of the travel policy covers per-diem rates and receipts." for i in range(80))
TEXTS = [
    "How many vacation days do employees get?",
    "Fleet receipts",
    "Café crème brûlée costs €4.50 at the canteen 🍰",
    "Statin use and breast cancer survival: a nationwide cohort study from Finland. Recent studies have "
    "suggested that statins could delay or prevent breast cancer recurrence.",
    "  leading and trailing spaces  ",
    "請假政策",
    LONG,
]
REAL = ["torch", "onnx", "onnx-int8"]
IMPLEMENTATIONS = ["fake", *(pytest.param(name, marks=pytest.mark.model) for name in REAL)]
# Dynamic int8 quantisation scales activations by the whole batch, so a row shifts a little with
# its batch-mates (measured: cosine 0.986 at worst); the float encoders agree to rounding.
BATCH_COSINE = {"fake": 0.99999, "torch": 0.99999, "onnx": 0.99999, "onnx-int8": 0.98}


def _fixture(name: str) -> str:
    return {"torch": "real_embedder", "onnx": "onnx_embedder", "onnx-int8": "onnx_int8_embedder"}[name]


@pytest.fixture(params=IMPLEMENTATIONS)
def implementation(request: pytest.FixtureRequest) -> tuple[str, Any]:
    """(name, embedder) for each implementation of the port."""
    name: str = request.param
    if name == "fake":
        return name, HashingEmbedder()
    return name, request.getfixturevalue(_fixture(name))


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


async def test_one_unit_length_row_per_text(implementation: tuple[str, Any]) -> None:
    _, embedder = implementation
    vectors = np.asarray(await embedder.embed(TEXTS))
    assert vectors.shape[0] == len(TEXTS) and vectors.ndim == 2
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


async def test_empty_input_gives_empty_output(implementation: tuple[str, Any]) -> None:
    _, embedder = implementation
    assert len(await embedder.embed([])) == 0
    assert embedder.count_tokens([]) == []
    assert await embedder.similarity("anything", []) == []


async def test_a_batch_embeds_each_text_as_it_would_alone(implementation: tuple[str, Any]) -> None:
    name, embedder = implementation
    batch = np.asarray(await embedder.embed(TEXTS))
    single = np.vstack([np.asarray(await embedder.embed([text])) for text in TEXTS])
    assert _cosines(batch, single).min() >= BATCH_COSINE[name]


async def test_the_same_text_gives_the_same_vector(implementation: tuple[str, Any]) -> None:
    _, embedder = implementation
    first = np.asarray(await embedder.embed(TEXTS[:3]))
    again = np.asarray(await embedder.embed(TEXTS[:3]))
    np.testing.assert_allclose(first, again, atol=1e-6)


async def test_similarity_is_the_cosine_of_the_embeddings(implementation: tuple[str, Any]) -> None:
    _, embedder = implementation
    scores = await embedder.similarity(TEXTS[0], TEXTS[1:4])
    vectors = np.asarray(await embedder.embed(TEXTS[:4]))
    np.testing.assert_allclose(scores, vectors[1:4] @ vectors[0], atol=1e-3)
    assert all(-1.0 - 1e-6 <= s <= 1.0 + 1e-6 for s in scores)


async def test_similarities_score_each_query_as_similarity_does(implementation: tuple[str, Any]) -> None:
    _, embedder = implementation
    rows = await embedder.similarities(TEXTS[:2], TEXTS[2:5])
    assert len(rows) == 2 and all(len(row) == 3 for row in rows)
    vectors = np.asarray(await embedder.embed(TEXTS[:5]))
    np.testing.assert_allclose(rows, vectors[:2] @ vectors[2:5].T, atol=1e-3)
    # Another batch: int8 quantisation ranges shift with batch-mates (`BATCH_COSINE`).
    np.testing.assert_allclose(rows[0], await embedder.similarity(TEXTS[0], TEXTS[2:5]), atol=0.02)
    assert await embedder.similarities(TEXTS[:2], []) == [[], []]


async def test_similar_texts_score_higher_than_unrelated_ones(implementation: tuple[str, Any]) -> None:
    _, embedder = implementation
    close, far = await embedder.similarity(
        "vacation days for employees", ["employees get vacation days", "receipts for the fleet"]
    )
    assert close > far


def test_token_counts_one_per_text_without_truncation(implementation: tuple[str, Any]) -> None:
    _, embedder = implementation
    counts = embedder.count_tokens(TEXTS)
    assert len(counts) == len(TEXTS) and all(isinstance(c, int) and c >= 0 for c in counts)
    assert counts[1] < counts[0] < counts[-1]
    assert counts[-1] > embedder.max_seq_length
    assert embedder.count_tokens([""]) == [0]


def test_names_its_model_and_length(implementation: tuple[str, Any]) -> None:
    _, embedder = implementation
    assert embedder.model_name and embedder.max_seq_length > 0


@pytest.mark.model
# int8 measured: 0.976 at worst (one-word texts), 0.995 on average over NFCorpus passages.
@pytest.mark.parametrize(("name", "least"), [("onnx", 0.999), ("onnx-int8", 0.97)])
async def test_onnx_encoders_agree_with_the_pytorch_reference(
    request: pytest.FixtureRequest, real_embedder: Any, name: str, least: float
) -> None:
    onnx = request.getfixturevalue(_fixture(name))
    texts = [*TEXTS, "", "x", LONG + " and more beyond the model's window"]
    reference = np.asarray(await real_embedder.embed(texts))
    assert _cosines(np.asarray(await onnx.embed(texts)), reference).min() >= least
    alone = np.vstack([np.asarray(await onnx.embed([t])) for t in texts])
    assert _cosines(alone, reference).min() >= least
    assert (onnx.dimension, onnx.max_seq_length, onnx.model_name) == (
        real_embedder.dimension,
        real_embedder.max_seq_length,
        real_embedder.model_name,
    )


@pytest.mark.model
@pytest.mark.parametrize("name", ["onnx", "onnx-int8"])
def test_onnx_encoders_count_tokens_as_the_reference_does(
    request: pytest.FixtureRequest, real_embedder: Any, name: str
) -> None:
    onnx = request.getfixturevalue(_fixture(name))
    texts = [*TEXTS, "", "Ünïcödé and e-mail@example.com, 3.5 kg/m²", LONG * 3]
    assert onnx.count_tokens(texts) == real_embedder.count_tokens(texts)


@pytest.mark.model
# The graph built from the safetensors weights measured 1.000000 at worst (fp32) on these texts.
@pytest.mark.parametrize(("name", "least"), [("onnx", 0.999), ("onnx-int8", 0.97)])
async def test_onnx_encoders_agree_with_the_recorded_pytorch_vectors(
    request: pytest.FixtureRequest, name: str, least: float
) -> None:
    """sentence-transformers' fp32 vectors, recorded by `fixtures/encoder/record_reference.py`."""
    onnx = request.getfixturevalue(_fixture(name))
    texts = json.loads((RECORDED / "reference.json").read_text(encoding="utf-8"))["texts"]
    reference = np.load(RECORDED / "reference.npy")
    assert reference.shape == (len(texts), onnx.dimension)
    assert _cosines(np.asarray(await onnx.embed(texts)), reference).min() >= least
