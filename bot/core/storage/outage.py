"""The database out of reach for a while (PostgreSQL restarting or stopped; issue 46 §3), told apart from
a bug.

``DatabaseDown`` is what the PostgreSQL store raises when the server cannot be reached after it tried once
more: a read outside a command, or the start of a transaction, whose connection the server had closed is
retried once on a fresh connection (repeating it is safe: nothing was written), so the first command after
a restart works. What still fails is the server really down: the dispatcher answers "try again in a
minute" in the club's language and changes nothing (``bot/core/commands/dispatch.py``), the website
answers 503 (``bot/web/server.py``). ``connection_lost`` says whether an error is of that kind: a
connection closed or refused, or the server shutting down or starting up.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, TypeVar

import asyncpg

T = TypeVar("T")

# The server's own words for "not now": shutting down, crashed, starting up, or a connection it dropped.
_SERVER_GONE = (
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.ConnectionDoesNotExistError,
)


class DatabaseDown(Exception):
    """The database cannot be reached now: its server is stopped or restarting, or the way to it is cut."""


def connection_lost(exc: BaseException, connecting: bool = False) -> bool:
    """Whether ``exc`` says the database's connection is gone (not a refused statement, not a bug).
    ``connecting``: ``exc`` came from opening a connection, where a refused or reset socket (``OSError``)
    or a timeout means the server is not there; elsewhere an ``OSError`` may be a file's."""
    if isinstance(exc, (DatabaseDown, *_SERVER_GONE)):
        return True
    if isinstance(exc, asyncpg.InterfaceError) and "connection is closed" in str(exc):
        return True
    return connecting and isinstance(exc, (OSError, TimeoutError))


def down(exc: BaseException) -> DatabaseDown:
    """``exc`` said as the database being out of reach (raised ``from`` it)."""
    return exc if isinstance(exc, DatabaseDown) else DatabaseDown(f"the database cannot be reached: {exc}")


async def tried_twice(read: Callable[..., Awaitable[T]], *args: Any) -> T:
    """``await read(*args)``, once more if the connection it got was gone (the pool opens a fresh one for
    it); ``DatabaseDown`` if the server is still not there. Only for what is safe to repeat: a read, or a
    transaction's start."""
    try:
        return await read(*args)
    except Exception as exc:
        if not connection_lost(exc, connecting=True):
            raise
    return await once(read, *args)


async def once(change: Callable[..., Awaitable[T]], *args: Any) -> T:
    """``await change(*args)``, not repeated (it may have been made before its connection went), with a
    connection that could not be had or was lost said as ``DatabaseDown``."""
    try:
        return await change(*args)
    except Exception as exc:
        if connection_lost(exc, connecting=True):
            raise down(exc) from exc
        raise


async def fresh(conn: asyncpg.Connection, url: str) -> asyncpg.Connection:
    """``conn``, or a new connection in its place if the server closed it; ``DatabaseDown`` if none
    can be opened now."""
    if not conn.is_closed():
        return conn
    try:
        return await asyncpg.connect(url)
    except Exception as exc:
        if connection_lost(exc, connecting=True):
            raise down(exc) from exc
        raise
