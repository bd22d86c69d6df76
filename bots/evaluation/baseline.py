"""The plain-hybrid baseline the agentic answer must never be less correct than (issue 12's guard).

For one question: the top hybrid hits, and the sentences of those hits most similar to the
question, each cited — no routing, no evaluation, no support gate, always an answer.
"""

from __future__ import annotations

from core.contracts import OrchestrationResult, SearchFilters
from core.orchestrator.extractive import citation
from core.orchestrator.routes import hits_to_evidence
from core.ports import Embedder, SearchBackend
from core.text import split_sentences, words

TOP_HITS = 3
SENTENCES = 3


async def plain_hybrid_answer(
    question: str,
    agentic: OrchestrationResult,
    *,
    backend: SearchBackend,
    embedder: Embedder,
    collections: list[str] | None,
) -> OrchestrationResult:
    """The baseline's answer, shaped as a result so the same case check grades both."""
    vector = await embedder.embed([question])
    hits = (await backend.search_hybrid(question, vector, SearchFilters(collections=collections), TOP_HITS, 0.0))[
        :TOP_HITS
    ]
    evidence = hits_to_evidence(hits, 1, question, "hybrid")
    sentences = [
        (index, sentence)
        for index, item in enumerate(evidence)
        for sentence in dict.fromkeys(split_sentences(item.text))
        if len(words(sentence)) >= 4
    ]
    text, citations = "", []
    if sentences:
        scores = await embedder.similarity(question, [s for _, s in sentences])
        ranked = sorted(zip(scores, sentences, strict=True), key=lambda pair: -pair[0])[:SENTENCES]
        numbers: dict[int, int] = {}
        parts = []
        for _, (index, sentence) in ranked:
            n = numbers.setdefault(index, len(numbers) + 1)
            parts.append(f"{sentence.strip()} [{n}]")
        text = " ".join(parts)
        citations = [citation(n, evidence[index]) for index, n in numbers.items()]
    return agentic.model_copy(
        update={
            "answer": text,
            "citations": citations,
            "kind": "answer",
            "branch": "SUCCESS",
            "final_reason": "confidence_high",
            "table": None,
            "overflow": 0,
            "applicability_note": None,
            "uncertainty_note": None,
        }
    )
