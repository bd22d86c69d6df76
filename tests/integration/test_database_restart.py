"""PostgreSQL restarts between two turns: the next turn reconnects and is answered.

Restarts the shared test server (only inside this test) and waits until it answers again.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import shutil
import subprocess
import time
from pathlib import Path

import asyncpg
import pytest

from core.contracts import Turn
from storage.repositories import SqlConversationStore, SqlDecisionLog, SqlTurnLedger
from tests.conftest import POSTGRES_URL, migrated_database
from tests.fakes import InMemorySearchBackend, fake_turn_service
from tests.unit.test_graph import CLOCK, World

pytestmark = pytest.mark.postgres


def _turn(n: int) -> Turn:
    return Turn(
        platform="slack",
        tenant="T",
        channel_key="slack:T:C1",
        thread="1.1",
        user="U1",
        message_key=f"slack:T:C1:{n}.0",
        text="What is the hotel limit?",
        received_at=dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC),
    )


async def _restart_postgres() -> None:
    """Restart the cluster and return once it accepts connections again."""
    if shutil.which("pg_ctlcluster") is None or not Path("/etc/postgresql").is_dir():
        pytest.skip("pg_ctlcluster is not available: cannot restart PostgreSQL here")
    (version,) = [p.name for p in Path("/etc/postgresql").iterdir()]
    command = ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"]
    done = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    dsn = POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")
    deadline = time.monotonic() + 60
    while True:
        try:
            connection = await asyncpg.connect(dsn, timeout=5)
        except (OSError, asyncpg.PostgresError):
            assert time.monotonic() < deadline, "PostgreSQL did not come back within 60 s"
            await asyncio.sleep(0.2)
            continue
        await connection.close()
        return


async def test_the_turn_after_a_postgres_restart_reconnects_and_is_answered(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    async with migrated_database("postgresql", tmp_path, request) as database:
        service = fake_turn_service(
            World(InMemorySearchBackend()).graph,
            clock=CLOCK,
            conversations=SqlConversationStore(database=database),
            ledger=SqlTurnLedger(database=database),
            decisions=SqlDecisionLog(database=database),
        )
        before = await service.answer(_turn(1))
        assert before.result is not None and not before.result.errors
        await _restart_postgres()  # every pooled connection is now dead
        after = await service.answer(_turn(2))
        assert after.result is not None and not after.result.errors, after.result
        assert not after.duplicate and after.turn_id != before.turn_id
        await service.delivered(after.turn_id, "2.5")
        again = await service.answer(_turn(2))  # a platform retry: the ledger has it as answered
        assert again.duplicate and again.turn_id == after.turn_id
