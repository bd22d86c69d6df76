"""The composition root: the one place that builds concrete adapters (SPEC section 1)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from adapters.annotations.extract import Annotator
from adapters.annotations.units import UnitNormalizer, UnitQuantityReader
from adapters.embedders.base import LocalEmbedder
from adapters.llm.factory import LlmConfigError, build_chat_models
from adapters.loaders.docx import DocxLoader
from adapters.loaders.html import HtmlLoader
from adapters.loaders.markdown import MarkdownLoader
from adapters.loaders.pdf import PdfLoader
from adapters.loaders.tabular import DelimitedLoader, JsonLinesLoader
from adapters.loaders.text import TextLoader
from adapters.rerankers.cross_encoder import CrossEncoderReranker
from adapters.search.embedded import EmbeddedSearchBackend
from bots.exports import CsvExporter, ExportLinks, export_secret
from bots.settings import Settings, SettingsError
from bots.warming import WarmingGraph
from core.calibration import Calibration
from core.clock import FixedClock, SystemClock
from core.concurrency import CpuExecutor
from core.ingest.pipeline import Ingestor
from core.llm.gateway import ChatModels, LlmGateway
from core.orchestrator.commands import Commands
from core.orchestrator.graph import AnswerGraph
from core.orchestrator.service import Answerer, TurnService
from core.ports import Clock, DocumentLoader, SearchBackend
from storage.database import Database
from storage.repositories import (
    SqlChannelAccess,
    SqlConversationStore,
    SqlDecisionLog,
    SqlDocumentRegistry,
    SqlResultSetStore,
    SqlTurnLedger,
)


@dataclass
class Storage:
    """The database and the repositories on it."""

    database: Database
    conversations: SqlConversationStore
    ledger: SqlTurnLedger
    decisions: SqlDecisionLog
    registry: SqlDocumentRegistry
    result_sets: SqlResultSetStore
    channels: SqlChannelAccess

    async def close(self) -> None:
        """Dispose of the engine."""
        await self.database.dispose()


@dataclass
class App:
    """Everything a command or the server needs, built once."""

    settings: Settings
    clock: Clock
    executor: CpuExecutor
    storage: Storage
    embedder: LocalEmbedder
    backend: SearchBackend
    calibration: Calibration
    service: TurnService
    ingestor: Ingestor
    exporter: CsvExporter
    export_links: ExportLinks
    llm: LlmGateway
    quantities: UnitQuantityReader

    async def close(self) -> None:
        """Release the backend, the database and the executor."""
        await self.backend.close()
        await self.storage.close()
        self.executor.shutdown()


async def build_storage(settings: Settings, *, migrate_embedded: bool = True) -> Storage:
    """Open the database; the embedded SQLite default migrates itself, others must be migrated."""
    database = Database(url=settings.resolved_database_url)
    if migrate_embedded and database.is_sqlite and settings.database_url is None:
        await database.upgrade()
    else:
        await database.ensure_migrated()
    return Storage(
        database=database,
        conversations=SqlConversationStore(database=database),
        ledger=SqlTurnLedger(database=database),
        decisions=SqlDecisionLog(database=database),
        registry=SqlDocumentRegistry(database=database),
        result_sets=SqlResultSetStore(database=database),
        channels=SqlChannelAccess(database=database),
    )


def all_loaders() -> list[DocumentLoader]:
    """Every file loader, one per document type of SPEC section 4."""
    return [
        MarkdownLoader(),
        TextLoader(),
        HtmlLoader(),
        PdfLoader(),
        DelimitedLoader(),
        DocxLoader(),
        JsonLinesLoader(),
    ]


def load_calibration(settings: Settings) -> Calibration:
    """The fitted thresholds for the configured model, or the defaults."""
    path = settings.calibration_path
    if path.exists():
        fitted = json.loads(path.read_text(encoding="utf-8"))
        if settings.embedding_model in fitted:
            return Calibration.model_validate(fitted[settings.embedding_model])
    return Calibration(model=settings.embedding_model)


async def build_search_backend(settings: Settings, executor: CpuExecutor, embedder: LocalEmbedder) -> SearchBackend:
    """The configured search backend: embedded by default, Elasticsearch by setting."""
    if settings.search_backend == "elasticsearch":
        from elasticsearch import AsyncElasticsearch

        from adapters.search.elasticsearch import ElasticsearchBackend

        if not settings.elasticsearch_url:
            raise ValueError("THREADWISE_SEARCH_BACKEND=elasticsearch needs THREADWISE_ELASTICSEARCH_URL")
        backend = ElasticsearchBackend(
            client=AsyncElasticsearch(settings.elasticsearch_url, request_timeout=30, retry_on_timeout=True),
            dimension=embedder.dimension,
            rrf_retriever=settings.elasticsearch_rrf_retriever,
            replicas=settings.elasticsearch_replicas,
            vector_index=settings.elasticsearch_vector_index,
            prefix=settings.elasticsearch_prefix,
        )
        await backend.ensure_indices()
        return backend
    return EmbeddedSearchBackend(
        path=settings.search_index_path,
        executor=executor,
        model_name=settings.embedding_model,
        dimension=embedder.dimension,
    )


def build_embedder(settings: Settings, executor: CpuExecutor) -> LocalEmbedder:
    """The configured encoder of the embedding model: ONNX Runtime by default, PyTorch by setting.

    Each is imported only when chosen, so the ONNX path never imports PyTorch once its export exists.
    """
    if settings.encoder == "torch":
        from adapters.embedders.sentence_transformers import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(model=settings.embedding_model, executor=executor)
    from adapters.embedders.onnx_runtime import OnnxEmbedder

    return OnnxEmbedder(
        model=settings.embedding_model,
        executor=executor,
        models_dir=settings.models_dir,
        quantized=settings.encoder == "onnx-int8",
    )


def build_llm(settings: Settings) -> ChatModels | None:
    """The configured chat models, or None for provider `none`; a wrong LLM setting raises `SettingsError`."""
    try:
        return build_chat_models(
            provider=settings.llm_provider,
            model=settings.llm_model,
            base_url=settings.llm_base_url,
            api_key=settings.llm_api_key,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
            temperature=settings.llm_temperature,
        )
    except LlmConfigError as exc:
        raise SettingsError(f"invalid setting: {exc}") from None


def build_export_links(settings: Settings, clock: Clock) -> ExportLinks:
    """Signed export links under `THREADWISE_PUBLIC_URL`, keyed by `THREADWISE_EXPORT_SECRET` or a data-dir secret."""
    configured = settings.export_secret.get_secret_value() if settings.export_secret else None
    return ExportLinks(
        secret=export_secret(configured, settings.data_dir),
        public_url=settings.public_url or "",
        ttl_s=settings.export_link_ttl_hours * 3600,
        clock=clock,
    )


def build_turn_service(
    settings: Settings,
    storage: Storage,
    graph: Answerer,
    *,
    exporter: CsvExporter,
    embedder: LocalEmbedder,
    llm: LlmGateway,
    clock: Clock,
) -> TurnService:
    """The one door into the core, over `graph` (the behaviour set swaps the graph for one case)."""
    return TurnService(
        graph=graph,
        conversations=storage.conversations,
        ledger=storage.ledger,
        decisions=storage.decisions,
        channels=storage.channels,
        unmapped=settings.unmapped_channels,
        clock=clock,
        commands=Commands(result_sets=storage.result_sets, exporter=exporter),
        count_tokens=embedder.count_tokens,
        llm=llm,
        lease_seconds=settings.lease_seconds,
    )


@dataclass
class Front:
    """What a server needs to acknowledge and claim platform requests before the model is loaded.

    The turn service answers through `graph`, which waits until `warm` has built the real one.
    """

    settings: Settings
    clock: Clock
    executor: CpuExecutor
    storage: Storage
    embedder: LocalEmbedder
    llm: LlmGateway
    exporter: CsvExporter
    export_links: ExportLinks
    graph: WarmingGraph
    service: TurnService


async def build_front(
    settings: Settings, *, clock: Clock | None = None, chat_models: ChatModels | None = None
) -> Front:
    """Open storage and build the turn service; nothing here loads a model or reads the index.

    `chat_models` replaces the configured LLM (the behaviour set runs with a scripted model).
    """
    models = chat_models if chat_models is not None else build_llm(settings)
    clock = clock or (FixedClock(at=settings.fixed_now) if settings.fixed_now else SystemClock())
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    executor = CpuExecutor(max_workers=settings.cpu_workers)
    storage = await build_storage(settings)
    embedder = build_embedder(settings, executor)
    llm = LlmGateway(models, timeout_s=settings.llm_timeout_s, turn_budget_s=settings.llm_turn_budget_s)
    export_links = build_export_links(settings, clock)
    exporter = CsvExporter(
        result_sets=storage.result_sets,
        folder=settings.data_dir / "exports",
        links=export_links if settings.public_url else None,
    )
    graph = WarmingGraph()
    service = build_turn_service(settings, storage, graph, exporter=exporter, embedder=embedder, llm=llm, clock=clock)
    return Front(
        settings=settings,
        clock=clock,
        executor=executor,
        storage=storage,
        embedder=embedder,
        llm=llm,
        exporter=exporter,
        export_links=export_links,
        graph=graph,
        service=service,
    )


async def warm(front: Front) -> App:
    """Load and warm up the embedding model, open the index and build the answer graph.

    Turns already waiting in `front.graph` start once it is set; a failure here fails them too.
    """
    try:
        app = await _warm(front)
    except BaseException as exc:
        front.graph.fail(exc)
        raise
    return app


async def _warm(front: Front) -> App:
    settings, embedder, executor, storage = front.settings, front.embedder, front.executor, front.storage
    await embedder.load()
    backend = await build_search_backend(settings, executor, embedder)
    calibration = load_calibration(settings)
    reranker = None
    if settings.reranker_model:
        reranker = await CrossEncoderReranker.load(name=settings.reranker_model, executor=executor)
    units = UnitNormalizer()  # one normaliser for the documents' quantities and the questions'
    quantities = UnitQuantityReader(units=units)
    graph = AnswerGraph(
        backend=backend,
        embedder=embedder,
        calibration=calibration,
        clock=front.clock,
        quantities=quantities,
        result_sets=storage.result_sets,
        reranker=reranker,
        reranker_configured=bool(settings.reranker_model),
        channel_mismatch_probe=settings.channel_mismatch_probe,
        llm=front.llm,
        documents=storage.registry,
    )
    front.graph.set(graph)
    ingestor = Ingestor(
        loaders=all_loaders(),
        annotator=Annotator(units=units),
        embedder=embedder,
        backend=backend,
        registry=storage.registry,
        executor=executor,
        clock=front.clock,
        source_base_url=settings.source_base_url,
    )
    return App(
        settings=settings,
        clock=front.clock,
        executor=executor,
        storage=storage,
        embedder=embedder,
        backend=backend,
        calibration=calibration,
        service=front.service,
        ingestor=ingestor,
        exporter=front.exporter,
        export_links=front.export_links,
        llm=front.llm,
        quantities=quantities,
    )


async def build_app(settings: Settings, *, clock: Clock | None = None, chat_models: ChatModels | None = None) -> App:
    """Build every component; loads and warms up the embedding model (`build_front`, then `warm`)."""
    return await warm(await build_front(settings, clock=clock, chat_models=chat_models))
