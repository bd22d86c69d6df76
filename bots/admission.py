"""Back-pressure in front of the CPU work: a bounded first-come queue and a per-person rate limit."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass

from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter


class QueueFullError(Exception):
    """Every answering slot is busy and the waiting line is full."""


@dataclass
class Place:
    """A turn's place: `position` 0 runs at once, N is the Nth in line."""

    position: int
    _granted: asyncio.Future[None] | None


class TurnQueue:
    """At most `workers` turns answer at once; at most `capacity` more wait, served first come, first served."""

    def __init__(self, *, workers: int, capacity: int) -> None:
        self._workers = workers
        self._capacity = capacity
        self._running = 0
        self._waiting: deque[asyncio.Future[None]] = deque()

    @property
    def depth(self) -> int:
        """Turns waiting for a slot."""
        return len(self._waiting)

    @property
    def running(self) -> int:
        """Turns holding a slot."""
        return self._running

    def enter(self) -> Place:
        """Take a slot or a place in line; raises `QueueFullError` when the line is full."""
        if self._running < self._workers and not self._waiting:
            self._running += 1
            return Place(position=0, _granted=None)
        if len(self._waiting) >= self._capacity:
            raise QueueFullError(f"{self._running} turns running, {len(self._waiting)} waiting")
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(granted)
        return Place(position=len(self._waiting), _granted=granted)

    async def wait(self, place: Place) -> None:
        """Until `place` holds a slot (at once for position 0)."""
        if place._granted is not None:
            await place._granted

    def abandon(self, place: Place) -> None:
        """Give back a place in line, or the slot it was granted (a turn cancelled before it ran)."""
        granted = place._granted
        if granted is not None and granted in self._waiting:
            self._waiting.remove(granted)
            granted.cancel()
        elif granted is None or (granted.done() and not granted.cancelled()):
            self.leave()

    def leave(self) -> None:
        """Free a slot: the first in line takes it over."""
        while self._waiting:
            granted = self._waiting.popleft()
            if not granted.done():
                granted.set_result(None)
                return
        self._running -= 1


class UserRateLimit:
    """At most `per_minute` turns per person in any sliding minute (`limits`' moving window); 0 is off."""

    def __init__(self, *, per_minute: int) -> None:
        self._item = RateLimitItemPerMinute(per_minute) if per_minute > 0 else None
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    async def allow(self, person: str) -> bool:
        """Count one turn for `person`; False when it is over the limit."""
        if self._item is None:
            return True
        return await self._limiter.hit(self._item, person)
