"""Telegram's updates kept in the database until they are answered (issue 46 §2; table ``telegram_inbox``,
migration 0076).

Telegram sends an update again until the bot's next getUpdates confirms it (``offset``), and never after;
python-telegram-bot's polling asks again, confirming what it fetched, as soon as it has put the updates in
the application's queue, long before they are handled. So the queue is ``Inbox``: it writes each update
to the database (committed) before the polling may go on, and keeps back one it has already (Telegram
sends an unconfirmed update again after a restart). ``InboxProcessor`` handles the updates one at a time,
in order, and records each as answered once its handler is done and its replies went out (one waiting
behind a group's rate limit: when the wait is over). At start-up the updates not answered are handled
again first, in order (``Inbox.open``).

A command that changes something keeps its reply in its own transaction (``Inbox.handle``, through
``Core.handle``'s ``done``): handled again, it is not run again, its kept reply is sent. So every command
is run once, and answered; a reply is sent twice only when the bot dies between Telegram taking the reply
and the record that it went (as an announcement's post: docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, Awaitable

from telegram import Bot, Update
from telegram.error import NetworkError
from telegram.ext import BaseUpdateProcessor

from bot.core.commands.context import Actor
from bot.core.commands.dispatch import Core
from bot.core.commands.replies import Reply, reply_from_json, reply_json
from bot.core.running.clock import Clock
from bot.core.storage.database import iso
from bot.core.storage.outage import connection_lost
from bot.core.storage.store import Store

log = logging.getLogger(__name__)

KEPT_ANSWERED = timedelta(days=2)  # Telegram keeps an unconfirmed update 24 hours: none older comes again
PURGE_EVERY = 3600.0  # seconds between forgetting what was answered long ago (and before any update after that)


class Inbox(asyncio.Queue[object]):
    """The application's update queue (``ApplicationBuilder.update_queue``), in the database first."""

    def __init__(self, store: Store, clock: Clock) -> None:
        super().__init__()
        self.store, self.clock = store, clock
        self.bot_id = 0  # the bot's id, known once it has logged in (``open``)
        self.current: int | None = None  # the update being handled (one at a time: ``InboxProcessor``)
        self.handler: asyncio.Task[Any] | None = None  # the task handling it
        self.recorded: int | None = None  # the last update recorded as answered
        self.paced: Counter[int] = Counter()  # update id -> its replies still waiting for a group's rate limit
        self._purged: float | None = None  # when (monotonic) answered updates were last forgotten

    async def open(self, bot: Bot) -> int:
        """Forget what was answered long ago, and queue the updates not answered, in order; how many."""
        self.bot_id = bot.id
        await self._forget_old()
        rows = await self.store.fetch_all(
            "SELECT update_id, body FROM telegram_inbox WHERE bot_id = ? AND answered_at IS NULL ORDER BY update_id",
            (self.bot_id,),
        )
        for row in rows:
            await super().put(Update.de_json(json.loads(row["body"]), bot))
        if rows:
            log.info("handling %d Telegram updates received before the restart and not answered", len(rows))
        return len(rows)

    async def put(self, item: object) -> None:
        """Keep an update (committed) before the polling goes on and confirms it to Telegram; one kept
        already is not queued again. A failure to keep it is a ``NetworkError`` to the polling, which tries
        again later without confirming anything; but with the database out of reach (PostgreSQL stopped,
        issue 46 §3) the update is handled at once, unkept: its member is told to try again in a minute
        (``Core.handle``), and nothing was changed."""
        if isinstance(item, Update):
            try:
                await self._forget_old()
                kept = bool(await self.store.returning(
                    "INSERT INTO telegram_inbox (bot_id, update_id, body, received_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (bot_id, update_id) DO NOTHING RETURNING update_id",
                    (self.bot_id, item.update_id, item.to_json(), iso(self.clock.now())),
                ))
            except Exception as err:
                if not connection_lost(err):
                    log.exception("keeping Telegram update %s failed", item.update_id)
                    raise NetworkError(f"keeping update {item.update_id} failed: {err}") from err
                log.warning("event=database_down Telegram update %s not kept; answered 'try again'", item.update_id)
                kept = True
            if not kept:
                return
        await super().put(item)

    async def _forget_old(self) -> None:
        """Forget the updates answered more than ``KEPT_ANSWERED`` ago, at most once every ``PURGE_EVERY``
        seconds: none of them can come again, and after a week without updates Telegram may number the next
        one at random (so the purge comes before that one is kept)."""
        now = time.monotonic()
        if self._purged is not None and now - self._purged < PURGE_EVERY:
            return
        old = iso(self.clock.now() - KEPT_ANSWERED)
        await self.store.execute("DELETE FROM telegram_inbox WHERE bot_id = ? AND answered_at < ?", (self.bot_id, old))
        self._purged = now

    async def handle(self, core: Core, actor: Actor, text: str, attachment: bytes | None = None) -> Reply:
        """``Core.handle`` once per update: a command that changed something keeps its reply with its
        change; handled again after a crash, that reply is what it answers."""
        update_id = self.handling()
        if update_id is None:
            return await core.handle(actor, text, attachment=attachment)
        key = (self.bot_id, update_id)
        try:
            row = await self.store.fetch_one("SELECT reply FROM telegram_inbox WHERE bot_id = ? AND update_id = ?", key)
        except Exception as err:
            if not connection_lost(err):
                raise
            row = None  # the database is out of reach: the command answers so (Core.handle), nothing kept to send
        if row is not None and row["reply"] is not None:
            log.info("update %s was handled before the restart; its reply is sent again", update_id)
            return reply_from_json(row["reply"])

        async def keep(reply: Reply) -> None:
            await self.store.write(
                "UPDATE telegram_inbox SET reply = ? WHERE bot_id = ? AND update_id = ?", (reply_json(reply), *key)
            )

        return await core.handle(actor, text, attachment=attachment, done=keep)

    @contextmanager
    def handling_update(self, update_id: int) -> Iterator[None]:
        """While the calling task handles the update."""
        self.current, self.handler = update_id, asyncio.current_task()
        try:
            yield
        finally:
            self.current = self.handler = None

    def handling(self) -> int | None:
        """The update the calling task is handling (None in any other task: the alarm's, a chat's queue)."""
        return self.current if self.handler is not None and asyncio.current_task() is self.handler else None

    async def replied(self) -> None:
        """A reply to the update being handled went out: it is answered now, before the work after the
        command (the alarm's), so that a kill in that work does not send the reply again."""
        update_id = self.handling()
        if update_id is not None:
            await self.answered(update_id)

    async def answered(self, update_id: int) -> None:
        """Every reply to the update went out (or none was due): it is done, unless replies of it still
        wait for a group's rate limit (``sent_later`` then)."""
        if self.paced[update_id] or self.recorded == update_id:
            return
        self.paced.pop(update_id, None)
        self.recorded = update_id
        try:
            await self.store.execute_alone(
                "UPDATE telegram_inbox SET answered_at = ?, body = NULL, reply = NULL WHERE bot_id = ? AND update_id = ?",
                (iso(self.clock.now()), self.bot_id, update_id),
            )
        except Exception as err:  # it is handled again at the next start: a repeated answer, never a lost one
            if not connection_lost(err):
                log.exception("recording Telegram update %s as answered failed", update_id)
            else:
                log.warning("event=database_down Telegram update %s not recorded as answered", update_id)

    def waiting(self) -> int | None:
        """A reply of the update being handled is put in a chat's queue for its rate limit: its update
        is done only once the reply is out. The update, if any."""
        update_id = self.handling()
        if update_id is not None:
            self.paced[update_id] += 1
        return update_id

    async def sent_later(self, update_id: int | None) -> None:
        """A reply that waited for a group's rate limit went out (or failed for good)."""
        if update_id is None:
            return
        self.paced[update_id] -= 1
        if self.paced[update_id] <= 0 and self.current != update_id:
            await self.answered(update_id)


class InboxProcessor(BaseUpdateProcessor):
    """One update at a time, in order; each recorded as answered when its handler is done."""

    def __init__(self, inbox: Inbox) -> None:
        super().__init__(max_concurrent_updates=1)
        self.inbox = inbox

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if not isinstance(update, Update):
            await coroutine
            return
        with self.inbox.handling_update(update.update_id):
            await coroutine  # the application's handlers; their errors are logged by its error handler
        await self.inbox.answered(update.update_id)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to close."""
