"""The database connection every store works through: one writer connection per process, WAL journal,
foreign keys on, and one writer path with group commit.

Every change runs inside ``async with db.transaction():`` so a command either changes everything it
meant to or nothing. Commands take turns on the writer (an asyncio lock) and each command's statements
run straight on the event loop's thread: a statement of the bot's is a matter of microseconds, far less
than a trip to a database thread would cost. What costs is the COMMIT (SQLite writes the log), so it is
shared and kept off the event loop:

- A command's first write opens the transaction (BEGIN IMMEDIATE) if none is open, then a savepoint of
  its own. If the command fails (a refusal, a bug, a cancellation) it rolls back to that savepoint: only
  its own writes are undone. A command that writes nothing opens nothing.
- When a command is done and a transaction is open, a flush is queued behind the commands already
  waiting for the writer (the lock is first come, first served). They run and join the same transaction;
  then the flush COMMITs them all at once, on a thread of its own, and each command returns only after
  that COMMIT: no reply announces a change that is not on disk. If the COMMIT fails, every command of
  the group gets the error and none of their changes remain.

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
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterable, TypeVar

import aiosqlite

from bot.core.storage.checkpoints import SAFETY_NET_PAGES, Checkpointer
from bot.core.storage.database_lock import DatabaseLock
from bot.core.storage.migrations import MIGRATIONS_DIR, applied_migrations, migrate, schema_version

# The statements a store may run as a write: anything else would not open the transaction.
_OPENS_TRANSACTION = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)
BUSY_WAIT_SECONDS = 5.0  # how long a write waits for another process's write lock before it fails

Row = sqlite3.Row
T = TypeVar("T")


def iso(moment: datetime) -> str:
    """UTC ISO 8601 text: every stored moment has this one form, so text order is time order."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime given to the store")
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def from_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


IN_LIST_SIZE = 5000  # values in one IN (...) list (``fetch_all_in``)


class ReadPath:
    """``reading()``, the same on both databases (this file's and ``bot/core/storage/postgres.py``'s): a flag, per
    task, that the database's queries look at."""

    _reading: contextvars.ContextVar[bool]
    # COMMITs this process has made (a count that only grows): what a cache of this process keeps may be
    # kept while it has not moved (the website's pages: ``bot/web/freshness.py``); it moves once a commit
    # is done, before the commands that wrote are told, so what they changed is seen from the new count on.
    commits = 0

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[None]:
        """Run what is inside on the read path: queries go to the read-only connection (SQLite, where
        there is one) or the pool (PostgreSQL) and do not wait for a writer; a write in here is a bug
        and raises."""
        token = self._reading.set(True)
        try:
            yield
        finally:
            self._reading.reset(token)

    async def fetch_all_in(self, sql: str, values: list[Any]) -> list[Any]:
        """The rows of ``sql`` whose ``IN ({marks})`` takes ``values`` (placeholders and nothing else), read in
        parts of ``IN_LIST_SIZE`` values: well within both databases' limit on parameters."""
        rows: list[Any] = []
        for start in range(0, len(values), IN_LIST_SIZE):
            part = values[start : start + IN_LIST_SIZE]
            rows += await self.fetch_all(sql.format(marks=",".join("?" * len(part))), part)  # type: ignore[attr-defined]  # each database's
        return rows


class Database(ReadPath):
    """Async access to the club database. Open with ``await open_store(path)``."""

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection, thread: ThreadPoolExecutor) -> None:
        self._conn = conn
        self._thread = thread  # the writer's own thread: opening, migrating, COMMIT, closing
        self._reader: aiosqlite.Connection | None = None  # the read path's connection (a file only)
        self._reading: contextvars.ContextVar[bool] = contextvars.ContextVar(f"store_read_{id(self)}", default=False)
        self._cache_touched = False  # a write of the open transaction emptied a cache: empty it again at COMMIT
        self._write_lock = asyncio.Lock()
        self._savepoint = False  # the command holding the writer has a savepoint open
        # The commands of the open transaction waiting for its COMMIT (a future each, so that one that is
        # cancelled stops only its own wait); None while no transaction is open.
        self._group: list[asyncio.Future[None]] | None = None
        self._group_commands = 0  # commands whose changes the open transaction holds
        self._flush: asyncio.Task[None] | None = None
        self._committing = False  # the writer's thread is running a COMMIT: the connection is its
        # Counts the emptyings of the caches a subclass keeps (``_forget``). A row read for a cache on the
        # read path is kept only when the count has not moved while the read was on its way: a read that
        # started before a write (or a rollback) returns the row as it was and must not put it back.
        self._forgotten = 0
        self._checkpointer: Checkpointer | None = None
        self._lock: DatabaseLock | None = None  # tells `clubbot restore` the database is open
        # Which task holds the writer: a per-task flag, so another task never joins its command by accident.
        self._in_transaction: contextvars.ContextVar[bool] = contextvars.ContextVar(f"store_tx_{id(self)}", default=False)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(cls, path: str | Path, migrations: Path = MIGRATIONS_DIR, checkpoint_every: float = 1.0) -> Any:
        """Open (and migrate) the database; a file gets WAL checkpoints every ``checkpoint_every``
        seconds on a thread of its own (``bot/core/storage/checkpoints.py``), not in a command's COMMIT."""
        lock = None
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            lock = DatabaseLock(Path(path), exclusive=False)
        thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        loop = asyncio.get_running_loop()
        try:
            conn = await loop.run_in_executor(thread, _open_writer, str(path), migrations)
        except BaseException:
            thread.shutdown(wait=False)
            if lock is not None:
                lock.release()
            raise
        db = cls(conn, thread)
        db._lock = lock
        if str(path) != ":memory:":
            db._checkpointer = Checkpointer(Path(path), checkpoint_every)
            db._reader = await _open_reader(Path(path))
        return db

    async def close(self) -> None:
        await self._flushed()
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.stop)
        if self._reader is not None:
            await self._reader.close()
        async with self._write_lock:
            await self._on_thread(self._conn.close)
        self._thread.shutdown(wait=True)
        if self._lock is not None:
            self._lock.release()

    async def schema_version(self) -> int:
        await self._flushed()
        return schema_version(self._conn)

    async def applied_migrations(self) -> list[str]:
        await self._flushed()
        return applied_migrations(self._conn)

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> int:
        await self._flushed()
        async with self._write_lock:
            return await self._on_thread(migrate, self._conn, directory)

    async def integrity_check(self) -> str:
        await self._flushed()
        async with self._write_lock:
            rows = await self._on_thread(lambda: self._conn.execute("PRAGMA integrity_check").fetchall())
        return str(rows[0][0]) if rows else ""

    # ------------------------------------------------------------------ transactions
    def transaction(self, key: str | None = None) -> _Transaction:
        """``async with db.transaction():`` one command's changes, all or nothing; nested use joins the
        outer one. ``key`` (a club) matters on PostgreSQL (``bot/core/storage/postgres.py``); here every command
        takes its turn on the one writer anyway.

        Returns when the changes are committed (see the module's docstring for the group commit). Reads
        before the command's first write see the database as the commands before it left it; nobody else
        changes it meanwhile: this task holds the writer, and the bot is the only process that writes the
        file (``clubbot restore`` runs while the bot is stopped; a backup only reads)."""
        return _Transaction(self)

    async def _enter_command(self) -> contextvars.Token[bool]:
        await self._write_lock.acquire()
        return self._in_transaction.set(True)

    async def _leave_command(self, token: contextvars.Token[bool], failed: bool) -> None:
        try:
            self._in_transaction.reset(token)
            if failed:
                self._undo_command()
                return
            if self._savepoint:
                self._savepoint = False
                self._execute("RELEASE command")
                self._group_commands += 1
            waiter = None
            if self._group is not None and self._conn.in_transaction:
                waiter = asyncio.get_running_loop().create_future()
                self._group.append(waiter)
                self._queue_flush()
        finally:
            self._write_lock.release()
        if waiter is not None:
            await waiter

    @asynccontextmanager
    async def claim(self, name: str) -> AsyncIterator[bool]:
        """Due work that only one process may do (``bot/core/storage/postgres.py``): one process has the file."""
        yield True

    @asynccontextmanager
    async def claim_many(self, names: Iterable[str]) -> AsyncIterator[set[str]]:
        """As ``claim`` for several names at once: the ones this process holds (all: one process has the
        file)."""
        yield set(names)

    async def data_version(self) -> int:
        """A number that moves when another connection commits to the file (another process, or this
        process's writer as seen by the read path): SQLite's ``PRAGMA data_version`` on the read-only
        connection. A database in memory has no other connection: 0."""
        if self._reader is None:
            return 0
        rows = await self._reader.execute_fetchall("PRAGMA data_version")
        return int(next(iter(rows))[0])

    async def foreign_keys(self) -> list[tuple[str, str, str]]:
        """Every foreign key as (table, column, the table it refers to)."""
        found = []
        for table in await self.tables():
            for key in await self.fetch_all(f'PRAGMA foreign_key_list("{table}")'):
                found.append((table, key["from"], key["table"]))
        return found

    async def tables(self) -> list[str]:
        rows = await self.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return [r[0] for r in rows]

    async def continue_ids(self) -> None:
        """SQLite gives the next row the highest id plus one by itself."""

    async def move_references(self, table: str, column: str, source: int, target: int) -> None:
        """Each row of ``source`` becomes ``target``'s unless ``target`` has that row already (a unique
        key): then it stays as it is and the caller deletes it."""
        await self.write(f'UPDATE OR IGNORE "{table}" SET "{column}" = ? WHERE "{column}" = ?', (target, source))

    async def _before_write(self) -> None:
        """Open the transaction (if this is the group's first write) and this command's savepoint."""
        if not self._conn.in_transaction:
            await self._begin()
            self._group = []
        if not self._savepoint:
            self._execute("SAVEPOINT command")
            self._savepoint = True

    async def _begin(self) -> None:
        """BEGIN IMMEDIATE; if another process holds the write lock, wait for it without blocking the
        event loop (the writer's own busy timeout is 0), up to ``BUSY_WAIT_SECONDS``."""
        deadline = time.monotonic() + BUSY_WAIT_SECONDS
        pause = 0.001
        while True:
            try:
                self._execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if time.monotonic() > deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.05)

    def _undo_command(self) -> None:
        """Undo what the failing command wrote (its savepoint) and forget what the caches hold; a command
        that wrote nothing (most refusals) has nothing to undo."""
        if not self._savepoint:
            return
        self._forget()
        if self._conn.in_transaction:
            self._execute("ROLLBACK TO command")
            self._execute("RELEASE command")
        self._savepoint = False
        if self._conn.in_transaction and self._group_commands == 0:  # nothing else to keep: end it now
            self._execute("ROLLBACK")
            settle(self._group, None)
            self._group = None
        if self._conn.in_transaction:
            self._queue_flush()
        self._forget()

    def _queue_flush(self) -> None:
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._commit_group())

    async def _commit_group(self) -> None:
        """Behind the commands waiting for the writer: COMMIT what they and the ones before did."""
        async with self._write_lock:
            await self._commit_open()

    async def _commit_open(self) -> BaseException | None:
        """COMMIT the open transaction (the writer is held); tell its commands how it went."""
        group, self._group = self._group, None
        self._group_commands = 0
        error: BaseException | None = None
        if self._conn.in_transaction:
            self._committing = True
            job = asyncio.get_running_loop().run_in_executor(self._thread, self._conn.execute, "COMMIT")
            try:
                await asyncio.shield(job)
            except asyncio.CancelledError as exc:  # the COMMIT runs on all the same: see it through
                error = exc
                await asyncio.wait([job])
                if not job.cancelled() and job.exception() is None:
                    error = None
            except BaseException as exc:
                error = exc
            self._committing = False
            self.commits += 1
            if error is not None and self._conn.in_transaction:
                self._execute("ROLLBACK")
        if error is not None or self._cache_touched:
            self._cache_touched = False
            self._forget()
        settle(group, error)
        return error

    async def _flushed(self) -> None:
        """Wait until what has been written is committed."""
        while self._flush is not None and not self._flush.done():
            await asyncio.shield(self._flush)

    async def _on_thread(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    def _check_not_reading(self) -> None:
        if self._reading.get():
            raise RuntimeError("a write on the read path (a command marked reads_only wrote)")

    def _forget(self, sql: str | None = None) -> None:
        """Empty what a subclass caches (all of it, or what ``sql`` may change)."""
        self._forgotten += 1

    def _execute(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
        return self._conn.execute(sql, tuple(params))

    # ------------------------------------------------------------------ running SQL
    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        if self._on_read_path():
            rows = await self._reader.execute_fetchall(sql, tuple(params))  # type: ignore[union-attr]  # read path: a reader
            return next(iter(rows), None)
        await self._writer_free()
        row: sqlite3.Row | None = self._execute(sql, params).fetchone()
        return row

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        if self._on_read_path():
            return list(await self._reader.execute_fetchall(sql, tuple(params)))  # type: ignore[union-attr]  # as above
        await self._writer_free()
        return self._execute(sql, params).fetchall()

    async def _writer_free(self) -> None:
        """A read on the writer outside a command waits while the writer's thread commits."""
        if self._committing and not self._in_transaction.get():
            await self._flushed()

    def _on_read_path(self) -> bool:
        return self._reading.get() and self._reader is not None and not self._in_transaction.get()

    async def write(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one change; outside a transaction it gets a transaction of its own. Returns lastrowid."""
        cursor = await self._change(sql, lambda: self._execute(sql, params))
        return int(cursor.lastrowid or 0)

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one change and return how many rows it changed."""
        cursor = await self._change(sql, lambda: self._execute(sql, params))
        return int(cursor.rowcount)

    async def write_later(self, sql: str, params: Iterable[Any] = ()) -> None:
        """A change whose outcome the caller does not need (no id, no count). On PostgreSQL it goes with
        the command's next round trip (``bot/core/storage/postgres.py``); here it runs now."""
        await self.write(sql, params)

    async def execute_alone(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one change and COMMIT it before returning, without waiting for other commands to gather into
        a group commit (the outbox's "sent": a kill between a post and its record posts it again). Changes
        of commands already done and waiting for their COMMIT go with it. Inside a command: part of it."""
        if self._in_transaction.get():
            return await self.execute(sql, params)
        check_write(sql)
        self._check_not_reading()
        async with self._write_lock:
            if not self._conn.in_transaction:
                await self._begin()
                self._group = []
            self._forget(sql)
            try:
                count = int(self._execute(sql, params).rowcount)
            finally:
                error = await self._commit_open()
        if error is not None:
            raise error
        return count

    async def execute_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one change for each of ``rows``."""
        await self._change(sql, lambda: self._conn.executemany(sql, [tuple(r) for r in rows]))

    async def returning(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Run one change with a RETURNING clause; the rows it returned."""
        rows: list[sqlite3.Row] = await self._change(sql, lambda: self._execute(sql, params).fetchall())
        return rows

    async def _change(self, sql: str, run: Callable[[], T]) -> T:
        check_write(sql)
        self._check_not_reading()
        if not self._in_transaction.get():
            async with self.transaction():
                return await self._change(sql, run)
        await self._before_write()
        self._forget(sql)
        return run()


def settle(waiters: list[asyncio.Future[None]] | None, error: BaseException | None) -> None:
    """Tell the commands waiting for a COMMIT how it went (a cancelled one is no longer waiting)."""
    for waiter in waiters or ():
        if waiter.done():
            continue
        if error is None:
            waiter.set_result(None)
        else:
            waiter.set_exception(error if isinstance(error, Exception) else RuntimeError("the commit was cancelled"))


class _Transaction:
    """What ``Database.transaction()`` returns (a class, not a generator: it is on every command's path)."""

    __slots__ = ("db", "token")

    def __init__(self, db: Database) -> None:
        self.db = db
        self.token: contextvars.Token[bool] | None = None

    async def __aenter__(self) -> None:
        if not self.db._in_transaction.get():
            self.token = await self.db._enter_command()

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if self.token is not None:
            await self.db._leave_command(self.token, failed=kind is not None)


def _open_writer(path: str, migrations: Path) -> sqlite3.Connection:
    """The writer: autocommit (the store says BEGIN and COMMIT itself), usable from the event loop's
    thread and from the writer's thread (never both at once: the write lock sees to that)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA busy_timeout = 5000")
        conn.execute("PRAGMA synchronous = NORMAL")
        migrate(conn, migrations)
        conn.execute("PRAGMA busy_timeout = 0")  # from here on waiting for a lock is _begin's, off the loop
        if path != ":memory:":
            conn.execute(f"PRAGMA wal_autocheckpoint = {SAFETY_NET_PAGES}")
    except BaseException:
        conn.close()
        raise
    return conn


async def _open_reader(path: Path) -> aiosqlite.Connection:
    """The read path's connection: same file, read-only, autocommit (each query sees the latest commit)."""
    reader = await aiosqlite.connect(str(path), isolation_level=None)
    reader.row_factory = sqlite3.Row
    await reader.execute("PRAGMA query_only = ON")
    await reader.execute("PRAGMA busy_timeout = 5000")
    return reader


def check_write(sql: str) -> None:
    if not _OPENS_TRANSACTION.match(sql):  # anything else would run outside the transaction
        raise ValueError(f"a store write must start with INSERT, UPDATE or DELETE: {sql[:40]!r}")
