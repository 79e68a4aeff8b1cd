"""When a page kept in memory may be sent again without asking the database anything: while the store's
change stamp is the one it was made under.

The stamp is two things:

- this process's COMMITs (``store.commits``, an in-memory count): a command, a publication or anything
  else this process writes moves it the moment it is committed, so its change shows on the next request;
- what other processes committed (``store.data_version()``: SQLite's ``PRAGMA data_version``, PostgreSQL's
  current snapshot), asked at most once every ``OTHERS_EVERY`` seconds, so a change made by another bot
  process on the same database shows within that (plus the one query's time). Requests that find the
  answer too old wait for one query together.

A page made after the stamp was taken shows at least what the database held then; when either part has
moved since, the page is checked again the long way (which renders again only when it changed).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from typing import Any

OTHERS_EVERY = 0.5  # seconds: another process's change shows on the website within this


class Freshness:
    def __init__(self, store: Any, every: float = OTHERS_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._every = every
        self._clock = clock
        self._others: Hashable = None
        self._asked = float("-inf")  # when the other processes' part was last asked (before the query)
        self._asking: asyncio.Task[None] | None = None

    async def stamp(self) -> tuple[int, Hashable]:
        """The stamp now: a page made from what the database holds from here on may be kept under it."""
        commits = self._store.commits
        if self._clock() - self._asked >= self._every:
            if self._asking is None or self._asking.done():
                self._asking = asyncio.create_task(self._ask())
            await asyncio.shield(self._asking)
        return commits, self._others

    async def _ask(self) -> None:
        asked = self._clock()
        self._others = await self._store.data_version()
        self._asked = asked
