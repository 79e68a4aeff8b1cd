"""Calls that come while one is running go together in the next (``Batched``): one statement and one
round trip for many, as the outbox's records of "attempted" and "sent" of the clubs served side by side
(``bot/core/running/scheduler.py``). Each caller gets its own answer, or the error of the batch it was in."""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Generic, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Batched(Generic[T, R]):
    """``await batched(item)`` runs ``run_many`` on the items asked for while the previous batch ran (or
    in the same turn of the event loop), in the order they were asked for; ``run_many`` returns one answer
    per item, in that order. At most ``largest`` items go in one batch."""

    def __init__(self, run_many: Callable[[list[T]], Awaitable[Sequence[R]]], largest: int = 100) -> None:
        self.run_many = run_many
        self.largest = largest
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._running: asyncio.Task[None] | None = None

    async def __call__(self, item: T) -> R:
        answer: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, answer))
        if self._running is None or self._running.done():
            self._running = asyncio.create_task(self._drain())
        return await answer  # a caller that is cancelled leaves its item's batch alone (it runs in _drain)

    async def _drain(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting[: self.largest], self._waiting[self.largest :]
            try:
                answers = list(await self.run_many([item for item, _ in batch]))
                if len(answers) != len(batch):
                    raise RuntimeError(f"{len(answers)} answers for {len(batch)} items")
            except asyncio.CancelledError:  # stopped (the bot shuts down): so are its callers
                for _, answer in batch + self._waiting:
                    answer.cancel()
                self._waiting = []
                raise
            except Exception as error:  # every caller of the batch hears it
                for _, answer in batch:
                    if not answer.done():
                        answer.set_exception(error)
                continue
            for (_, answer), result in zip(batch, answers):
                if not answer.done():
                    answer.set_result(result)
