"""`threadwise serve` refuses an unmigrated database before it opens its port, naming the command to run."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from tests.environment import product_env

pytestmark = pytest.mark.e2e


def test_serve_refuses_an_unmigrated_database(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    env = product_env(
        THREADWISE_DATA_DIR=str(tmp_path / "data"), THREADWISE_DATABASE_URL=f"sqlite:///{tmp_path / 'new.db'}"
    )
    done = subprocess.run(
        ["threadwise", "serve", "--port", str(port)], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2
    assert "threadwise db upgrade" in done.stderr and "revision none" in done.stderr
    assert "listening" not in done.stderr  # refused before the port opened

    upgraded = subprocess.run(["threadwise", "db", "upgrade"], env=env, capture_output=True, text=True, check=False)
    assert upgraded.returncode == 0, upgraded.stderr
