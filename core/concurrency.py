"""One bounded executor for CPU-bound work, so the event loop stays free (SPEC section 1)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class CpuExecutor:
    """Runs blocking calls (encoding, vector maths, FTS queries, parsing) on a bounded pool."""

    def __init__(self, *, max_workers: int) -> None:
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="threadwise-cpu")
        self.max_workers = max_workers

    async def run(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run `fn(*args, **kwargs)` on the pool and await its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    def shutdown(self) -> None:
        """Wait for running work, then release the threads."""
        self._pool.shutdown(wait=True)
