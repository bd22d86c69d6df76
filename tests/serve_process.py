"""`threadwise serve` as a subprocess on a free loopback port, for the end-to-end tests."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from pathlib import Path

import aiohttp


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """Start `threadwise serve` on `port` with exactly `env`; its output goes to `log`."""
    handle = log.open("wb")
    return subprocess.Popen(
        ["threadwise", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=handle,
        stderr=handle,
    )


async def wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll `/readyz` until 200; fail with the server's log if it exits or never gets ready."""
    deadline = time.monotonic() + 180
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            try:
                async with session.get(url + "/readyz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.5)
    raise AssertionError("server never became ready:\n" + log.read_text())
