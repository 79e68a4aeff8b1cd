"""The database connection every store works through: one aiosqlite connection per process, WAL journal,
foreign keys on, a busy timeout, and one writer path.

Every change runs inside ``async with db.transaction():`` (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any
error), serialised by an asyncio lock, so a command either changes everything it meant to or nothing.
BEGIN IMMEDIATE is issued by the sqlite3 module right before the first INSERT, UPDATE or DELETE, in the
same trip to the database thread; a transaction that writes nothing costs no BEGIN, COMMIT or ROLLBACK.

Reads have a path of their own: inside ``async with db.reading():`` (a command that only reads: /stand,
/indeling, /help) every query goes to a second, read-only connection on its own thread. In WAL mode it
sees the last committed state, never half a change, and it never waits for the writer: a burst of reads
in one club does not hold up another club's sign-off.

The systems' stores (``bot/keizer/store.py``, ``bot/nk/store.py``, ...) hold their own SQL and run it
through ``fetch_one``, ``fetch_all``, ``write``, ``execute``, ``execute_many`` and ``returning``.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
import sqlite3
from contextlib import asynccontextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, AsyncIterator, Iterable

import aiosqlite

from bot.core.checkpoints import SAFETY_NET_PAGES, Checkpointer
from bot.core.migrations import MIGRATIONS_DIR, applied_migrations, migrate, schema_version

# The statements before which the sqlite3 module opens the transaction (isolation_level "IMMEDIATE").
_OPENS_TRANSACTION = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)

Row = sqlite3.Row


def iso(moment: datetime) -> str:
    """UTC ISO 8601 text: every stored moment has this one form, so text order is time order."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime given to the store")
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def from_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


class Database:
    """Async access to the club database. Open with ``await Store.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._reader: aiosqlite.Connection | None = None  # the read path's connection (a file only)
        self._reading: contextvars.ContextVar[bool] = contextvars.ContextVar(f"store_read_{id(self)}", default=False)
        self._cache_touched = False  # a write of this transaction emptied a cache: empty it again at COMMIT
        self._write_lock = asyncio.Lock()
        # Counts the emptyings of the caches a subclass keeps (``_forget``). A row read for a cache is kept
        # only when the count has not moved while the read was on its way: a read queued before a write
        # (or before a rollback) returns the row as it was, after the write has emptied the cache, and must
        # not put the old row back.
        self._forgotten = 0
        self._checkpointer: Checkpointer | None = None
        # Which task holds the open transaction: a per-task flag, so another task never joins it by accident.
        self._in_transaction: contextvars.ContextVar[bool] = contextvars.ContextVar(f"store_tx_{id(self)}", default=False)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(cls, path: str | Path, migrations: Path = MIGRATIONS_DIR, checkpoint_every: float = 1.0) -> Any:
        """Open (and migrate) the database; a file gets WAL checkpoints every ``checkpoint_every``
        seconds on a thread of its own (``bot/core/checkpoints.py``), not in a command's COMMIT."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        await conn.execute("PRAGMA synchronous = NORMAL")
        db = cls(conn)
        try:
            await migrate(conn, migrations)
        except BaseException:
            await conn.close()
            raise
        # From here on the sqlite3 module itself issues BEGIN IMMEDIATE right before the first INSERT,
        # UPDATE or DELETE when no transaction is open, in the same trip (see transaction()).
        conn.isolation_level = "IMMEDIATE"
        if str(path) != ":memory:":
            await conn.execute(f"PRAGMA wal_autocheckpoint = {SAFETY_NET_PAGES}")
            db._checkpointer = Checkpointer(Path(path), checkpoint_every)
            db._reader = await _open_reader(Path(path))
        return db

    async def close(self) -> None:
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.stop)
        if self._reader is not None:
            await self._reader.close()
        await self._conn.close()

    async def schema_version(self) -> int:
        return await schema_version(self._conn)

    async def applied_migrations(self) -> list[str]:
        return await applied_migrations(self._conn)

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> int:
        return await migrate(self._conn, directory)

    async def integrity_check(self) -> str:
        row = await self.fetch_one("PRAGMA integrity_check")
        return str(row[0]) if row else ""

    # ------------------------------------------------------------------ transactions
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One write transaction; nested use joins the outer one.

        The asyncio lock makes this task the only writer of the process until the end. BEGIN IMMEDIATE
        is not a trip of its own: the sqlite3 module issues it with the first INSERT, UPDATE or DELETE
        (``isolation_level`` "IMMEDIATE", set in ``open``). Reads before that first write see the committed
        database, which nobody can change meanwhile: this task holds the lock, and the bot is the only
        process that writes the file (``clubbot restore`` runs while the bot is stopped; a backup only
        reads). A transaction that wrote nothing (a refusal, /stand) has nothing to commit or roll back."""
        if self._in_transaction.get():
            yield
            return
        async with self._write_lock:
            token = self._in_transaction.set(True)
            try:
                yield
            except BaseException as exc:
                await self._roll_back(cancelled=not isinstance(exc, Exception))
                raise
            finally:
                self._in_transaction.reset(token)
            if self._conn.in_transaction:
                await self._conn.execute("COMMIT")
            if self._cache_touched:  # a read on the read path may have refilled a cache before the COMMIT
                self._cache_touched = False
                self._forget()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[None]:
        """Run what is inside on the read path: queries go to the read-only connection (where there is
        one) and do not wait for the writer; a write in here is a bug and raises."""
        token = self._reading.set(True)
        try:
            yield
        finally:
            self._reading.reset(token)

    def _connection_for_reads(self) -> aiosqlite.Connection:
        if self._reading.get() and self._reader is not None and not self._in_transaction.get():
            return self._reader
        return self._conn

    def _check_not_reading(self) -> None:
        if self._reading.get():
            raise RuntimeError("a write on the read path (a command marked reads_only wrote)")

    async def _roll_back(self, cancelled: bool) -> None:
        """Undo the open transaction, if any, and forget what the caches hold. A cancelled task may have
        left a write on its way to the database thread, which opens the transaction when it runs: then
        ROLLBACK is sent all the same (the thread runs it after that write) and "no transaction" is fine."""
        self._forget()
        if self._conn.in_transaction or cancelled:
            try:
                await self._conn.execute("ROLLBACK")
            except sqlite3.OperationalError:
                if self._conn.in_transaction:
                    raise
        self._forget()

    def _forget(self, sql: str | None = None) -> None:
        """Empty what a subclass caches (all of it, or what ``sql`` may change)."""
        self._forgotten += 1

    # ------------------------------------------------------------------ running SQL
    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        conn = self._connection_for_reads()
        rows = await conn.execute_fetchall(sql, tuple(params))  # one trip to the database thread
        return next(iter(rows), None)

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._connection_for_reads().execute_fetchall(sql, tuple(params)))

    async def write(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one change; outside a transaction it gets a transaction of its own. Returns lastrowid."""
        _check_write(sql)
        self._check_not_reading()
        async with self.transaction():
            self._forget(sql)
            row = await self._conn.execute_insert(sql, tuple(params))  # one trip to the database thread
            return int(row[0]) if row and row[0] else 0

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one change and return how many rows it changed."""
        _check_write(sql)
        self._check_not_reading()
        async with self.transaction():
            self._forget(sql)
            async with self._conn.execute(sql, tuple(params)) as cur:
                return int(cur.rowcount)

    async def execute_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one change for each of ``rows``."""
        _check_write(sql)
        self._check_not_reading()
        async with self.transaction():
            self._forget(sql)
            await self._conn.executemany(sql, [tuple(r) for r in rows])

    async def returning(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Run one change with a RETURNING clause in one trip; the rows it returned."""
        _check_write(sql)
        self._check_not_reading()
        async with self.transaction():
            self._forget(sql)
            return list(await self._conn.execute_fetchall(sql, tuple(params)))


async def _open_reader(path: Path) -> aiosqlite.Connection:
    """The read path's connection: same file, read-only, autocommit (each query sees the latest commit)."""
    reader = await aiosqlite.connect(str(path), isolation_level=None)
    reader.row_factory = sqlite3.Row
    await reader.execute("PRAGMA query_only = ON")
    await reader.execute("PRAGMA busy_timeout = 5000")
    return reader


def _check_write(sql: str) -> None:
    if not _OPENS_TRANSACTION.match(sql):  # anything else would run outside the transaction
        raise ValueError(f"a store write must start with INSERT, UPDATE or DELETE: {sql[:40]!r}")
