"""The small protocols the core needs from the outside world (SPEC section 1).

Concrete implementations live in `adapters/` and `storage/` and are built only in
`bots/bootstrap.py`; every port has one contract suite in `tests/contracts/`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from core.contracts import SearchFilters, TableResult, Turn
from core.knowledge import (
    AggregateFunction,
    AggregateRow,
    Annotation,
    AnnotationMatches,
    AnnotationQuery,
    CollectionStats,
    DocumentRecord,
    LoadedDocument,
    SearchHit,
    Segment,
    ToolHealth,
    VectorScope,
)
from core.records import (
    ConversationKey,
    ConversationState,
    DecisionRecord,
    Feedback,
    ReplyTarget,
    StaleTurn,
    TurnClaim,
)

ProgressCallback = Callable[[str], Awaitable[None]]
"""Called with a stage name ("retrieve", "synthesize", ...) as each stage starts."""


class Embeddings(Protocol):
    """A matrix of embeddings, one row per text; a numpy array satisfies it."""

    def __len__(self) -> int: ...

    def tolist(self) -> Any: ...


class Annotator(Protocol):
    """Finds facts and table rows in a loaded document."""

    def annotate(
        self, document: LoadedDocument, record: DocumentRecord, segments: Sequence[Segment]
    ) -> list[Annotation]: ...


@dataclass(frozen=True)
class FoundQuantity:
    """A number in a text and its unit, normalised as the documents' quantities are.

    `unit` is `m`, `kg`, `W`, a currency code (`EUR`, `USD`, `GBP`) or `%`, and None for a bare
    number; `dimension` names its kind (`length`, `mass`, `power`, `currency`, `percent`).
    `start` and `end` are the span of the number and its unit in the text.
    """

    start: int
    end: int
    value: float
    unit: str | None = None
    dimension: str | None = None


class QuantityReader(Protocol):
    """Finds numbers and quantities ("1,134 mm", "£40", "16 oz") in a text, normalised."""

    def find(self, text: str) -> list[FoundQuantity]: ...


class Clock(Protocol):
    """Where the core gets the time, so relative dates are testable."""

    def now(self) -> datetime: ...


class Embedder(Protocol):
    """Turns texts into normalised embeddings; runs off the event loop."""

    @property
    def model_name(self) -> str: ...

    @property
    def max_seq_length(self) -> int: ...

    async def embed(self, texts: Sequence[str]) -> Embeddings: ...

    async def similarity(self, query: str, texts: Sequence[str]) -> list[float]: ...

    async def similarities(self, queries: Sequence[str], texts: Sequence[str]) -> list[list[float]]:
        """For each query, its cosine with each text: all encoded as one batch, queries first."""
        ...

    async def similarity_alone(self, query: str, texts: Sequence[str]) -> list[float]:
        """Cosines with each text encoded alone: vectors reused across a turn's stages."""
        ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...

    def known_words(self, words: Sequence[str]) -> set[str]:
        """The words the model's tokenizer knows whole (its vocabulary), as given."""
        ...


class Reranker(Protocol):
    """Scores (query, text) pairs as probabilities of relevance."""

    async def rerank(self, query: str, texts: Sequence[str]) -> list[float]: ...


class ChatModel(Protocol):
    """An optional LLM: one completion for a list of (role, content) messages."""

    async def complete(self, messages: Sequence[tuple[str, str]], *, temperature: float) -> str: ...


class DocumentLoader(Protocol):
    """Reads one kind of file into a `LoadedDocument`; raises on a broken file."""

    @property
    def suffixes(self) -> tuple[str, ...]: ...

    def load(self, path: Path) -> LoadedDocument: ...


class SearchBackend(Protocol):
    """Where segments, summaries and annotations are indexed and searched (SPEC section 4)."""

    @property
    def name(self) -> str: ...

    async def upsert_document(
        self,
        document: DocumentRecord,
        segments: Sequence[Segment],
        embeddings: Embeddings,
        annotations: Sequence[Annotation] = (),
    ) -> None: ...

    async def delete_document(self, doc_id: str) -> None: ...

    async def refresh(self) -> None:
        """Make every write so far visible to searches; ingestion calls it once per run."""
        ...

    async def known_labels(self) -> list[str]: ...

    async def upsert_labels(self, labels: Sequence[str], embeddings: Embeddings) -> None: ...

    async def search_text(
        self, query: str, filters: SearchFilters, limit: int, query_vector: Embeddings
    ) -> list[SearchHit]: ...

    async def search_vector(
        self, query_vector: Embeddings, filters: SearchFilters, limit: int, scope: VectorScope = "segment"
    ) -> list[SearchHit]: ...

    async def search_hybrid(
        self,
        query: str,
        query_vector: Embeddings,
        filters: SearchFilters,
        limit: int,
        recency_boost: float = 0.0,
    ) -> list[SearchHit]: ...

    async def annotations_search(
        self, query: AnnotationQuery, filters: SearchFilters, limit: int, label_vectors: Embeddings | None
    ) -> AnnotationMatches: ...

    async def annotations_aggregate(
        self,
        query: AnnotationQuery,
        filters: SearchFilters,
        function: AggregateFunction,
        field: str | None,
        group_by: str | None,
        label_vectors: Embeddings | None,
    ) -> list[AggregateRow]: ...

    async def stats(self, filters: SearchFilters) -> CollectionStats: ...

    async def segments_at(self, places: Sequence[tuple[str, int]]) -> list[Segment]:
        """The segments stored at these (document, position) places, in no order; places that hold
        none are left out."""
        ...

    async def health(self) -> ToolHealth: ...

    async def close(self) -> None: ...


class ResultSetStore(Protocol):
    """Full result sets kept for "show the rest" and CSV export; `total` is exact."""

    async def save(self, table: TableResult, rows: Sequence[Sequence[str]], now: datetime) -> str: ...

    async def page(self, result_set_id: str, offset: int, limit: int) -> TableResult | None: ...


class Exporter(Protocol):
    """Writes a stored result set as CSV and says where it is (a path, or a signed link)."""

    async def export(self, result_set_id: str) -> str: ...


class ChannelAccess(Protocol):
    """Which collections each channel key may read (SPEC section 5)."""

    async def set(self, channel_key: str, collections: Sequence[str]) -> None: ...

    async def mapping(self) -> dict[str, list[str]]: ...


class DocumentRegistry(Protocol):
    """The registry of ingested documents (content hashes make re-ingest idempotent)."""

    async def find(self, collection: str, source_path: str) -> DocumentRecord | None: ...

    async def save(self, record: DocumentRecord) -> None: ...

    async def remove(self, doc_id: str) -> None: ...

    async def list_documents(self, collection: str | None = None) -> list[DocumentRecord]: ...


class ConversationStore(Protocol):
    """Conversations and their rolling state."""

    async def open(self, key: ConversationKey, now: datetime) -> ConversationState: ...

    async def find(self, key: ConversationKey) -> ConversationState | None: ...

    async def save(self, state: ConversationState) -> None: ...


class TurnLedger(Protocol):
    """Exactly-once answering: one claim per message key, with a lease (SPEC section 7)."""

    async def claim(
        self,
        turn: Turn,
        conversation_id: str,
        now: datetime,
        lease_seconds: float,
        target: ReplyTarget | None = None,
    ) -> TurnClaim:
        """Claim a message key; a lapsed or failed claim is taken over (counting an attempt)."""
        ...

    async def stale(self, now: datetime, limit: int) -> list[StaleTurn]:
        """Claimed turns whose lease lapsed before `now`, oldest first; the sweep re-claims them."""
        ...

    async def record_reply(self, turn_id: str, reply_id: str) -> None:
        """A reply was posted (maybe a placeholder): a re-run edits it instead of posting again."""
        ...

    async def mark_answered(self, turn_id: str, now: datetime, reply_id: str | None) -> None: ...

    async def mark_failed(self, turn_id: str, now: datetime, error: str) -> None: ...

    async def turn_for_reply(self, platform: str, reply_id: str) -> str | None:
        """The turn whose reply has this platform id (feedback on a message names only the message)."""
        ...


class DecisionLog(Protocol):
    """Every turn's router decision, for debugging and analytics."""

    async def record(self, decision: DecisionRecord) -> None: ...

    async def latest(self, limit: int) -> list[DecisionRecord]: ...

    async def add_feedback(self, turn_id: str, feedback: Feedback) -> bool:
        """Store a person's feedback on a turn (their newer click replaces an older one); False for an unknown turn."""
        ...
