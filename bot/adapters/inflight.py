"""What an adapter is handling right now, so that it can wait for it before it stops."""

from __future__ import annotations

import asyncio
from typing import Awaitable, TypeVar

T = TypeVar("T")


class InFlight:
    def __init__(self) -> None:
        self.running = 0  # commands being handled now
        self.handled = 0  # commands handled so far (tests wait on it)

    async def run(self, work: Awaitable[T]) -> T:
        self.running += 1
        try:
            return await work
        finally:
            self.running -= 1
            self.handled += 1

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until nothing is being handled; TimeoutError after ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while self.running:
                await asyncio.sleep(0.01)
