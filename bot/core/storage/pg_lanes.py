"""The lanes of the PostgreSQL store (``bot/core/storage/postgres.py``): group commit on PostgreSQL.

A lane is a connection with one open transaction that the commands of several clubs share, one after
another, each in a savepoint of its own; one COMMIT (one WAL flush, one round trip) makes all of them
durable, and each command's reply waits for it, as the SQLite writer's group commit does
(``bot/core/storage/database.py``). The store keeps a few lanes, so that while one commits the others take
commands.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable

import asyncpg

from bot.core.storage.database import settle
from bot.core.storage.outage import DatabaseDown, fresh

CACHE_CHANNEL = "clubbot_cache"


class Lane:
    """A connection whose one open transaction the commands of several clubs share: group commit, as the
    SQLite writer does (``bot/core/storage/database.py``).

    Commands take turns on the lane (an asyncio lock, first come first served). A command opens the
    transaction if none is open and a savepoint of its own, and takes its club's advisory lock without
    waiting, in one round trip. If another process holds the club, the command leaves the lane and runs
    as a transaction of its own that waits for the lock (so a lane never waits for another process's
    club while holding others' commands). A command that fails rolls back to its savepoint: only its own
    writes are undone. One that succeeds queues a COMMIT behind the commands waiting for the lane, and
    returns once that COMMIT is done: no reply announces a change that is not durable. If the COMMIT
    fails, every command of the group gets the error. While one lane commits, the others take commands.
    A command's kept writes (``write_later``) are carried to the head of the lane's next round trip (the
    next command's join, or the COMMIT); if the server refuses one, that command alone is rolled back to
    its savepoint and told through its waiter."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()
        self.waiting = 0  # commands waiting for the lock (to choose a lane)
        self.open = False  # a transaction is open on the lane
        self.release = False  # the last command's savepoint is still to be released
        self.group: list[asyncio.Future[None]] = []  # the commands waiting for the open transaction's COMMIT
        self.commands = 0  # commands whose changes the open transaction holds
        self.touched = False  # one of them wrote a cached table: NOTIFY with the COMMIT
        self.flush: asyncio.Task[None] | None = None
        # The last command's kept writes (``write_later``) and its waiter: sent at the head of the lane's
        # next round trip (the next command's join, or the COMMIT), before its savepoint is released.
        self.carried: tuple[str, asyncio.Future[None]] | None = None

    async def _send_carried(self, db: Any, sql: str) -> str:
        """Run ``sql`` on the lane with the last command's kept writes before it. If those fail, that
        command alone fails (rolled back to its savepoint, told through its waiter) and ``sql`` runs
        after all."""
        if self.carried is None:
            return str(await self.conn.execute(sql))
        writes, waiter = self.carried
        self.carried = None
        try:
            return str(await self.conn.execute(f"{writes}; {sql}"))
        except asyncpg.PostgresError as error:  # the server refused a write: that command's own trouble
            await self.conn.execute("ROLLBACK TO SAVEPOINT command; RELEASE SAVEPOINT command")
            self.commands -= 1
            _fail_alone(db, self.group, waiter, error)
            self.release = False
            rest = sql.removeprefix("RELEASE SAVEPOINT command").removeprefix("; ")  # released just now
            return str(await self.conn.execute(rest)) if rest else ""

    async def join(self, db: Any, number: int) -> bool:
        """Take the lane and open this command's savepoint with its club's lock; False (and the lane let
        go) if another process holds the club."""
        self.waiting += 1
        try:
            await self.lock.acquire()
        finally:
            self.waiting -= 1
        try:
            if self.conn.is_closed():  # the server closed it (a restart): what it held is lost; a new one
                await self._broken(db, DatabaseDown("the database closed the connection"))
                self.conn = await fresh(self.conn, db._url)
            prefix = ("" if self.open else "BEGIN; ") + ("RELEASE SAVEPOINT command; " if self.release else "")
            self.open, self.release = True, True
            status = await self._send_carried(db, f"{prefix}SAVEPOINT command; SELECT 1 WHERE pg_try_advisory_xact_lock({number})")
        except BaseException as exc:
            await self._broken(db, exc)
            self.lock.release()
            raise
        if status == "SELECT 1":
            return True
        self._queue_flush(db)
        self.lock.release()
        return False

    async def leave(self, db: Any, failed: bool, touched: bool, later: list[str] | None = None) -> None:
        """The command is done: rolled back to its savepoint if it ``failed``; else it waits for the
        group's COMMIT, its kept writes (``later``) sent at the head of the lane's next round trip."""
        waiter = None
        try:
            if failed:
                db._forget()
                try:
                    await self.conn.execute("ROLLBACK TO SAVEPOINT command; RELEASE SAVEPOINT command")
                    self.release = False
                except BaseException as exc:
                    await self._broken(db, exc)
                    return
            else:
                self.commands += 1
                self.touched |= touched
                waiter = asyncio.get_running_loop().create_future()
                self.group.append(waiter)
                if later:
                    self.carried = ("; ".join(later), waiter)
            self._queue_flush(db)
        finally:
            self.lock.release()
        if waiter is not None:
            await waiter

    def _queue_flush(self, db: Any) -> None:
        if self.open and (self.flush is None or self.flush.done()):
            self.flush = asyncio.get_running_loop().create_task(self._commit_group(db))

    async def _commit_group(self, db: Any) -> None:
        """Behind the commands waiting for the lane: COMMIT what they and the ones before did."""
        async with self.lock:
            await self.commit(db)

    async def commit(self, db: Any) -> None:
        """COMMIT the open transaction (the lane is held); tell its commands how it went. The last
        command's kept writes go in the same round trip, before its savepoint is released."""
        if not self.open:
            return
        carried, self.carried = self.carried, None
        group, touched = self.group, self.touched
        self.group, self.commands, self.touched, self.release, self.open = [], 0, False, False, False
        notify = f"NOTIFY {CACHE_CHANNEL}; " if touched else ""  # the NOTIFY goes with the COMMIT
        head = f"{carried[0]}; RELEASE SAVEPOINT command; " if carried else ""
        job = await _seen_through(self.conn.execute(head + notify + "COMMIT"))
        refused = None if job.cancelled() else job.exception()
        if carried and isinstance(refused, asyncpg.PostgresError) and self.conn.is_in_transaction():
            # the server refused the last command's writes (the COMMIT never ran): that command alone fails
            job = await _seen_through(self.conn.execute(f"ROLLBACK TO SAVEPOINT command; RELEASE SAVEPOINT command; {notify}COMMIT"))
            _fail_alone(db, group, carried[1], refused)
        if job.cancelled() or job.exception() is not None:  # not cancelled: job.exception() is the error
            await self._broken(db, RuntimeError("the commit was cancelled") if job.cancelled() else job.exception(), group)  # type: ignore[arg-type]
            return
        db.commits += 1  # the website's kept pages see it (bot/web/freshness.py)
        if touched:
            db._forget()
        settle(group, None)

    async def _broken(self, db: Any, error: BaseException, group: list[asyncio.Future[None]] | None = None) -> None:
        """The open transaction failed as a whole: none of its changes remain and its commands get the
        error; the lane starts again with a clean connection."""
        group = self.group if group is None else group
        self.group, self.commands, self.touched, self.release, self.open = [], 0, False, False, False
        self.carried = None  # its waiter is in the group
        db._forget()
        try:
            if not self.conn.is_closed() and self.conn.is_in_transaction():
                await self.conn.execute("ROLLBACK")
        except BaseException:
            self.conn.terminate()
        try:
            self.conn = await fresh(self.conn, db._url)
        except Exception:  # the server is gone: the next command's join says so
            pass
        settle(group, error)


def _fail_alone(db: Any, group: list[asyncio.Future[None]], waiter: asyncio.Future[None], error: BaseException) -> None:
    """A command whose kept writes the server refused (rolled back to its savepoint): out of the group it
    was to be committed with, told the error; what the caches read may have changed."""
    if waiter in group:
        group.remove(waiter)
    if not waiter.done():
        waiter.set_exception(error)
    db._forget()


async def _seen_through(statement: Awaitable[Any]) -> asyncio.Future[Any]:
    """Run a COMMIT to its end even if the task waiting for it is cancelled, and hand back its outcome
    (a result or an error) to look at, never raised here: a COMMIT that failed must still tell its
    commands, or they would wait for ever."""
    job = asyncio.ensure_future(statement)
    try:
        await asyncio.shield(job)
    except asyncio.CancelledError:  # the COMMIT runs on all the same: see it through
        await asyncio.wait([job])
    except Exception:  # looked at by the caller
        pass
    return job
