"""A channel mapped to collection A never sees, cites or quotes collection B (SPEC section 5)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.loaders.markdown import MarkdownLoader
from core.concurrency import CpuExecutor
from core.contracts import Turn
from core.ingest.pipeline import Ingestor
from tests.fakes import HashingEmbedder, InMemoryRegistry, InMemorySearchBackend
from tests.unit.test_graph import CLOCK, World

FINANCE = {"budget.md": "# Budget\n\nThe travel budget for 2025 is EUR 90,000 and the secret code is ZETA-17.\n"}
PEOPLE = {
    "leave.md": "# Leave\n\nEvery new parent receives 20 weeks of paid parental leave.\n",
    "travel.md": "# Travel\n\nTrips under 800 km must be made by train; the hotel limit is EUR 165.\n",
}
VOCABULARY = sorted({w for text in [*FINANCE.values(), *PEOPLE.values()] for w in re.findall(r"[A-Za-z]{4,}", text)})


@pytest.fixture(scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    backend = InMemorySearchBackend()
    ingestor = Ingestor(
        loaders=[MarkdownLoader()],
        embedder=HashingEmbedder(),
        backend=backend,
        registry=InMemoryRegistry(),
        executor=CpuExecutor(max_workers=1),
        clock=CLOCK,
    )
    for collection, docs in (("finance", FINANCE), ("people", PEOPLE)):
        folder = tmp_path_factory.mktemp(collection)
        for name, text in docs.items():
            (folder / name).write_text(text, encoding="utf-8")
        await ingestor.ingest([folder], collection=collection)
    return World(backend, channels={"slack:T:C-people": ["people"]})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=6), st.integers(0, 10**9))
async def test_people_channel_never_sees_finance(world: World, words: list[str], n: int) -> None:
    turn = Turn(
        platform="slack",
        tenant="T",
        channel_key="slack:T:C-people",
        thread=f"{n}",
        user="U",
        message_key=f"slack:T:C-people:{n}:{' '.join(words)}",
        text=" ".join(words) + "?",
        received_at=dt.datetime.now(dt.UTC),
    )
    answer = await world.service.answer(turn)
    assert answer.result is not None
    result = answer.result
    finance_docs = {s.doc_id for s in world.backend.segments.values() if s.collection == "finance"}
    assert not {c.doc_id for c in result.citations} & finance_docs
    assert not {c.id for c in result.context_packet.candidates} & {
        s.chunk_id for s in world.backend.segments.values() if s.collection == "finance"
    }
    assert "ZETA-17" not in result.model_dump_json() and "90,000" not in result.answer
