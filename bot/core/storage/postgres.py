"""The same database interface as ``bot/core/storage/database.py``, on a PostgreSQL server shared by several bot
processes (asyncpg; ``[database] url = "postgresql://..."``).

What differs from the SQLite file, and why:

- **Connections and group commit.** A command (a transaction with a ``key``: the dispatcher passes the
  club) joins a group transaction on one of a few lanes (``Lane``: a connection each), in a savepoint of
  its own, and returns once the group's COMMIT is done, as the SQLite writer shares its COMMIT: a WAL
  flush and a round trip for many commands, not for each. While one lane commits, the others take
  commands. A transaction without a key (the scheduler's bookkeeping, ``clubbot migrate-db``) has a
  connection of the pool to itself; a single change outside any transaction is one statement, which
  PostgreSQL commits on its own. A command that only reads (``reading()``) takes a pool connection for
  each query, outside any transaction.
- **Turns per club.** The commands of one club run one at a time, as one process with SQLite does:
  inside the process an asyncio lock per key (held until the command's COMMIT, so a waiting command
  holds no lane), and across processes a transaction-scoped advisory lock on the key, let go at COMMIT or
  when a killed process's connection drops. On a lane it is taken without waiting
  (``pg_try_advisory_xact_lock``); when another process holds the club, the command runs as a
  transaction of its own that waits for the lock (``pg_advisory_xact_lock``), so a busy club never holds
  a lane, nor the other clubs' commands on it.
- **Due work once.** ``claim(name)`` is a session advisory lock taken without waiting: the process that
  gets it does the work, the others skip it (``bot/core/running/scheduler.py``); the Keizer rounds due are
  claimed a share at a time (``claim_many``, ``bot/keizer/publication.py``), so each is paired by one process.
- **Caches.** The shared tables' caches (clubs, members: ``bot/core/storage/store.py``) are emptied when this
  process writes them, and also when another process does: a transaction that wrote them sends a
  ``NOTIFY clubbot_cache`` with its COMMIT, and every process listens.
- **Kept writes.** A change whose outcome nobody reads (``write_later``: a sign-off, a pairing's games) is
  kept and sent with the command's next statement, or carried by the lane to the head of its next round
  trip, as one simple query with the values written in as literals (``literal_sql``).
- **SQL.** The stores' SQL is SQLite's; ``bot/core/storage/sql_dialect.py`` rewrites it (placeholders, INSERT OR
  IGNORE, COLLATE NOCASE, ...). The schema has its own migrations, ``migrations/postgresql/``, one for
  each file of ``migrations/`` with the same name (``bot/core/storage/pg_migrations.py``).
"""

from __future__ import annotations

import asyncio
import contextvars
from pathlib import Path
from typing import Any, Iterable

import asyncpg

from bot.core.commands.club_slots import ClubSlots
from bot.core.storage.database import ReadPath, check_write
from bot.core.storage.outage import once, tried_twice
from bot.core.storage.pg_claims import Claims, lock_number
from bot.core.storage.pg_lanes import CACHE_CHANNEL, Lane
from bot.core.storage.pg_literals import literal_sql
from bot.core.storage.migrations import MIGRATIONS_DIR
from bot.core.storage.pg_migrations import applied_migrations, migrate
from bot.core.storage.sql_dialect import postgres_sql

POOL_SIZE = 10
LANES = 3  # connections that carry the commands' group transactions (``Lane``)
CLAIM_CONNECTIONS = 3  # connections the claims of due work are held on (``claim``)


class PostgresDatabase(Claims, ReadPath):
    """Async access to the clubs' PostgreSQL database. Open with ``await open_store(url)``."""

    dialect = "postgresql"
    CACHED_TABLES: tuple[str, ...] = ()  # a write naming one of these empties the caches everywhere

    def __init__(self, pool: asyncpg.Pool, lanes: list[Lane] | None = None) -> None:
        self._pool = pool
        self._lanes = lanes or []
        self._url = ""  # to connect a lane again after its connection broke
        self._tx: contextvars.ContextVar[_Tx | None] = contextvars.ContextVar(f"pg_tx_{id(self)}", default=None)
        self._reading: contextvars.ContextVar[bool] = contextvars.ContextVar(f"pg_read_{id(self)}", default=False)
        self._turns = ClubSlots(1)  # one transaction per key at a time in this process
        self._id_tables: frozenset[str] = frozenset()
        self._listener: asyncpg.Connection | None = None  # hears the other processes' cache changes
        self._listening: asyncio.Task[None] | None = None  # opening it again after the server closed it
        # The connections the claims are held on (``claim``), each with a lock: one claim or release at a
        # time on a connection, several side by side on the others.
        self._claims: list[tuple[asyncpg.Connection, asyncio.Lock]] = []
        self._held: set[str] = set()
        self._forgotten = 0  # as in Database: a cache fill that raced an emptying is not kept

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(cls, url: str, migrations: Path = MIGRATIONS_DIR, pool_size: int = POOL_SIZE, **_unused: Any) -> Any:
        # A connection given back is not reset (asyncpg's default costs a round trip each time): it holds
        # no session state (no LISTEN, no session lock, no SET), and an open transaction is rolled back.
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_keep_session)
        lanes: list[Lane] = []
        try:
            async with pool.acquire() as conn:
                await migrate(conn, migrations)
                rows = await conn.fetch(
                    "SELECT table_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND column_name = 'id'"
                )
            for _ in range(LANES):
                lanes.append(Lane(await asyncpg.connect(url)))
            db = cls(pool, lanes)
            db._url = url
            db._id_tables = frozenset(r[0] for r in rows)
            await db._listen()
            for _ in range(CLAIM_CONNECTIONS):
                db._claims.append((await asyncpg.connect(url), asyncio.Lock()))
        except BaseException:
            for lane in lanes:
                await lane.conn.close()
            await pool.close()
            raise
        return db

    async def close(self) -> None:
        for lane in self._lanes:
            async with lane.lock:  # what is waiting for a COMMIT gets it first
                await lane.commit(self)
            await lane.conn.close()
        await self._close_listener()
        for conn, _ in self._claims:
            await conn.close()
        await self._pool.close()

    async def schema_version(self) -> int:
        return len(await self.applied_migrations())

    async def applied_migrations(self) -> list[str]:
        async with self._pool.acquire() as conn:
            return await applied_migrations(conn)

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> int:
        async with self._pool.acquire() as conn:
            return await migrate(conn, directory)

    async def integrity_check(self) -> str:
        """PostgreSQL enforces every constraint as it writes; what it has not validated is named."""
        rows = await self._pool.fetch("SELECT conname FROM pg_constraint WHERE NOT convalidated")
        return "ok" if not rows else "not validated: " + ", ".join(r[0] for r in rows)

    async def data_version(self) -> str:
        """What moves when any transaction that writes begins or ends on the server, this process's or
        another's: the current snapshot (``xmin:xmax:in-progress ids``). A transaction that committed
        has left its list by the time a later snapshot is taken, so a change is visible to every read
        made after the value moved."""
        return str(await tried_twice(self._pool.fetchval, "SELECT pg_current_snapshot()::text"))

    # ------------------------------------------------------------------ schema questions
    async def foreign_keys(self) -> list[tuple[str, str, str]]:
        """Every foreign key as (table, column, the table it refers to)."""
        rows = await self._pool.fetch(
            "SELECT k.table_name, k.column_name, u.table_name AS target"
            " FROM information_schema.referential_constraints r"
            " JOIN information_schema.key_column_usage k ON k.constraint_name = r.constraint_name"
            "  AND k.constraint_schema = r.constraint_schema"
            " JOIN information_schema.constraint_column_usage u ON u.constraint_name = r.unique_constraint_name"
            "  AND u.constraint_schema = r.unique_constraint_schema"
            " WHERE k.table_schema = current_schema() ORDER BY k.table_name, k.column_name"
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def tables(self) -> list[str]:
        rows = await self._pool.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_type = 'BASE TABLE' ORDER BY table_name"
        )
        return [r[0] for r in rows]

    async def continue_ids(self) -> None:
        """After rows came in with their own ids (``clubbot migrate-db``): each table's next id is past
        the highest."""
        for table in sorted(self._id_tables):
            await self._pool.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                f' FROM "{table}"'
            )

    async def move_references(self, table: str, column: str, source: int, target: int) -> None:
        """``UPDATE OR IGNORE``: each row of ``source`` becomes ``target``'s unless ``target`` has that row
        already (a unique key): then it stays and the caller deletes it."""
        conn = self._conn()
        for row in await conn.fetch(f'SELECT ctid FROM "{table}" WHERE "{column}" = $1', source):
            await conn.execute("SAVEPOINT row_moved")  # a clash undoes only this row
            try:
                await conn.execute(f'UPDATE "{table}" SET "{column}" = $1 WHERE ctid = $2', target, row[0])
            except asyncpg.UniqueViolationError:
                await conn.execute("ROLLBACK TO SAVEPOINT row_moved")
            await conn.execute("RELEASE SAVEPOINT row_moved")

    # ------------------------------------------------------------------ transactions
    def transaction(self, key: str | None = None) -> _Transaction:
        """``async with db.transaction(key=...):`` one command's changes, all or nothing; nested use joins
        the outer one. Transactions with the same ``key`` (a club) run one at a time, in every process.
        One with a key joins a group transaction on a lane (``Lane``) and returns once that is committed;
        one without (or whose club another process holds) is a transaction of its own."""
        return _Transaction(self, key)

    def _lane(self) -> Lane | None:
        """The lane a command joins: a free one, else the one with the fewest commands waiting."""
        if not self._lanes:
            return None
        for lane in self._lanes:
            if not lane.lock.locked():
                return lane
        return min(self._lanes, key=lambda lane: lane.waiting)

    def _forget(self, sql: str | None = None) -> None:
        self._forgotten += 1

    # ------------------------------------------------------------------ running SQL
    def _conn(self) -> asyncpg.Connection:
        tx = self._tx.get()
        if tx is None or tx.conn is None:
            raise RuntimeError("no transaction")
        return tx.conn

    def _sql(self, sql: str) -> str:
        return postgres_sql(sql, self._id_tables)

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> asyncpg.Record | None:
        tx = self._tx.get()
        if tx is not None:
            if tx.later:
                await tx.flush()
            return await tx.conn.fetchrow(self._sql(sql), *params)
        return await tried_twice(self._pool.fetchrow, self._sql(sql), *params)

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[asyncpg.Record]:
        tx = self._tx.get()
        if tx is not None:
            if tx.later:
                await tx.flush()
            return list(await tx.conn.fetch(self._sql(sql), *params))
        return list(await tried_twice(self._pool.fetch, self._sql(sql), *params))

    async def write(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one change; outside a transaction it gets one of its own. Returns the new row's id (an
        INSERT into a table with one), else 0."""
        conn = await self._change(sql)
        if conn is None:
            if not self._alone(sql):
                async with self.transaction():
                    return await self.write(sql, params)
            conn = self._pool
        translated = self._sql(sql)
        if translated.endswith(" RETURNING id"):
            value = await once(conn.fetchval, translated, *params)
            self._committed_alone(conn)
            return int(value or 0)
        await once(conn.execute, translated, *params)
        self._committed_alone(conn)
        return 0

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one change and return how many rows it changed."""
        conn = await self._change(sql)
        if conn is None:
            if not self._alone(sql):
                async with self.transaction():
                    return await self.execute(sql, params)
            conn = self._pool
        translated = self._sql(sql).removesuffix(" RETURNING id")
        status = await once(conn.execute, translated, *params)
        self._committed_alone(conn)
        return int(status.rsplit(" ", 1)[-1]) if status and status[-1].isdigit() else 0

    async def execute_alone(self, sql: str, params: Iterable[Any] = ()) -> int:
        """As ``execute``: outside a command it is a transaction of its own, committed before it returns
        (it joins no lane's group)."""
        return await self.execute(sql, params)

    async def write_later(self, sql: str, params: Iterable[Any] = ()) -> None:
        """A change whose outcome the caller does not need (no id, no count), in a command: sent with the
        command's next statement's round trip, or at its end, with the others waiting so (one round trip
        for them all: a simple query of several statements, the values written into it as literals). An
        error in it fails the command then, as it would have now. Outside a transaction: ``write``."""
        tx = self._tx.get()
        params = tuple(params)
        statement = literal_sql(self._sql(sql).removesuffix(" RETURNING id"), params)
        if tx is None or statement is None:  # a value a literal cannot say exactly: sent as it is
            await self.write(sql, params)
            return
        await self._change(sql, flush=False)  # its checks and the caches' bookkeeping
        tx.later.append(statement)

    async def execute_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        conn = await self._change(sql)
        if conn is None:
            async with self.transaction():
                return await self.execute_many(sql, rows)
        await conn.executemany(self._sql(sql).removesuffix(" RETURNING id"), [tuple(r) for r in rows])

    async def returning(self, sql: str, params: Iterable[Any] = ()) -> list[asyncpg.Record]:
        conn = await self._change(sql)
        if conn is None:
            if not self._alone(sql):
                async with self.transaction():
                    return await self.returning(sql, params)
            conn = self._pool
        found = list(await once(conn.fetch, self._sql(sql), *params))
        self._committed_alone(conn)
        return found

    def _committed_alone(self, conn: Any) -> None:
        """A change run on the pool, outside a transaction, is committed when it returns: count it with the
        COMMITs (``commits``: how the website knows its kept pages may be stale, ``bot/web/freshness.py``)."""
        if conn is self._pool:
            self.commits += 1

    def _alone(self, sql: str) -> bool:
        """Whether one change outside a transaction may run as it is: a single statement is a transaction
        of its own in PostgreSQL (committed when it returns: one round trip, not BEGIN, it and COMMIT).
        One that names a cached table gets a transaction, to send the NOTIFY with its COMMIT."""
        if any(table in sql for table in self.CACHED_TABLES):
            return False
        self._forget(sql)
        return True

    async def _change(self, sql: str, flush: bool = True) -> asyncpg.Connection | None:
        check_write(sql)
        if self._reading.get() and self._tx.get() is None:
            raise RuntimeError("a write on the read path (a command marked reads_only wrote)")
        tx = self._tx.get()
        if tx is None:
            return None
        self._forget(sql)
        if any(table in sql for table in self.CACHED_TABLES):
            tx.touched = True
        if flush and tx.later:
            await tx.flush()
        return tx.conn


class _Tx:
    __slots__ = ("conn", "touched", "later")

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.touched = False
        self.later: list[str] = []  # the changes ``write_later`` keeps for the next round trip

    async def flush(self) -> None:
        statements, self.later = self.later, []
        await self.conn.execute("; ".join(statements))


class _Transaction:
    __slots__ = ("db", "key", "held", "token", "conn", "inner", "lane", "waiter")

    def __init__(self, db: PostgresDatabase, key: str | None) -> None:
        self.db = db
        self.key = key
        self.held: str | None = None  # the key whose turn this transaction has in this process
        self.token: contextvars.Token[_Tx | None] | None = None
        self.conn: Any = None
        self.inner: Any = None
        self.lane: Lane | None = None  # the lane whose group this command joined

    async def __aenter__(self) -> None:
        db = self.db
        if db._tx.get() is not None:
            return  # joins the outer transaction
        if self.key is not None:
            await db._turns.enter(self.key)
            self.held = self.key
        try:
            await tried_twice(self._begin)  # a connection the server closed: once more, on a fresh one
        except BaseException:
            await self._release()
            raise

    async def _begin(self) -> None:
        db = self.db
        if self.conn is not None:  # the last try's connection was gone: the pool drops it, opens another
            await db._pool.release(self.conn)
            self.conn = None
        lane = db._lane() if self.key is not None else None
        if lane is not None and await lane.join(db, lock_number(self.key)):  # type: ignore[arg-type]  # a lane: a key
            self.lane = lane
            self.token = db._tx.set(_Tx(lane.conn))
            return
        self.conn = await db._pool.acquire()
        self.inner = self.conn.transaction()
        await self.inner.start()
        if self.key is not None:
            await self.conn.execute("SELECT pg_advisory_xact_lock($1)", lock_number(self.key))
        self.token = db._tx.set(_Tx(self.conn))

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if self.token is None:
            return
        tx = self.db._tx.get()
        late: BaseException | None = None  # the changes kept for a round trip failed: the command fails
        if kind is None and tx is not None and tx.later and self.lane is not None:  # the lane carries them
            later, tx.later = tx.later, []
            await self._end(tx, failed=False, later=later)
            return
        if kind is None and tx is not None and tx.later:
            try:
                await tx.flush()
            except BaseException as error:
                late = error
        await self._end(tx, failed=kind is not None or late is not None)
        if late is not None:
            raise late

    async def _end(self, tx: _Tx | None, failed: bool, later: list[str] | None = None) -> None:
        db = self.db
        db._tx.reset(self.token)  # type: ignore[arg-type]  # set in __aenter__
        if self.lane is not None:
            try:
                await self.lane.leave(db, failed=failed, touched=tx is not None and tx.touched, later=later)
            finally:
                self.lane = None
                await self._release()
            return
        try:
            if not failed:
                if tx is not None and tx.touched:
                    await self.conn.execute(f"NOTIFY {CACHE_CHANNEL}")  # delivered with the COMMIT
                await self.inner.commit()
                db.commits += 1
            else:
                await self.inner.rollback()
        except BaseException:  # a failed COMMIT keeps nothing (the pool rolls the connection back)
            db._forget()
            raise
        finally:
            if failed or (tx is not None and tx.touched):
                db._forget()
            await self._release()

    async def _release(self) -> None:
        if self.conn is not None:
            await self.db._pool.release(self.conn)
            self.conn = None
        if self.held is not None:
            self.db._turns.leave(self.held)
            self.held = None


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset: nothing beyond the rollback of an open transaction asyncpg does itself."""
