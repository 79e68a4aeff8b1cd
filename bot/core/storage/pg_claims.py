"""The PostgreSQL store's connections of its own beside the pool (``bot/core/storage/postgres.py``): the
claims of due work (session advisory locks, ``claim`` and ``claim_many``) and the listener that hears the
other processes' cache changes, each opened again when the server closed it (a restart of PostgreSQL:
issue 46 §3), so that neither the scheduler's claims nor the caches' news stop for good after one.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, AsyncIterator, Iterable

import asyncpg

from bot.core.storage.outage import fresh
from bot.core.storage.pg_lanes import CACHE_CHANNEL

log = logging.getLogger(__name__)

LISTENER_WAITS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)  # seconds between tries to listen again, the last repeated


def lock_number(key: str) -> int:
    """A key as the 64-bit number PostgreSQL's advisory locks take."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True)


class Claims:
    """The claims and the listener of ``PostgresDatabase`` (mixed into it)."""

    _url: str
    _claims: list[tuple[asyncpg.Connection, asyncio.Lock]]
    _held: set[str]
    _listener: asyncpg.Connection | None
    _listening: asyncio.Task[None] | None

    if TYPE_CHECKING:

        def _forget(self, sql: str | None = None) -> None: ...

    # ------------------------------------------------------------------ the listener
    def _heard(self, *_: Any) -> None:
        """Another process (or this one) committed a change to a cached table."""
        self._forget()

    async def _listen(self) -> None:
        self._listener = await asyncpg.connect(self._url)
        await self._listener.add_listener(CACHE_CHANNEL, self._heard)
        self._listener.add_termination_listener(self._listener_lost)

    def _listener_lost(self, conn: asyncpg.Connection) -> None:
        """The server closed the listener's connection: what other processes change meanwhile goes
        unheard, so the caches are emptied, and again once it listens anew."""
        if conn is not self._listener or self._listening is not None:
            return  # closed by ``close``, or already being opened again
        self._forget()
        self._listening = asyncio.get_running_loop().create_task(self._listen_again(), name="pg-listen-again")

    async def _listen_again(self) -> None:
        tries = 0
        while True:
            await asyncio.sleep(LISTENER_WAITS[min(tries, len(LISTENER_WAITS) - 1)])
            tries += 1
            try:
                await self._listen()
            except Exception as exc:  # still down: try again later
                if tries == 1:
                    log.warning("the database's cache listener is gone; listening again when it answers: %s", exc)
                continue
            self._listening = None
            self._forget()
            log.info("event=db_listening_again tries=%d", tries)
            return

    async def _close_listener(self) -> None:
        listening, self._listening = self._listening, None
        if listening is not None:
            listening.cancel()
        listener, self._listener = self._listener, None
        if listener is not None:
            await listener.close()

    # ------------------------------------------------------------------ the claims
    @asynccontextmanager
    async def claim(self, name: str) -> AsyncIterator[bool]:
        """``async with db.claim("due:keizer") as mine:`` True for the one process that holds ``name`` now
        (taken without waiting; let go at the end, or when the process's connection drops). The claims
        are session locks on connections of their own, so a claim held while its work runs takes no
        connection from the pool that work needs."""
        if name in self._held:  # session locks nest in one session: within the process, say no here
            yield False
            return
        number = lock_number(name)
        place = self._claim_place(number)
        conn, lock = self._claims[place]
        async with lock:
            conn = await self._fresh_claim(place)
            mine = bool(await conn.fetchval("SELECT pg_try_advisory_lock($1)", number))
        if not mine:
            yield False
            return
        self._held.add(name)
        try:
            yield True
        finally:
            self._held.discard(name)
            async with lock:
                if not conn.is_closed():  # else the server let go of it with the connection
                    await conn.execute("SELECT pg_advisory_unlock($1)", number)

    def _claim_place(self, number: int) -> int:
        """A claim connection that is free, else the one ``number`` falls on (its claims and their release
        go on the connection that took them)."""
        return next((i for i, (_, k) in enumerate(self._claims) if not k.locked()), number % len(self._claims))

    async def _fresh_claim(self, place: int) -> asyncpg.Connection:
        """The claim connection at ``place`` (its lock held), opened again if the server closed it."""
        conn, lock = self._claims[place]
        conn = await fresh(conn, self._url)
        self._claims[place] = (conn, lock)
        return conn

    @asynccontextmanager
    async def claim_many(self, names: Iterable[str]) -> AsyncIterator[set[str]]:
        """As ``claim`` for several names in one round trip each way: ``async with db.claim_many(names) as
        mine:`` the names this process holds now (each taken without waiting), let go together at the end.
        The due work of a publication minute claims its clubs' outboxes and rounds so, not one by one."""
        numbers = {lock_number(name): name for name in dict.fromkeys(names) if name not in self._held}
        if not numbers:
            yield set()
            return
        place = self._claim_place(next(iter(numbers)))
        conn, lock = self._claims[place]
        async with lock:
            conn = await self._fresh_claim(place)
            rows = await conn.fetch("SELECT k FROM unnest($1::bigint[]) AS k WHERE pg_try_advisory_lock(k)", list(numbers))
        got = [int(r[0]) for r in rows]
        mine = {numbers[n] for n in got}
        self._held |= mine
        try:
            yield mine
        finally:
            self._held -= mine
            if got and not conn.is_closed():
                async with lock:
                    await conn.execute("SELECT pg_advisory_unlock(k) FROM unnest($1::bigint[]) AS k", got)
