"""The Telegram fake's queue of updates, kept as Telegram keeps it (Bot API, getUpdates): an update waits
until the bot confirms it, by calling getUpdates with an ``offset`` higher than its ``update_id``, and a
confirmed update is never sent again; an unconfirmed one is sent again to every getUpdates (also to a
bot started anew, whose first call has no offset). A negative ``offset`` keeps only the last ``-offset``
updates and forgets the rest. ``limit`` is 1 to 100 (100 by default).

And what the bot answered to each message: ``answers[(chat id, message id)]`` counts the messages the bot
sent in reply to it (``reply_parameters``), so a test can see each command answered exactly once.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any, Awaitable, Callable


class Updates:
    def __init__(self) -> None:
        self.waiting: list[dict[str, Any]] = []  # unconfirmed, in order of update_id
        self.confirmed = 0  # the highest update_id confirmed
        self.delivered: Counter[int] = Counter()  # update_id -> how many getUpdates answers carried it
        self.answers: Counter[tuple[str, int]] = Counter()
        self._new = asyncio.Event()
        self.closing = False
        # awaited with the offset of a getUpdates that would confirm updates, before it does: False, and the
        # request is as if it never reached Telegram (a bot killed meanwhile), nothing confirmed
        self.before_confirm: Callable[[int], Awaitable[bool]] | None = None

    def push(self, update: dict[str, Any]) -> None:
        self.waiting.append(update)
        self._new.set()

    def close(self) -> None:
        self.closing = True
        self._new.set()  # wake a long poll still waiting

    def confirm(self, offset: int) -> None:
        """What getUpdates' ``offset`` confirms (a negative one: all but the last ``-offset``)."""
        if offset > 0:
            self.waiting = [u for u in self.waiting if u["update_id"] >= offset]
            self.confirmed = max(self.confirmed, offset - 1)
        elif offset < 0:
            forgotten, self.waiting = self.waiting[:offset], self.waiting[offset:]
            if forgotten:
                self.confirmed = max(self.confirmed, forgotten[-1]["update_id"])

    async def get(self, params: dict[str, Any], max_wait: float) -> list[dict[str, Any]]:
        """getUpdates: confirm by the offset, then the unconfirmed updates (waiting up to ``timeout``
        seconds, at most ``max_wait``, for one to come)."""
        offset = int(params.get("offset") or 0)
        confirms = offset > 0 and any(u["update_id"] < offset for u in self.waiting)
        if confirms and self.before_confirm is not None and not await self.before_confirm(offset):
            return []
        self.confirm(offset)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        deadline = time.monotonic() + min(float(params.get("timeout") or 0), max_wait)
        while True:
            remaining = deadline - time.monotonic()
            if self.waiting or remaining <= 0 or self.closing:
                batch = self.waiting[:limit]
                self.delivered.update(u["update_id"] for u in batch)
                return batch
            self._new.clear()
            try:
                await asyncio.wait_for(self._new.wait(), remaining)
            except TimeoutError:
                pass

    def answered(self, params: dict[str, Any]) -> None:
        """A message the bot sent: counted as an answer to the message its ``reply_parameters`` name."""
        reply = params.get("reply_parameters")
        if isinstance(reply, dict) and reply.get("message_id"):
            self.answers[(str(reply.get("chat_id") or params.get("chat_id")), int(reply["message_id"]))] += 1
