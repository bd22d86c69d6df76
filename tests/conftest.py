"""Shared fixtures: the real model, databases on SQLite and PostgreSQL, the sample corpus."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from core.concurrency import CpuExecutor
from storage.database import Database
from tests.environment import MODEL_CACHE

REPO = Path(__file__).resolve().parent.parent
SAMPLE_CORPUS = REPO / "examples" / "corpus"
# What `tests/services.sh start` creates; THREADWISE_TEST_POSTGRES_URL points elsewhere.
POSTGRES_URL = os.environ.get(
    "THREADWISE_TEST_POSTGRES_URL", "postgresql+asyncpg://threadwise:threadwise@127.0.0.1:5432/threadwise_test"
)
IN_CI = os.environ.get("CI", "").lower() == "true"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Groups for pytest-xdist (`--dist loadgroup`): a module's tests run on one worker, so its
    module-scoped fixtures are built once; every PostgreSQL test runs on one worker, because one of
    them restarts the shared server."""
    for item in items:
        group = "postgres" if item.get_closest_marker("postgres") else item.nodeid.split("::")[0]
        item.add_marker(pytest.mark.xdist_group(group))


def skip_unless_ci(problem: str, ci_reason: str) -> None:
    """Skip a test that needs something this machine lacks; under CI=true, which provides it, fail."""
    if IN_CI:
        pytest.fail(f"{problem} ({ci_reason})")
    pytest.skip(problem)


def _postgres_problem() -> str | None:
    """None when the test PostgreSQL answers, else why not."""
    import asyncpg

    dsn = POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")

    async def probe() -> None:
        connection = await asyncpg.connect(dsn, timeout=5)
        await connection.close()

    try:
        # Fixtures run inside the session's event loop; probe on a thread with its own loop.
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, probe()).result()
    except Exception as exc:
        return f"PostgreSQL at {POSTGRES_URL} is unreachable: {type(exc).__name__}: {exc}"
    return None


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The test PostgreSQL URL; skips (or fails under CI=true) when the server does not answer."""
    problem = _postgres_problem()
    if problem:
        skip_unless_ci(problem, "CI=true: PostgreSQL tests must run")
    return POSTGRES_URL


@pytest.fixture(scope="session")
def executor() -> Iterator[CpuExecutor]:
    """The bounded CPU executor, as the product builds it."""
    pool = CpuExecutor(max_workers=2)
    yield pool
    pool.shutdown()


def require_torch() -> None:
    """Skip (fail under CI=true, where .ci/run installs it) unless the [torch] extra is installed."""
    import importlib.util

    missing = [name for name in ("torch", "sentence_transformers") if importlib.util.find_spec(name) is None]
    if missing:
        problem = f"{' and '.join(missing)} not installed: the PyTorch reference needs pip install -e '.[torch]'"
        skip_unless_ci(problem, "CI=true: .ci/run installs the [torch] extra")


@pytest.fixture(scope="session")
async def real_embedder(executor: CpuExecutor):  # type: ignore[no-untyped-def]
    """The PyTorch reference encoder (sentence-transformers), loaded offline once per session;
    skipped with the reason when the [torch] extra is not installed (CI installs it)."""
    require_torch()
    from adapters.embedders.sentence_transformers import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder(model="all-MiniLM-L6-v2", executor=executor)
    await embedder.load()
    return embedder


@pytest.fixture(scope="session", autouse=True)
def onnx_models_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One models directory for the whole session (its embedders, every `Settings` and every product
    subprocess, through THREADWISE_MODEL_CACHE), so the ONNX export is made once, not per data directory."""
    folder = tmp_path_factory.mktemp("models")
    before = os.environ.get(MODEL_CACHE)
    os.environ[MODEL_CACHE] = str(folder)
    yield folder
    if before is None:
        os.environ.pop(MODEL_CACHE, None)
    else:
        os.environ[MODEL_CACHE] = before


@pytest.fixture(scope="session")
async def onnx_embedder(executor: CpuExecutor, onnx_models_dir: Path):  # type: ignore[no-untyped-def]
    """The default model through ONNX Runtime (fp32), exported from the shipped weights once per session."""
    from adapters.embedders.onnx_runtime import OnnxEmbedder

    embedder = OnnxEmbedder(model="all-MiniLM-L6-v2", executor=executor, models_dir=onnx_models_dir, quantized=False)
    await embedder.load()
    return embedder


@pytest.fixture(scope="session")
async def onnx_int8_embedder(executor: CpuExecutor, onnx_models_dir: Path, onnx_embedder):  # type: ignore[no-untyped-def]
    """The int8 (dynamically quantised) export of the same model."""
    from adapters.embedders.onnx_runtime import OnnxEmbedder

    embedder = OnnxEmbedder(model="all-MiniLM-L6-v2", executor=executor, models_dir=onnx_models_dir, quantized=True)
    await embedder.load()
    return embedder


@contextlib.asynccontextmanager
async def migrated_database(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    """A freshly migrated database: a SQLite file, or a private schema on the test PostgreSQL."""
    if kind == "sqlite":
        db = Database(url=f"sqlite+aiosqlite:///{tmp_path / 'threadwise.db'}")
        await db.upgrade()
        try:
            yield db
        finally:
            await db.dispose()
        return
    url = request.getfixturevalue("postgres_url")
    schema = f"tw_{uuid.uuid4().hex[:12]}"
    admin = Database(url=url)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    db = Database(url=url, search_path=schema)
    try:
        await db.upgrade()
        yield db
    finally:
        await db.dispose()
        async with admin.engine.begin() as connection:
            await connection.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.dispose()


DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=DATABASES)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database on each engine."""
    async with migrated_database(request.param, tmp_path, request) as db:
        yield db


def elasticsearch_url() -> str:
    """The live test node's URL (`tests/services.sh start` exports it); skips without one, or fails
    under CI=true, where .ci/run starts the node."""
    url = os.environ.get("THREADWISE_ELASTICSEARCH_URL")
    if not url:
        problem = "THREADWISE_ELASTICSEARCH_URL is not set: this test needs a live node (bash tests/services.sh start)"
        skip_unless_ci(problem, "CI=true: Elasticsearch tests must run")
    return url


async def elasticsearch_backend(dimension: int) -> Any:
    """A backend on the live cluster in THREADWISE_ELASTICSEARCH_URL, with private indices; else skip."""
    import uuid

    url = elasticsearch_url()
    from elasticsearch import AsyncElasticsearch

    from adapters.search.elasticsearch import ElasticsearchBackend

    # No replicas: the test node is a single node, and stays green.
    backend = ElasticsearchBackend(
        client=AsyncElasticsearch(url),
        dimension=dimension,
        prefix=f"threadwise-test-{uuid.uuid4().hex[:8]}",
        replicas=0,
    )
    await backend.ensure_indices()
    return backend


async def close_backend(backend: Any) -> None:
    """Close a test's search backend; an Elasticsearch one first deletes the indices it made."""
    from adapters.search.elasticsearch import ElasticsearchBackend

    if isinstance(backend, ElasticsearchBackend):
        await drop_test_indices(backend.client, backend.prefix)
    await backend.close()


async def drop_test_indices(client: Any, prefix: str) -> None:
    """Delete every index named `<prefix>-*`, by name (wildcard deletes may be refused)."""
    assert prefix.startswith("threadwise-test-"), prefix
    names = list(await client.indices.get(index=f"{prefix}-*", expand_wildcards="all"))
    if names:
        await client.indices.delete(index=",".join(names))
